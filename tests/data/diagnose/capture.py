"""Capture the torch 2.x part of the diagnose corpus: real tracebacks and warnings of real runs.

Run from the repository root (it imports torch; a few seconds):

    python tests/data/diagnose/capture.py

Each snippet below is written to a real file (``/home/learner/<name>.py`` as the traceback shows it, so
the learner's line and Python 3.11's caret lines are real) and run; the traceback Python prints (or the
warning line ``warnings`` prints) is saved as ``captured/<name>.txt``, and what the test expects of it
(type, family, facts, the learner's line) into ``captured.json``. A few are also saved as other tools show
them: IPython's own traceback formatter (plain and coloured), pytest's report (a real pytest run), and the
encodings a paste arrives in (CRLF, UTF-8 BOM, UTF-16 as PowerShell writes it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import traceback
import warnings
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
OUT = HERE / "captured"
VERSION = torch.__version__.split("+")[0]

# name: (family, code, expected facts, the learner's line (None: not checked))
SNIPPETS: dict[str, tuple[str, str, dict, str | None]] = {
    "saved-relu-output": ("saved_changed", """
x = torch.randn(27, 32, requires_grad=True)
y = torch.relu(x)
y.add_(1)
y.sum().backward()
""", {"tensor_type": "torch.FloatTensor", "dtype": "float32", "shape": [27, 32], "node": "Relu", "output_index": 0,
      "version": 1, "expected_version": 0}, "y.sum().backward()"),
    "saved-sgd-weight": ("saved_changed", """
w = torch.randn(5, requires_grad=True)
lr = 0.1
loss = (w.sin() * 2).sum()
with torch.no_grad():
    w -= lr * 1.0
    w -= lr * 1.0
loss.backward()
""", {"tensor_type": "torch.FloatTensor", "dtype": "float32", "shape": [5], "version": 2, "expected_version": 0},
        "loss.backward()"),
    "saved-mul-double": ("saved_changed", """
x = torch.randn(4, 6, dtype=torch.float64, requires_grad=True)
h = x * 3
with torch.no_grad():
    h.add_(1)
z = h.sin()
h.mul_(2)
z.sum().backward()
""", {"tensor_type": "torch.DoubleTensor", "dtype": "float64", "shape": [4, 6], "node": "Mul", "version": 2,
      "expected_version": 1}, "z.sum().backward()"),
    "saved-view-of-weight": ("saved_changed", """
w = torch.randn(3, 4, requires_grad=True)
inputs = torch.randn(2, 4, requires_grad=True)
out = inputs @ w.t()
with torch.no_grad():
    w.add_(0.5)
out.sum().backward()
""", {"tensor_type": "torch.FloatTensor", "dtype": "float32", "shape": [4, 3], "node": "AsStrided", "version": 1,
      "expected_version": 0}, "out.sum().backward()"),
    "saved-sigmoid-loop": ("saved_changed", """
x = torch.randn(8, requires_grad=True)
y = torch.sigmoid(x)
for step in range(3):
    y += 1
y.sum().backward()
""", {"shape": [8], "node": "Sigmoid", "version": 3, "expected_version": 0}, "y.sum().backward()"),
    "saved-anomaly-mode": ("saved_changed", """
torch.autograd.set_detect_anomaly(True)
x = torch.randn(6, requires_grad=True)
y = x * 2
z = y * y
y.add_(1)
z.sum().backward()
""", {"shape": [6], "node": "Add", "version": 1, "expected_version": 0}, "z.sum().backward()"),
    "leaf-inplace-add": ("leaf_inplace", """
w = torch.randn(3, requires_grad=True)
w.add_(1)
""", {}, "w.add_(1)"),
    "leaf-inplace-sgd": ("leaf_inplace", """
w = torch.randn(3, requires_grad=True)
(w * 2).sum().backward()
w -= 0.1 * w.grad
""", {}, "w -= 0.1 * w.grad"),
    "leaf-view-index": ("leaf_view_inplace", """
w = torch.randn(4, requires_grad=True)
w[0:2].mul_(2)
""", {}, "w[0:2].mul_(2)"),
    "leaf-view-assign": ("leaf_view_inplace", """
w = torch.randn(2, 3, requires_grad=True)
row = w[0]
row += 1
""", {}, "row += 1"),
    "backward-twice": ("graph_used", """
x = torch.randn(3, requires_grad=True)
loss = (x.exp() * 2).sum()
loss.backward()
loss.backward()
""", {}, "loss.backward()"),
    "backward-twice-loop": ("graph_used", """
