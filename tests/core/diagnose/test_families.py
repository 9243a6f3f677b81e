"""A message's family and facts in today's and older torch's words, read through the one parser."""

from __future__ import annotations

import pytest

from tensorlab.core.diagnose.families import normal_node, read_family

SAVED = "one of the variables needed for gradient computation has been modified by an inplace operation: "


@pytest.mark.parametrize("node, kind", [("ReluBackward0", "Relu"), ("ReluBackward1", "Relu"), ("Relu", "Relu"),
                                        ("TBackward", "T"), ("SumBackward1", "Sum"), ("Sum1", "Sum"),
                                        ("torch::autograd::CopySlices", "CopySlices"), ("Log10Backward0", "Log10"),
                                        ("AsStridedBackward0", "AsStrided")])
def test_node_names_of_every_torch(node, kind):
    assert normal_node(node) == kind


def test_the_facts_of_a_saved_tensor():
    family = read_family(f"{SAVED}[torch.cuda.HalfTensor [2, 0, 5]], which is output 1 of SplitBackward0, is at "
                         "version 7; expected version 6 instead. Good luck!", "RuntimeError")
    assert family is not None and family.name == "saved_changed" and family.type == "RuntimeError"
    assert family.facts == {"tensor_type": "torch.cuda.HalfTensor", "dtype": "float16", "devices": ["cuda"],
                            "shape": [2, 0, 5], "node": "SplitBackward0", "output_index": 1, "version": 7,
                            "expected_version": 6}
    scalar = read_family(f"{SAVED}[torch.FloatTensor []] is at version 1; expected version 0 instead.", "")
    assert scalar.facts["shape"] == [] and "node" not in scalar.facts


@pytest.mark.parametrize("message, family", [
    ("Can't call numpy() on Variable that requires grad. Use var.detach().numpy() instead.", "numpy_grad"),
    ("To copy construct from a tensor, it is recommended to use sourceTensor.clone().detach() or "
     "sourceTensor.clone().detach().requires_grad_(True), rather than torch.tensor(sourceTensor).", "tensor_copies"),
    ("one of the variables needed for gradient computation has been modified by an inplace operation",
     "saved_changed"),
    ("Expected object of device type cuda but got device type cpu for argument #1 'self' in call to _th_mm",
     "mixed_devices"),
    ("Tensor for argument #2 'mat1' is on CPU, but expected it to be on GPU (while checking arguments for addmm)",
     "mixed_devices"),
    ("a leaf Variable that requires grad has been used in an in-place operation.", "leaf_inplace"),
    ("Only Tensors of floating point dtype can require gradients", "integer_grad"),
    ("element 0 of variables does not require grad and does not have a grad_fn", "nothing_to_differentiate"),
    ("invalid argument 2: view size is not compatible with input tensor's size and stride (at least one dimension "
     "spans across two contiguous subspaces). Call .contiguous() before .view(). at "
     "/pytorch/aten/src/THC/generic/THCTensor.cpp:209", "view_strides"),
    ("A view was created in no_grad mode and its base or another view of its base has been modified inplace with "
     "grad mode enabled.", "no_grad_view"),
])
def test_older_wordings(message, family):
    found = read_family(message, "")
    assert found is not None and found.name == family


@pytest.mark.parametrize("message, devices", [
    ("Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!",
     ["cuda:0", "cpu"]),
    ("Expected all tensors to be on the same device, but got index is on cpu, different from other tensors on "
     "cuda:1 (when checking argument in method wrapper_CUDA__index_select)", ["cpu", "cuda:1"]),
    ("Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same", ["cpu", "cuda"]),
    ("Tensor for argument #2 'mat1' is on CPU, but expected it to be on GPU (while checking arguments for addmm)",
     ["cpu", "cuda"]),
    # torch's Python check (meta tensors, MPS): the expected device, the first operand's, is named last.
    ("Tensor on device cpu is not on the expected device meta!", ["meta", "cpu"]),
    ("Tensor on device mps:0 is not on the expected device cpu!", ["cpu", "mps"]),
])
def test_devices(message, devices):
    assert read_family(message, "RuntimeError").facts["devices"] == devices


def test_not_a_family():
    assert read_family("mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)", "RuntimeError") is None
    assert read_family("CUDA out of memory. Tried to allocate 2.00 GiB", "RuntimeError") is None
    assert read_family("x " + SAVED, "RuntimeError") is None       # a form is read from the message's start
