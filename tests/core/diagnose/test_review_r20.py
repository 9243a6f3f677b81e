"""What a fresh-eyes review of ``diagnose`` found (h20c), each checked against real torch where torch can make it:
every legacy tensor type name, torch.compile's quoted error, the first sentence of the Unbind message alone,
the two wordings of integer_grad, impossible versions, a node the reproduction does not raise, the advice."""

from __future__ import annotations

import pytest
import torch

from tensorlab.core.diagnose.explain_paste import diagnose
from tensorlab.core.diagnose.families import inner_message, read_family, tensor_dtype
from tests.core.diagnose.reference import plain_torch, reproduced

SAVED = "one of the variables needed for gradient computation has been modified by an inplace operation: "
DTYPES = {"float32": torch.float32, "float64": torch.float64, "float16": torch.float16, "bfloat16": torch.bfloat16,
          "uint8": torch.uint8, "int8": torch.int8, "int16": torch.int16, "int32": torch.int32, "int64": torch.int64,
          "bool": torch.bool, "complex64": torch.complex64, "complex128": torch.complex128}
LEGACY = {"Float": "float32", "Double": "float64", "Half": "float16", "BFloat16": "bfloat16", "Byte": "uint8",
          "Char": "int8", "Short": "int16", "Int": "int32", "Long": "int64", "Bool": "bool",
          "ComplexFloat": "complex64", "ComplexDouble": "complex128"}


@pytest.mark.parametrize("scalar", sorted(LEGACY))
def test_every_legacy_type_name_with_its_device(scalar):
    dtype = LEGACY[scalar]
    assert tensor_dtype(f"torch.{scalar}Tensor") == (dtype, "cpu")
    assert tensor_dtype(f"torch.cuda.{scalar}Tensor") == (dtype, "cuda")
    assert tensor_dtype(f"CPU{scalar}Type") == (dtype, "cpu")
    assert tensor_dtype(f"CUDA{scalar}Type") == (dtype, "cuda")
    family = read_family(f"{SAVED}[CUDA{scalar}Type [2, 3]], which is output 0 of Sigmoid, is at version 1; "
                         "expected version 0 instead.", "RuntimeError")
    assert family is not None and family.facts["dtype"] == dtype and family.facts["devices"] == ["cuda"]


@pytest.mark.parametrize("name", ["torch.EvilTensor", "CPUEvilType", "torch.mps.FloatTensor", "FloatType", "Type",
                                  "torch.Tensor", "CUDAType", "torch.cuda.cuda.FloatTensor"])
def test_an_unknown_type_name_has_no_dtype(name):
    assert tensor_dtype(name) == (None, None)


@pytest.mark.parametrize("dtype", sorted(DTYPES))
def test_torch_writes_each_dtype_as_tensor_dtype_reads_it(dtype):
    """Real torch's version error for a saved tensor of each dtype: read back as that dtype."""
    x = torch.zeros(3, dtype=DTYPES[dtype])
    src = torch.randn(3, requires_grad=True)
    if dtype == "bool":
        out = src.masked_fill(x, 0.0)
        x.logical_not_()
    elif dtype in ("float32", "float64", "float16", "bfloat16", "complex64", "complex128"):
        x.requires_grad_()
        out = (x * x).real if dtype.startswith("complex") else x * x
        with torch.no_grad():
            x.add_(1)
    elif dtype in ("uint8", "int8", "int16"):
        pytest.skip("no operation saves an index tensor of this dtype (uint8 is read as a mask)")
    else:
        out = src[x]
        x.add_(1)
    with pytest.raises(RuntimeError) as raised:
        out.sum().backward()
    family = read_family(str(raised.value), "RuntimeError")
    assert family is not None and family.facts["dtype"] == dtype, str(raised.value)


def test_torch_compiles_quoted_error_is_read_as_the_view_family():
    line = ("  Explanation: Dynamo failed to run FX node with fake tensors: call_method view(*(FakeTensor(..., "
            "size=(6, 4)), 24), **{}): got ValueError('Cannot view a tensor with shape torch.Size([6, 4]) and strides "
            "(1, 6) as a tensor with shape (24,)!')")
    assert inner_message(line) == ("ValueError", "Cannot view a tensor with shape torch.Size([6, 4]) and strides "
                                                 "(1, 6) as a tensor with shape (24,)!")
    assert inner_message("no quoted exception here") is None
    found = diagnose("torch._dynamo.exc.TorchRuntimeError: RuntimeError when making fake tensor call\n" + line + "\n")
    assert found.explained and found.family == "view_strides" and found.type == "TorchRuntimeError"
    # ... and the reproduction raises eager torch's words for the same mistake.
    type_name, family = reproduced(found.reproduction)
    assert type_name == "RuntimeError" and family is not None and family.name == "view_strides"