w = torch.randn(3, requires_grad=True)
hidden = w.exp()
for epoch in range(2):
    loss = (hidden * 2).sum()
    loss.backward()
""", {}, "loss.backward()"),
    "no-grad-fn-detached": ("nothing_to_differentiate", """
x = torch.randn(3, requires_grad=True)
loss = (x.detach() * 2).sum()
loss.backward()
""", {}, "loss.backward()"),
    "no-grad-fn-no-grad": ("nothing_to_differentiate", """
w = torch.randn(3, requires_grad=True)
with torch.no_grad():
    loss = (w * 2).sum()
loss.backward()
""", {}, "loss.backward()"),
    "numpy-of-grad": ("numpy_grad", """
x = torch.randn(3, requires_grad=True)
y = x * 2
values = y.numpy()
""", {}, "values = y.numpy()"),
    "numpy-plot": ("numpy_grad", """
w = torch.randn(5, requires_grad=True)
print(list(w.numpy()))
""", {}, "print(list(w.numpy()))"),
    "nonleaf-grad": ("nonleaf_grad", """
x = torch.randn(3, requires_grad=True)
y = x * 2
y.sum().backward()
print(y.grad)
""", {}, "print(y.grad)"),
    "nonleaf-grad-update": ("nonleaf_grad", """
w = torch.randn(3, requires_grad=True).cpu() * 1
(w * 3).sum().backward()
g = w.grad
""", {}, "g = w.grad"),
    "view-strides-t": ("view_strides", """
x = torch.randn(4, 6)
flat = x.t().view(24)
""", {}, "flat = x.t().view(24)"),
    "view-strides-permute": ("view_strides", """
x = torch.randn(2, 3, 4)
y = x.transpose(1, 2).view(2, 12)
""", {}, "y = x.transpose(1, 2).view(2, 12)"),
    "unbind-inplace": ("multi_view_inplace", """
x = torch.randn(3, 3, requires_grad=True)
a, b, c = (x * 1).unbind(0)
b.add_(1)
""", {"node": "Unbind", "output_index": 1}, "b.add_(1)"),
    "split-inplace": ("multi_view_inplace", """
x = torch.randn(4, 3, requires_grad=True)
parts = (x * 1).split(1)
parts[2].mul_(2)
""", {"node": "Split", "output_index": 2}, "parts[2].mul_(2)"),
    "no-grad-view": ("no_grad_view", """
x = torch.randn(4, requires_grad=True)
y = x * 1
with torch.no_grad():
    head = y[:2]
head.mul_(2)
""", {}, "head.mul_(2)"),
    "no-grad-view-select": ("no_grad_view", """
x = torch.randn(2, 3, requires_grad=True)
y = x * 2
with torch.no_grad():
    row = y[0]
row += 1
""", {}, "row += 1"),
    "expand-inplace": ("expanded_write", """
bias = torch.zeros(1, 3)
batch = bias.expand(4, 3)
batch.add_(1)
""", {}, "batch.add_(1)"),
    "expand-assign": ("expanded_write", """
x = torch.zeros(3, 1).expand(3, 4)
x += torch.ones(3, 4)
""", {}, "x += torch.ones(3, 4)"),
    "tensor-copies": ("tensor_copies", """
x = torch.randn(3)
y = torch.tensor(x)
""", {}, "y = torch.tensor(x)"),
    "tensor-copies-grad": ("tensor_copies", """
w = torch.randn(3, requires_grad=True)
target = torch.tensor(w * 2)
""", {}, "target = torch.tensor(w * 2)"),
    "backward-non-scalar": ("backward_scalar", """
x = torch.randn(3, requires_grad=True)
y = x * 2
y.backward()
""", {}, "y.backward()"),
    "backward-non-scalar-loss": ("backward_scalar", """
w = torch.randn(4, 2, requires_grad=True)
loss = (w - 1) ** 2
loss.backward()
""", {}, "loss.backward()"),
    "inference-saved": ("inference_saved", """
with torch.inference_mode():
    features = torch.randn(3)
w = torch.randn(3, requires_grad=True)
out = w * features
""", {}, "out = w * features"),
    "inference-saved-exp": ("inference_saved", """
with torch.inference_mode():
    x = torch.randn(2, 2)
w = torch.randn(2, 2, requires_grad=True)
y = torch.matmul(w, x)
""", {}, "y = torch.matmul(w, x)"),
    "integer-grad": ("integer_grad", """
x = torch.tensor([1, 2, 3], requires_grad=True)
""", {}, "x = torch.tensor([1, 2, 3], requires_grad=True)"),
    "integer-grad-arange": ("integer_grad", """
