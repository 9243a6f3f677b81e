"""Write the transcribed part of the diagnose corpus: torch 1.x wordings and the paste formats a real run here
cannot make (DDP, torch.compile, torchrun prefixes, terminal wrapping, old IPython), and the unrelated set.

    python tests/data/diagnose/make_transcribed.py

The texts are transcribed from the forms torch 1.x and the tools print (the wording of each message as
torch's source of that version wrote it); ``transcribed.json`` says what the test expects of each.
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "transcribed"

SITE = "/opt/conda/lib/python3.8/site-packages"
PLAIN_1X = f'''Traceback (most recent call last):
  File "train.py", line 87, in <module>
    loss.backward()
  File "{SITE}/torch/tensor.py", line 221, in backward
    torch.autograd.backward(self, gradient, retain_graph, create_graph)
  File "{SITE}/torch/autograd/__init__.py", line 132, in backward
    allow_unreachable=True)  # allow_unreachable flag
'''
HINT_1X = ("Hint: the backtrace further above shows the operation that failed to compute its gradient. The variable "
           "in question was changed in there or anywhere later. Good luck!")
HINT_ANOMALY = ("Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
                "torch.autograd.set_detect_anomaly(True).")
SAVED = "one of the variables needed for gradient computation has been modified by an inplace operation: "



def _wrapped(text: str, width: int) -> str:
    """``text`` as a terminal of ``width`` columns wraps it: cut every ``width`` characters, mid-word too."""
    return "".join(text[i:i + width] + "\n" for i in range(0, len(text), width))


# name: (text, family or None, kind, type, facts, line (None: not checked; "" : must be None), torch version)
CASES: dict[str, tuple[str, str | None, str | None, str | None, dict, str | None, str]] = {
    "saved-good-luck-relu1-cuda": (
        PLAIN_1X + f"RuntimeError: {SAVED}[torch.cuda.FloatTensor [64, 128]], which is output 0 of ReluBackward1, "
        f"is at version 2; expected version 1 instead. {HINT_1X}\n",
        "saved_changed", "error", "RuntimeError",
        {"tensor_type": "torch.cuda.FloatTensor", "dtype": "float32", "shape": [64, 128], "node": "ReluBackward1",
         "output_index": 0, "version": 2, "expected_version": 1, "devices": ["cuda"]}, "loss.backward()", "1.6"),
    "saved-tbackward-gan": (
        PLAIN_1X.replace("train.py", "gan.py").replace("loss.backward()", "errD.backward()") +
        f"RuntimeError: {SAVED}[torch.FloatTensor [100, 1]], which is output 0 of TBackward, is at version 2; "
        f"expected version 1 instead. {HINT_ANOMALY}\n",
        "saved_changed", "error", "RuntimeError",
        {"tensor_type": "torch.FloatTensor", "shape": [100, 1], "node": "TBackward", "version": 2,
         "expected_version": 1}, "errD.backward()", "1.8"),
    "saved-relubackward0-wrapped-words": (
        "RuntimeError: one of the variables needed for gradient computation has been\nmodified by an inplace "
        "operation: [torch.FloatTensor [3, 4]], which is output 0\nof ReluBackward0, is at version 1; expected "
        "version 0 instead. Hint: enable\nanomaly detection to find the operation that failed to compute its "
        "gradient.\n",
        "saved_changed", "error", "RuntimeError",
        {"shape": [3, 4], "node": "ReluBackward0", "version": 1, "expected_version": 0}, "", "1.10"),
    "saved-asstrided-wrapped-80": (
        _wrapped(f"RuntimeError: {SAVED}[torch.FloatTensor [10, 20]], which is output 0 of AsStridedBackward0, is "
                 f"at version 3; expected version 2 instead. {HINT_ANOMALY}", 80),
        "saved_changed", "error", "RuntimeError",
        {"shape": [10, 20], "node": "AsStridedBackward0", "version": 3, "expected_version": 2}, "", "1.13"),
    "saved-no-facts-0.4": (
        PLAIN_1X + "RuntimeError: one of the variables needed for gradient computation has been modified by an "
        "inplace operation\n",
        "saved_changed", "error", "RuntimeError", {}, "loss.backward()", "0.4"),
    "saved-long-indices": (
        PLAIN_1X + f"RuntimeError: {SAVED}[torch.cuda.LongTensor [128]] is at version 3; expected version 2 "
        f"instead. {HINT_ANOMALY}\n",
        "saved_changed", "error", "RuntimeError",
        {"tensor_type": "torch.cuda.LongTensor", "dtype": "int64", "shape": [128], "version": 3,
         "expected_version": 2}, "loss.backward()", "1.9"),
    "saved-huge-shape": (
        f"RuntimeError: {SAVED}[torch.FloatTensor [1000000, 1000000]], which is output 0 of MulBackward0, is at "
        f"version 1; expected version 0 instead. {HINT_ANOMALY}\n",
        "saved_changed", "error", "RuntimeError",
        {"shape": [1000000, 1000000], "node": "MulBackward0"}, "", "1.12"),
    "saved-ddp-spawn": (
        '''Traceback (most recent call last):
  File "/home/me/ddp_train.py", line 61, in <module>
    mp.spawn(train, args=(world_size,), nprocs=world_size, join=True)
  File "/usr/local/lib/python3.10/dist-packages/torch/multiprocessing/spawn.py", line 240, in spawn
    return start_processes(fn, args, nprocs, join, daemon, start_method='spawn')
  File "/usr/local/lib/python3.10/dist-packages/torch/multiprocessing/spawn.py", line 160, in join
    raise ProcessRaisedException(msg, error_index, failed_process.pid)
torch.multiprocessing.spawn.ProcessRaisedException:\x20

-- Process 0 terminated with the following error:
Traceback (most recent call last):
  File "/usr/local/lib/python3.10/dist-packages/torch/multiprocessing/spawn.py", line 69, in _wrap
    fn(i, *args)
  File "/home/me/ddp_train.py", line 44, in train
    loss.backward()
  File "/usr/local/lib/python3.10/dist-packages/torch/_tensor.py", line 487, in backward
    torch.autograd.backward(
  File "/usr/local/lib/python3.10/dist-packages/torch/autograd/__init__.py", line 200, in backward
    Variable._execution_engine.run_backward(  # Calls into the C++ engine to run the backward pass
''' + f"RuntimeError: {SAVED}[torch.cuda.FloatTensor [512]] is at version 3; expected version 2 instead. "
        f"{HINT_ANOMALY}\n",
        "saved_changed", "error", "RuntimeError",
        {"tensor_type": "torch.cuda.FloatTensor", "shape": [512], "version": 3, "expected_version": 2},
        "loss.backward()", "2.0"),
    "saved-torch-compile": (
        '''Traceback (most recent call last):
  File "/home/me/train.py", line 30, in <module>
    out = compiled(x)
          ^^^^^^^^^^^
  File "/usr/local/lib/python3.11/site-packages/torch/_dynamo/eval_frame.py", line 451, in _fn
    return fn(*args, **kwargs)
           ^^^^^^^^^^^^^^^^^^^
torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:
''' + f"RuntimeError: {SAVED}[torch.FloatTensor [16, 8]], which is output 0 of MulBackward0, is at version 1; "
        f"expected version 0 instead. {HINT_ANOMALY}\n" + '''
Set TORCH_LOGS="+dynamo" and TORCHDYNAMO_VERBOSE=1 for more information


You can suppress this exception and fall back to eager by setting:
    import torch._dynamo
    torch._dynamo.config.suppress_errors = True
''',
        "saved_changed", "error", "RuntimeError",
        {"shape": [16, 8], "node": "MulBackward0", "version": 1, "expected_version": 0}, "out = compiled(x)", "2.1"),
    "leaf-dynamo-user-code": (
        '''Traceback (most recent call last):
  File "/home/me/step.py", line 9, in <module>
    f(w)
  File "/usr/local/lib/python3.11/site-packages/torch/_dynamo/eval_frame.py", line 489, in _fn
    return fn(*args, **kwargs)
torch._dynamo.exc.TorchRuntimeError: Failed running call_method add_(*(FakeTensor(..., size=(3,), \
requires_grad=True), 1), **{}):
a leaf Variable that requires grad is being used in an in-place operation.

from user code:
   File "/home/me/step.py", line 5, in f
    w.add_(1)
''',
        "leaf_inplace", "error", "TorchRuntimeError", {}, "w.add_(1)", "2.1"),
    "leaf-torchrun-rank": (
        "".join(f"[rank0]: {line}\n" for line in '''Traceback (most recent call last):
  File "/workspace/train.py", line 71, in <module>
    param -= lr * param.grad
    ~~~~~~^^^^^^^^^^^^^^^^^^
RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.'''.splitlines()),
        "leaf_inplace", "error", "RuntimeError", {}, "param -= lr * param.grad", "2.4"),
    "leaf-torchrun-child-failed": (
        "".join(f"[rank0]: {line}\n" for line in '''Traceback (most recent call last):
  File "/workspace/train.py", line 71, in <module>
    w.add_(1)
RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.'''.splitlines()) +
        '''E0611 10:02:11.123000 140 torch/distributed/elastic/multiprocessing/api.py:826] failed (exitcode: 1) \
local_rank: 0 (pid: 141) of binary: /usr/bin/python
Traceback (most recent call last):
  File "/usr/local/bin/torchrun", line 8, in <module>
    sys.exit(main())
  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/run.py", line 879, in main
    run(args)
  File "/usr/local/lib/python3.10/dist-packages/torch/distributed/launcher/api.py", line 263, in launch_agent
    raise ChildFailedError(
torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\x20
============================================================
train.py FAILED
------------------------------------------------------------
Failures:
  <NO_OTHER_FAILURES>
------------------------------------------------------------
Root Cause (first observed failure):
[0]:
  rank      : 0 (local_rank: 0)
  exitcode  : 1 (pid: 141)
  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html
============================================================
''', "leaf_inplace", "error", "RuntimeError", {}, "w.add_(1)", "2.3"),
    "leaf-message-alone": (
        "a leaf Variable that requires grad is being used in an in-place operation.\n",
        "leaf_inplace", "error", "RuntimeError", {}, "", "2.2"),
    "leaf-direct-cause": (
        '''Traceback (most recent call last):
  File "/home/me/train.py", line 14, in step
    lr = config["lr"]
KeyError: 'lr'

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/home/me/train.py", line 20, in <module>
    w.add_(1)
RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.
''', "leaf_inplace", "error", "RuntimeError", {}, "w.add_(1)", "2.0"),
    "numpy-variable-0.4": (
        PLAIN_1X.replace("loss.backward()", "plt.plot(x.numpy())") +
        "RuntimeError: Can't call numpy() on Variable that requires grad. Use var.detach().numpy() instead.\n",
        "numpy_grad", "error", "RuntimeError", {}, "plt.plot(x.numpy())", "0.4"),
    "numpy-old-ipython": (
        '''---------------------------------------------------------------------------
RuntimeError                              Traceback (most recent call last)
<ipython-input-5-8d6e1f3b2a1c> in <module>
      3 pred = model(x)
----> 4 plt.plot(x.numpy(), pred.numpy())

RuntimeError: Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.
''', "numpy_grad", "error", "RuntimeError", {}, "plt.plot(x.numpy(), pred.numpy())", "1.7"),
    "nonleaf-informations": (
        "/home/user/nb.py:12: UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor is being "
        "accessed. Its .grad attribute won't be populated during autograd.backward(). If you indeed want the "
        "gradient for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf "
        "Tensor by mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 "
        "for more informations.\n  print(w.grad)\n",
        "nonleaf_grad", "warning", "UserWarning", {}, "print(w.grad)", "1.8"),
    "nonleaf-then-typeerror": (
        "/home/user/sgd.py:9: UserWarning: The .grad attribute of a Tensor that is not a leaf Tensor is being "
        "accessed. Its .grad attribute won't be populated during autograd.backward(). If you indeed want the "
        "gradient for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you access the non-leaf "
        "Tensor by mistake, make sure you access the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 "
        "for more informations.\n  w = w - lr * w.grad\n"
        '''Traceback (most recent call last):
  File "/home/user/sgd.py", line 9, in <module>
    w = w - lr * w.grad
TypeError: unsupported operand type(s) for *: 'float' and 'NoneType'
''', "nonleaf_grad", "warning", "UserWarning", {}, "w = w - lr * w.grad", "1.8"),
    "copies-clone-detach": (
        "/home/u/data.py:20: UserWarning: To copy construct from a tensor, it is recommended to use "
        "sourceTensor.clone().detach() or sourceTensor.clone().detach().requires_grad_(True), rather than "
        "torch.tensor(sourceTensor).\n  labels = torch.tensor(labels)\n",
        "tensor_copies", "warning", "UserWarning", {}, "labels = torch.tensor(labels)", "1.5"),
    "graph-buffers-freed": (
        PLAIN_1X + "RuntimeError: Trying to backward through the graph a second time, but the buffers have already "
        "been freed. Specify retain_graph=True when calling backward the first time.\n",
        "graph_used", "error", "RuntimeError", {}, "loss.backward()", "1.4"),
    "graph-saved-freed-pytest": (
        '''    def test_step():
        loss = model(x).sum()
        loss.backward()
>       loss.backward()

tests/test_train.py:12:\x20
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\x20
/usr/lib/python3.9/site-packages/torch/_tensor.py:307: in backward
    torch.autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)
_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _\x20
E       RuntimeError: Trying to backward through the graph a second time (or directly access saved tensors after
E       they have already been freed). Saved intermediate values of the graph are freed when you call .backward()
E       or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or
E       if you need to access saved tensors after calling backward.

/usr/lib/python3.9/site-packages/torch/autograd/__init__.py:154: RuntimeError
''', "graph_used", "error", "RuntimeError", {}, "loss.backward()", "1.10"),
    "devices-object-type": (
        PLAIN_1X.replace("loss.backward()", "out = model(x)") + "RuntimeError: Expected object of device type cuda "
        "but got device type cpu for argument #1 'self' in call to _th_addmm\n",
        "mixed_devices", "error", "RuntimeError", {"devices": ["cuda", "cpu"]}, "out = model(x)", "1.3"),
    "devices-found-two": (
        "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and "
        "cpu!\n", "mixed_devices", "error", "RuntimeError", {"devices": ["cuda:0", "cpu"]}, "", "1.12"),
    "devices-wrapper-addmm": (
        "RuntimeError: Expected all tensors to be on the same device, but got mat1 is on cpu, different from other "
        "tensors on cuda:0 (when checking argument in method wrapper_CUDA_addmm)\n",
        "mixed_devices", "error", "RuntimeError", {"devices": ["cpu", "cuda:0"]}, "", "2.4"),
    "devices-input-type": (
        "RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same\n",
        "mixed_devices", "error", "RuntimeError", {"devices": ["cuda", "cpu"]}, "", "1.6"),
    "unbind-old-base": (
        "RuntimeError: Output 0 of UnbindBackward is a view and its base or another view of its base has been "
        "modified inplace. This view is the output of a function that returns multiple views. Such functions do "
        "not allow the output views to be modified inplace. You should replace the inplace operation by an "
        "out-of-place one.\n", "multi_view_inplace", "error", "RuntimeError",
        {"node": "UnbindBackward", "output_index": 0}, "", "1.7"),
    "split-backward0": (
        "RuntimeError: Output 1 of SplitBackward0 is a view and is being modified inplace. This view is the output "
        "of a function that returns multiple views. Such functions do not allow the output views to be modified "
        "inplace. You should replace the inplace operation by an out-of-place one.\n", "multi_view_inplace",
        "error", "RuntimeError", {"node": "SplitBackward0", "output_index": 1}, "", "1.11"),
    "integer-float-only": (
        "RuntimeError: only Tensors of floating point dtype can require gradients\n", "integer_grad", "error",
        "RuntimeError", {}, "", "1.5"),
    "integer-float-complex": (
        "RuntimeError: Only Tensors of floating point and complex dtype can require gradients\n", "integer_grad",
        "error", "RuntimeError", {}, "", "1.9"),
    "leaf-flags-old": (
        "RuntimeError: you can only change requires_grad flags of leaf variables. If you want to use a computed "
        "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().\n",
        "leaf_requires_grad", "error", "RuntimeError", {}, "", "1.4"),
    "deepcopy-old": (
        "RuntimeError: Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at "
        "the moment\n", "deepcopy_nonleaf", "error", "RuntimeError", {}, "", "1.6"),
    "nothing-jupyter-cell": (
        '''---------------------------------------------------------------------------
RuntimeError                              Traceback (most recent call last)
Cell In[7], line 5
      3 out = model(x)
      4 loss = criterion(out.detach(), y)
----> 5 loss.backward()

RuntimeError: element 0 of tensors does not require grad and does not have a grad_fn
''', "nothing_to_differentiate", "error", "RuntimeError", {}, "loss.backward()", "2.0"),
    "scalar-old": ("RuntimeError: grad can be implicitly created only for scalar outputs\n", "backward_scalar",
                   "error", "RuntimeError", {}, "", "1.2"),
    "leaf-view-old": ("RuntimeError: a view of a leaf Variable that requires grad is being used in an in-place "
                      "operation.\n", "leaf_view_inplace", "error", "RuntimeError", {}, "", "1.5"),
    "no-grad-view-old": (
        "RuntimeError: A view was created in no_grad mode and is being modified inplace with grad mode enabled. "
        "This view is the output of a function that returns multiple views. Such functions do not allow the output "
        "views to be modified inplace. You should replace the inplace operation by an out-of-place one.\n",
        "no_grad_view", "error", "RuntimeError", {}, "", "1.7"),
    "expand-old": ("RuntimeError: unsupported operation: more than one element of the written-to tensor refers to a "
                   "single memory location. Please clone() the tensor before performing the operation.\n",
                   "expanded_write", "error", "RuntimeError", {}, "", "1.6"),
    "inference-old": ("RuntimeError: Inference tensors cannot be saved for backward. To work around you can make a "
                      "clone to get a normal tensor and use it in autograd.\n", "inference_saved", "error",
                      "RuntimeError", {}, "", "1.9"),
    "view-strides-old": ("RuntimeError: view size is not compatible with input tensor's size and stride (at least "
                         "one dimension spans across two contiguous subspaces). Use .reshape(...) instead.\n",
                         "view_strides", "error", "RuntimeError", {}, "", "1.6"),
    # Hostile: control and bidi characters around a real message (shown escaped, not read as its words).
    "hostile-bidi-and-controls": (
        'Traceback (most recent call last):\n  File "/home/me/\u202eyp.niart.py", line 3, in <module>\n'
        "    w.add_(1)  # \u2066\u202e\x07\x08\n"
        "RuntimeError: a leaf Variable that requires grad is being used in an in-place operation.\u200f\x0b\n",
        "leaf_inplace", "error", "RuntimeError", {}, None, "2.2"),
    # h20c: what a review found. A CUDA bfloat16 tensor, as the version error names it (no legacy class).
    "saved-cuda-bfloat16": (
        f"RuntimeError: {SAVED}[CUDABFloat16Type [2, 3]], which is output 0 of SigmoidBackward0, is at version 1; "
        f"expected version 0 instead. {HINT_ANOMALY}\n",
        "saved_changed", "error", "RuntimeError",
        {"tensor_type": "CUDABFloat16Type", "dtype": "bfloat16", "shape": [2, 3], "node": "SigmoidBackward0",
         "version": 1, "expected_version": 0, "devices": ["cuda"]}, "", "1.13"),
    # An integer tensor named with a view's node (synthetic: torch names no node for a saved integer input).
    "saved-cuda-long-asstrided": (
        f"RuntimeError: {SAVED}[torch.cuda.LongTensor [2, 64]], which is output 0 of AsStridedBackward0, is at "
        f"version 3; expected version 0 instead. {HINT_ANOMALY}\n",
        "saved_changed", "error", "RuntimeError",
        {"tensor_type": "torch.cuda.LongTensor", "dtype": "int64", "shape": [2, 64], "node": "AsStridedBackward0",
         "version": 3, "expected_version": 0, "devices": ["cuda"]}, "", "2.0"),
    # Hostile: versions torch never writes (the current one below the expected one).
    "hostile-impossible-versions": (
        f"RuntimeError: {SAVED}[torch.FloatTensor [3, 4]], which is output 0 of Relu, is at version 0; expected "
        f"version 7 instead. {HINT_ANOMALY}\n",
        "saved_changed", "error", "RuntimeError",
        {"shape": [3, 4], "node": "Relu", "version": 0, "expected_version": 7}, "", "2.2"),
    # The first sentence alone, as learners often copy it (torch 2's node name and 1.x's).
    "unbind-first-sentence-alone": (
        "RuntimeError: Output 0 of Unbind is a view and is being modified inplace.\n",
        "multi_view_inplace", "error", "RuntimeError", {"node": "Unbind", "output_index": 0}, "", "2.1"),
    "unbindbackward-first-sentence-alone": (
        "Output 1 of UnbindBackward0 is a view and is being modified inplace.\n",
        "multi_view_inplace", "error", "RuntimeError", {"node": "UnbindBackward0", "output_index": 1}, "", "1.10"),
    "inference-inplace-alone": (
        "RuntimeError: Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone "
        "to get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for more "
        "details.\n", "inference_readonly", "error", "RuntimeError", {}, "", "1.9"),
    "overlap-alone": (
        "RuntimeError: unsupported operation: some elements of the input tensor and the written-to tensor refer to "
        "a single memory location. Please clone() the tensor before performing the operation.\n",
        "overlapping_write", "error", "RuntimeError", {}, "", "1.13"),
    # The unrelated set: exit 3, no explanation.
    "unrelated-cuda-oom": (
        PLAIN_1X.replace("loss.backward()", "out = model(x)") + "torch.OutOfMemoryError: CUDA out of memory. Tried "
        "to allocate 2.00 GiB. GPU 0 has a total capacity of 15.78 GiB of which 1.20 GiB is free.\n",
        None, "error", "OutOfMemoryError", {}, None, "2.2"),
    "unrelated-cuda-oom-old": (
        "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 4.00 GiB total capacity; 2.83 GiB "
        "already allocated; 12.00 MiB free; 2.92 GiB reserved in total by PyTorch)\n",
        None, "error", "RuntimeError", {}, None, "1.8"),
    "unrelated-dataloader-keyerror": (
        '''Traceback (most recent call last):
  File "/home/me/train.py", line 40, in <module>
    for images, labels in loader:
  File "/usr/lib/python3.10/site-packages/torch/utils/data/dataloader.py", line 1345, in _process_data
    data.reraise()
KeyError: Caught KeyError in DataLoader worker process 0.
Original Traceback (most recent call last):
  File "/usr/lib/python3.10/site-packages/torch/utils/data/_utils/worker.py", line 308, in _worker_loop
    data = fetcher.fetch(index)
  File "/home/me/dataset.py", line 22, in __getitem__
    label = self.labels[idx]
KeyError: 5
''', None, "error", "KeyError", {}, None, "2.0"),
    "unrelated-importerror": (
        '''Traceback (most recent call last):
  File "/home/me/train.py", line 3, in <module>
    from torch._six import container_abcs
ImportError: cannot import name 'container_abcs' from 'torch._six' (/usr/lib/python3.9/site-packages/torch/_six.py)
''', None, "error", "ImportError", {}, None, "1.9"),
    "unrelated-matmul-shapes": (
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (64x512 and 256x10)\n", None, "error",
        "RuntimeError", {}, None, "1.10"),
    "unrelated-plain-text": ("my model does not learn, the loss stays at 2.30\n", None, None, None, {}, None, "-"),
}


def main() -> None:
    OUT.mkdir(exist_ok=True)
    expected = {}
    for name, (text, family, kind, type_name, facts, line, version) in CASES.items():
        (OUT / f"{name}.txt").write_text(text, encoding="utf-8")
        expected[f"{name}.txt"] = {"family": family, "kind": kind, "type": type_name, "facts": facts,
                                   "line": line, "torch": version}
    (HERE / "transcribed.json").write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