@pytest.mark.parametrize("node", ["Unbind", "UnbindBackward0", "Split", "SplitBackward0", "SplitWithSizesBackward0"])
def test_the_first_sentence_of_the_multi_view_message_alone(node):
    found = diagnose(f"RuntimeError: Output 1 of {node} is a view and is being modified inplace.")
    assert found.explained and found.family == "multi_view_inplace"
    assert dict(found.facts) == {"node": node, "output_index": 1}


@pytest.mark.parametrize("node", ["SelectBackward0", "AsStridedBackward0", "ViewBackward0"])
def test_the_first_sentence_alone_of_another_view_is_not_guessed(node):
    """The same sentence begins the custom-Function and no_grad forms of other views: not named alone."""
    assert not diagnose(f"RuntimeError: Output 0 of {node} is a view and is being modified inplace.").explained


@pytest.mark.parametrize("code", ["x = torch.tensor([1, 2, 3], requires_grad=True)",
                                  "x = torch.tensor([1, 2, 3])\nx.requires_grad_()",
                                  "x = torch.arange(4)\nx.requires_grad = True"])
def test_the_integer_grad_reproduction_raises_the_pasted_wording(code):
    raised = plain_torch([code])
    assert raised is not None
    found = diagnose(f"{raised[0]}: {raised[1]}")
    assert found.explained and found.family == "integer_grad"
    assert plain_torch(found.reproduction) == raised


def test_impossible_versions_are_said_inconsistent_and_the_reproduction_shows_the_usual_pair():
    found = diagnose(f"RuntimeError: {SAVED}[torch.FloatTensor [3, 4]], which is output 0 of Relu, is at version 0; "
                     "expected version 7 instead.")
    for language in ("en", "ko"):
        text = found.text.render(language)
        assert "0" in text and "7" in text
    text = found.text.render("en")
    assert "inconsistent" in text and "raised its version by" not in text and "version 1" in text
    type_name, family = reproduced(found.reproduction)
    assert (family.facts["version"], family.facts["expected_version"]) == (1, 0)


def test_a_node_the_reproduction_does_not_raise_is_not_claimed():
    found = diagnose(f"RuntimeError: {SAVED}[torch.cuda.LongTensor [2, 64]], which is output 0 of "
                     "AsStridedBackward0, is at version 3; expected version 0 instead.")
    text = found.text.render("en")
    assert "in place of" not in text and "names none where yours names AsStridedBackward0" in text
    _, family = reproduced(found.reproduction)
    assert "node" not in family.facts and family.facts["dtype"] == "int64" and family.facts["shape"] == [2, 64]


def test_a_uint8_tensor_is_reproduced_as_int64_and_said():
    found = diagnose(f"RuntimeError: {SAVED}[torch.ByteTensor [4]] is at version 1; expected version 0 instead.")
    assert "saved tensor is int64 where yours is uint8" in found.text.render("en")
    _, family = reproduced(found.reproduction)
    assert family.facts["dtype"] == "int64"


def test_the_advice_is_a_capitalised_paragraph():
    found = diagnose(f"RuntimeError: {SAVED}[torch.FloatTensor [3]], which is output 0 of Relu, is at version 1; "
                     "expected version 0 instead.")
    assert found.advice.render("en").startswith("change")      # after "What to do:" in a lesson
    assert found.advice_text("en").startswith("Change a `clone()`")
    assert found.to_json("en")["explanation"]["advice"].startswith("Change")
    assert found.advice_text("ko") == found.advice.render("ko")
    code_first = diagnose("RuntimeError: view size is not compatible with input tensor's size and stride")
    assert code_first.advice_text("en").startswith("`reshape()`")      # code stays as written


def test_the_unbind_paste_says_the_lesson_shows_split():
    found = diagnose("RuntimeError: Output 0 of Unbind is a view and is being modified inplace.")
    assert "views-that-refuse-in-place" in found.lessons
    assert "The lessons show the same error with `Split`, where yours names Unbind." in found.text.render("en")
    split = diagnose("RuntimeError: Output 0 of SplitBackward0 is a view and is being modified inplace.")
    assert "lessons show" not in split.text.render("en")
