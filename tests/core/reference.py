"""Plain Python + torch, run directly: what TensorLab's results are compared with.

The test suite may exec code it wrote itself; TensorLab never does.
"""

from __future__ import annotations

import contextlib
import copy
import io
import math
import re
import unicodedata
import warnings
from typing import Any

import torch

# Contract 3: the repr of a non-tensor name (`others`) is Python's and torch's own, bounded: at most
# 2,000 characters, and at most 16 tensors or arrays written inside one container; a cut repr is the
# full one's beginning followed by " ...". The oracle states the bound itself (it imports no tensorlab).
MAX_OTHER_REPR = 2_000
MAX_ARRAYS_IN_REPR = 16
CUT = " ..."
_ADDRESS = re.compile(r"0x[0-9a-f]+")


def _arrays_in(value: Any, depth: int = 0) -> int:
    """How many tensors or NumPy arrays the repr of ``value`` writes (in lists, tuples and dicts)."""
    if isinstance(value, torch.Tensor) or type(value).__name__ == "ndarray":
        return 1
    if depth > 32:
        return 0
    if isinstance(value, (list, tuple)):
        return sum(_arrays_in(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return sum(_arrays_in(v, depth + 1) for v in value.values())
    return 0


def plain_others(namespace: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every non-tensor name: its type, its full repr, and whether contract 3 lets that repr be cut."""
    others = {}
    for name, value in namespace.items():
        if isinstance(value, torch.Tensor):
            continue
        text = repr(value)
        others[name] = {"type": type(value).__name__, "repr": text,
                        "may_cut": len(text) > MAX_OTHER_REPR or _arrays_in(value) > MAX_ARRAYS_IN_REPR}
    return others


def others_differences(ours: dict[str, dict[str, str]], plain: dict[str, dict[str, Any]]) -> list[str]:
    """Where TensorLab's `others` differ from plain Python's beyond what contract 3 allows (addresses aside)."""
    problems = []
    if list(ours) != list(plain):
        return [f"other names: {list(ours)} != {list(plain)}"]
    for name, theirs in plain.items():
        mine = ours[name]
        mine_repr, their_repr = _ADDRESS.sub("0x…", mine["repr"]), _ADDRESS.sub("0x…", theirs["repr"])
        if mine["type"] != theirs["type"]:
            problems.append(f"{name}: type {mine['type']} != {theirs['type']}")
        elif mine_repr == their_repr:
            continue
        elif not (theirs["may_cut"] and mine_repr.endswith(CUT) and their_repr.startswith(mine_repr[: -len(CUT)])
                  and len(mine_repr) <= MAX_OTHER_REPR + len(CUT)):
            problems.append(f"{name}: repr {mine_repr!r} != {their_repr!r}")
    return problems


def _plain(value: Any) -> Any:
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, complex):
        return [_plain(value.real), _plain(value.imag)]
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
    return value


def _values(t: torch.Tensor) -> Any:
    if t.numel() > 10_000 or t.device.type == "meta":   # a meta tensor has a size and no data to list
        return None
    d = t.detach().cpu()
    if d.dtype in (torch.float16, torch.bfloat16):
        d = d.float()
    return _plain(d.tolist())


class StorageLabels:
    """Storage ids as contract 3 gives them: a storage id names a connected group of overlapping
    live byte ranges on one device (an empty storage is only the same as itself); ids are numbered
    in order of first appearance in the program and kept while some name views the memory.

    The memory is followed by storage object (``untyped_storage()``), held strongly from one step to
    the next here, so that no new storage can take an old one's address in between.
    """

    def __init__(self) -> None:
        self.previous: list[tuple[torch.UntypedStorage, str]] = []
        self.arrays: list[tuple[Any, str]] = []     # NumPy arrays are names over memory too
        self.count = 0

    def assign(self, tensors: dict[str, torch.Tensor], arrays: tuple[Any, ...] = ()) -> dict[str, str]:
        """The storage id of every name of ``tensors`` (in namespace order); ``arrays``: the NumPy
        arrays of the namespace (while one lives, the memory it views keeps its id)."""
        names = list(tensors)
        storages = {name: tensors[name].untyped_storage() for name in names}

        def same(a: str, b: str) -> bool:
            sa, sb = storages[a], storages[b]
            if sa is sb:
                return True
            if not (sa.nbytes() and sb.nbytes() and sa.data_ptr() and sb.data_ptr()):
                return False
            if tensors[a].device != tensors[b].device:
                return False
            return sa.data_ptr() < sb.data_ptr() + sb.nbytes() and sb.data_ptr() < sa.data_ptr() + sa.nbytes()

        groups: list[list[str]] = []
        for name in names:
            touching = [g for g in groups if any(same(name, other) for other in g)]
            merged = [name] + [n for g in touching for n in g]
            groups = [g for g in groups if g not in touching] + [merged]
        groups.sort(key=lambda g: min(names.index(n) for n in g))
        labels: dict[str, str] = {}
        taken: set[str] = set()
        kept = []
        def inside(group: list[str], array: Any) -> bool:
            start = array.__array_interface__["data"][0]
            return any(tensors[n].device.type == "cpu" and storages[n].nbytes() and
                       storages[n].data_ptr() <= start < storages[n].data_ptr() + storages[n].nbytes() for n in group)

        for group in groups:
            old = {label for storage, label in self.previous if any(storages[n] is storage for n in group)}
            old |= {label for array, label in self.arrays if any(array is a for a in arrays) and inside(group, array)}
            old = sorted(old, key=lambda label: int(label[1:]))
            label = next((o for o in old if o not in taken), None)
            if label is None:
                label = f"S{self.count}"
                self.count += 1
            taken.add(label)
            for name in group:
                labels[name] = label
                kept.append((storages[name], label))
        self.previous = kept
        array_labels = []
        for array in arrays:
            label = next((labels[g[0]] for g in groups if inside(g, array)), None)
            label = label or next((lab for a, lab in self.arrays if a is array), None)
            if label is not None:
                array_labels.append((array, label))
        self.arrays = array_labels
        return labels


# Contract 3 (issue #16), stated here on its own: a tensor inside a list, a tuple, a dict with string keys
# or a module bound to a name is a row under the Python that reads it, right after the name, in the
# container's order: the first 64 items of each; a key as its repr, control and bidi characters escaped,
# cut to 40 characters ("…" and the quote); module parameters, then buffers, numeric parts as indices.
PARTS = 64
KEY_CHARS = 40


def _key(key: str) -> str:
    def escaped(c: str) -> str:
        return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"

    text = "".join(escaped(c) if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp") and c != "\t" else c
                   for c in repr(key))
    return text if len(text) <= KEY_CHARS else text[: KEY_CHARS - 2] + "…" + text[0]


def _dotted_to_python(path: str) -> str:
    return "".join(("[" + p + "]") if re.fullmatch(r"[0-9]+", p) else ("." + p) for p in path.split("."))


def rows(namespace: dict[str, Any]) -> dict[str, torch.Tensor]:
    """Every tensor a name reaches, by the expression that reads it (the rule above)."""
    found: dict[str, torch.Tensor] = {}

    def add(expression: str, tensor: torch.Tensor) -> None:
        unique, n = expression, 1
        while unique in found:
            n += 1
            unique = f"{expression}~{n}"
        found[unique] = tensor

    for name, value in namespace.items():
        if isinstance(value, torch.Tensor):
            found[name] = value
        elif isinstance(value, (list, tuple)):
            for i in range(min(len(value), PARTS)):
                if isinstance(value[i], torch.Tensor):
                    add(f"{name}[{i}]", value[i])
        elif isinstance(value, dict):
            for key, item in list(value.items())[:PARTS]:
                if isinstance(key, str) and isinstance(item, torch.Tensor):
                    add(f"{name}[{_key(key)}]", item)
        elif isinstance(value, torch.nn.Module):
            for path, tensor in list(value.named_parameters())[:PARTS] + list(value.named_buffers())[:PARTS]:
                add(name + _dotted_to_python(path), tensor)
    return found


def describe(namespace: dict[str, Any], labels: StorageLabels | None = None) -> dict[str, Any]:
    """Every tensor row's facts (names and what they reach), read directly from torch."""
    tensors: dict[str, Any] = {}
    labels = labels or StorageLabels()
    reached = rows(namespace)
    ids = labels.assign(reached, tuple(v for v in namespace.values() if type(v).__name__ == "ndarray"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, t in reached.items():
            sid = ids[name]
            try:
                grad_fn = t.grad_fn
                grad_fn_name = None if grad_fn is None else type(grad_fn).__name__
            except RuntimeError:
                grad_fn_name = "Invalid"
            try:
                is_leaf = t.is_leaf
            except RuntimeError:
                is_leaf = None
            grad = t.grad if (is_leaf or t.retains_grad) else None
            tensors[name] = {
                "shape": list(t.shape),
                "dtype": str(t.dtype).removeprefix("torch."),
                "device": str(t.device),
                "values": _values(t),
                "requires_grad": t.requires_grad,
                "is_leaf": is_leaf,
                "grad_fn": grad_fn_name,
                "version": None if t.is_inference() else t._version,
                "grad": None if grad is None else _values(grad),
                "storage": sid,
                "storage_offset": t.storage_offset(),
                "stride": list(t.stride()),
            }
    return tensors


def run_statement(code: str, glb: dict[str, Any], namespace: dict[str, Any]) -> dict[str, Any]:
    """``code`` run with exec in plain Python: its error, printed output and warnings, as TensorLab reports them."""
    out = io.StringIO()
    error = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.set_warn_always(True)
        try:
            with contextlib.redirect_stdout(out):
                exec(code, glb, namespace)  # noqa: S102 - the reference, not TensorLab
        except Exception as exc:
            error = {"type": type(exc).__name__, "message": str(exc)}
        finally:
            torch.set_warn_always(False)
    return {"error": error, "output": out.getvalue(), "warnings": [str(w.message) for w in caught]}


def run_plain(codes: list[str]) -> list[dict[str, Any]]:
    """Run each statement with exec in one namespace, seeded like TensorLab."""
    namespace: dict[str, Any] = {}
    # The names a session starts with: a lesson may use nn, F and optim without importing them
    # (an export writes the imports).
    glb = {"torch": torch, "copy": copy, "nn": torch.nn, "F": torch.nn.functional, "optim": torch.optim}
    torch.manual_seed(0)
    labels = StorageLabels()
    steps = []
    for code in codes:
        ran = run_statement(code, glb, namespace)
        steps.append({
            "code": code,
            "ok": ran["error"] is None,
            **ran,
            "tensors": describe(namespace, labels),
            "others": plain_others(namespace),
        })
    return steps