x = torch.arange(5)
x.requires_grad_()
""", {}, "x.requires_grad_()"),
    "nonleaf-flag": ("leaf_requires_grad", """
x = torch.randn(3, requires_grad=True)
y = x * 2
y.requires_grad = False
""", {}, "y.requires_grad = False"),
    "nonleaf-flag-method": ("leaf_requires_grad", """
w = torch.randn(3, requires_grad=True)
h = w.exp()
h.requires_grad_(False)
""", {}, "h.requires_grad_(False)"),
    "deepcopy-nonleaf": ("deepcopy_nonleaf", """
import copy
x = torch.randn(3, requires_grad=True)
y = x * 2
z = copy.deepcopy(y)
""", {}, "z = copy.deepcopy(y)"),
    "deepcopy-nonleaf-list": ("deepcopy_nonleaf", """
import copy
w = torch.randn(3, requires_grad=True)
saved = copy.deepcopy([w.exp()])
""", {}, "saved = copy.deepcopy([w.exp()])"),
    # h20c: what a review found (bfloat16's and bool's type names, torch.compile's wording, the other inference
    # error, an overlap without expand).
    "saved-bfloat16-sigmoid": ("saved_changed", """
x = torch.randn(6, 2, dtype=torch.bfloat16, requires_grad=True)
y = torch.sigmoid(x)
y.mul_(2)
y.sum().backward()
""", {"tensor_type": "CPUBFloat16Type", "dtype": "bfloat16", "shape": [6, 2], "node": "Sigmoid", "output_index": 0,
      "version": 1, "expected_version": 0}, "y.sum().backward()"),
    "saved-bool-mask": ("saved_changed", """
w = torch.randn(2, 3, requires_grad=True)
keep = w.detach() > 0
out = w.masked_fill(keep, 0.0)
keep.logical_not_()
out.sum().backward()
""", {"tensor_type": "CPUBoolType", "dtype": "bool", "shape": [2, 3], "version": 1, "expected_version": 0},
        "out.sum().backward()"),
    "view-strides-torch-compile": ("view_strides", """
@torch.compile(backend="eager")
def flatten(x):
    return x.t().view(24) * 2
flatten(torch.randn(4, 6))
""", {}, "return x.t().view(24) * 2"),
    "integer-grad-attribute": ("integer_grad", """
labels = torch.arange(4)
labels.requires_grad = True
""", {}, "labels.requires_grad = True"),
    "inference-inplace": ("inference_readonly", """
with torch.inference_mode():
    features = torch.randn(3)
features.add_(1)
""", {}, "features.add_(1)"),
    "inference-inplace-assign": ("inference_readonly", """
with torch.inference_mode():
    x = torch.zeros(2, 2)
x[0] = 1.0
""", {}, "x[0] = 1.0"),
    "overlap-add-out": ("overlapping_write", """
x = torch.arange(6.0)
torch.add(x[1:], x[:-1], out=x[:-1])
""", {}, "torch.add(x[1:], x[:-1], out=x[:-1])"),
    "overlap-copy": ("overlapping_write", """
signal = torch.arange(8.0)
signal[1:].copy_(signal[:-1])
""", {}, "signal[1:].copy_(signal[:-1])"),
    # Not explained (exit 3): the unrelated set.
    "unrelated-keyerror": (None, """
batch = {"image": torch.randn(3)}
label = batch["label"]
""", {}, None),
    "unrelated-matmul": (None, """
a = torch.randn(2, 3)
b = torch.randn(2, 3)
c = a @ b
""", {}, None),
    "unrelated-import": (None, """
import torchvisionx
""", {}, None),
}
# Chained: an error raised while another was handled (the final one is the torch error).
CHAINED = ("chained-keyerror-then-saved", "saved_changed", """
x = torch.randn(2, 5, requires_grad=True)
y = torch.relu(x)
try:
    {}["missing"]
except KeyError:
    y.add_(1)
    y.sum().backward()
""", {"shape": [2, 5], "node": "Relu", "version": 1, "expected_version": 0}, "y.sum().backward()")


def _run(name: str, code: str, folder: Path) -> str:
    path = folder / f"{name}.py"
    path.write_text("import torch\n" + code.lstrip("\n"), encoding="utf-8")
    torch.manual_seed(0)         # the same corpus every time it is made
    compiled = compile(path.read_text(encoding="utf-8"), str(path), "exec")
    namespace: dict = {"__name__": "__main__"}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(compiled, namespace)   # noqa: S102 - the corpus's own snippets
        except BaseException:   # noqa: BLE001
            torch.autograd.set_detect_anomaly(False)    # a snippet that turned it on: off for the next
            kind, value, frames = sys.exc_info()
            assert frames is not None
            text = "".join(traceback.format_exception(kind, value, frames.tb_next))   # from the snippet's frame
        else:
            text = ""
    shown = "".join(warnings.formatwarning(w.message, w.category, w.filename, w.lineno) for w in caught)
    return _anonymous(shown + text, folder)


def _anonymous(text: str, folder: Path) -> str:
    """The paths of this machine written as a learner's; this script's own frames (in anomaly mode's forward
    traceback) left out."""
    lines, kept, skip = text.split("\n"), [], 0
    for line in lines:
        if skip:
            skip -= 1
        elif f'File "{__file__}"' in line:
            skip = 1          # the frame's line and its source line
        else:
            kept.append(line)
    return "\n".join(kept).replace(str(folder), "/home/learner").replace(sys.prefix, "/home/learner/.venv")


def _ipython(name: str, code: str, folder: Path, color: bool) -> str:
    from IPython.core.ultratb import AutoFormattedTB

    path = folder / f"{name}.py"
    path.write_text("import torch\n" + code.lstrip("\n"), encoding="utf-8")
    formatter = AutoFormattedTB(mode="Context", theme_name="linux" if color else "nocolor") \
        if "theme_name" in AutoFormattedTB.__init__.__code__.co_varnames else \
        AutoFormattedTB(mode="Context", color_scheme="Linux" if color else "NoColor")
    try:
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), {})   # noqa: S102
    except BaseException:   # noqa: BLE001
        kind, value, frames = sys.exc_info()
        assert frames is not None
        return _anonymous(formatter.text(kind, value, frames.tb_next), folder) + "\n"
    raise AssertionError(f"{name} raised nothing")


def _pytest(name: str, code: str, folder: Path) -> str:
    body = "".join(f"    {line}\n" for line in ("import torch\n" + code.lstrip("\n")).splitlines())
    test = folder / f"test_{name.replace('-', '_')}.py"
    test.write_text(f"def test_it():\n    import torch\n    torch.manual_seed(0)\n{body}", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(test)],
                          capture_output=True, text=True, cwd=folder, timeout=300,
                          env={**os.environ, "PYTEST_ADDOPTS": ""})
    report = done.stdout
    start = report.find("____")
    end = report.find("short test summary")
    return _anonymous(report[start:end if end > 0 else None], folder)


def main() -> None:
    OUT.mkdir(exist_ok=True)
    cases: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, (family, code, facts, line) in [*SNIPPETS.items(), (CHAINED[0], CHAINED[1:])]:
            text = _run(name, code, folder)
            assert text, f"{name} raised nothing"
            (OUT / f"{name}.txt").write_text(text, encoding="utf-8")
            cases[f"{name}.txt"] = {"family": family, "facts": facts, "line": line, "code": code.strip()}
        # Other input formats of real captures.
        for name, encoding in (("saved-relu-output", "crlf"), ("numpy-of-grad", "bom"),
                               ("backward-twice", "utf16")):
            text = (OUT / f"{name}.txt").read_text(encoding="utf-8")
            data = {"crlf": text.replace("\n", "\r\n").encode("utf-8"),
                    "bom": b"\xef\xbb\xbf" + text.encode("utf-8"),
                    "utf16": text.replace("\n", "\r\n").encode("utf-16")}[encoding]
            (OUT / f"{name}.{encoding}.txt").write_bytes(data)
            cases[f"{name}.{encoding}.txt"] = dict(cases[f"{name}.txt"])
        for name, color in (("saved-mul-double", False), ("unbind-inplace", True), ("numpy-plot", False)):
            suffix = "ipython-color" if color else "ipython"
            (OUT / f"{name}.{suffix}.txt").write_text(_ipython(name, SNIPPETS[name][1], folder, color),
                                                      encoding="utf-8")
            cases[f"{name}.{suffix}.txt"] = dict(cases[f"{name}.txt"], line=None)
        for name in ("saved-relu-output", "leaf-inplace-sgd"):
            (OUT / f"{name}.pytest.txt").write_text(_pytest(name, SNIPPETS[name][1], folder), encoding="utf-8")
            cases[f"{name}.pytest.txt"] = dict(cases[f"{name}.txt"])
    for case in cases.values():
        case["torch"] = VERSION
    (HERE / "captured.json").write_text(json.dumps(cases, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
