"""Fuzzing TensorLab against plain torch (issue #9): random programs of the subset, step by step.

A Hypothesis state machine writes sequences of statements of the subset —
creation, every copy op (`=`, clone, detach, clone().detach(), detach().clone(),
.data, .to(), torch.tensor(x), copy.deepcopy), views and slicing, in-place ops,
`x[i] = v`, `with torch.no_grad():` blocks, backward, `x.grad = None`, numpy() and
from_numpy() — and runs each in a TensorLab :class:`~tensorlab.core.session.session.Session`
and in plain Python (``exec`` of the same text in a plain namespace: the test may
exec its own code; TensorLab never does). After every step:

- nothing escaped: Session.run raised nothing, TensorLab refused nothing plain
  torch ran, and the session's names hold only values of the subset's types;
- between them, statements outside the subset (dunders, eval, open, torch.save,
  hooks that are not print/len/id, private methods, ...) are refused and nothing
  of them ran: the same names, the same objects, the same snapshot, no file;
- the step's error (type and text), warnings and printed output are torch's;
- iteration (`a, b = x`, `l += x`, `l[0:0] = x`), comparisons that broadcast (allclose, equal, `in`),
  binary max/min, integer powers and reshapes that copy are estimated and run as torch runs them;
- every tensor name's snapshot equals what plain torch reports (values, shape,
  dtype, storage partition with labels numbered in order of first appearance,
  offset, strides, version, grad, grad_fn, is_leaf, requires_grad), and every
  other name's type and repr.

200 examples by default (CI), derandomized: every run draws the same programs, so main is green or red
the same way on every machine. A long run draws random ones: ``TENSORLAB_FUZZ_EXAMPLES=10000 python
-m pytest tests/core/session/test_fuzz_against_torch.py`` (about an hour on two cores).
"""

from __future__ import annotations

import copy
import os
import re
import weakref
from typing import Any

import numpy
import torch
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from tensorlab.core.lang.parse import LanguageError
from tensorlab.core.protocol.limits import DEFAULT_LIMITS
from tensorlab.core.session.session import Session
from tests.core.reference import StorageLabels, describe, others_differences, plain_others, rows, run_statement

EXAMPLES = int(os.environ.get("TENSORLAB_FUZZ_EXAMPLES", "200"))
# Random seeds only in the documented long run; CI's run is the same every time (no example database).
LONG_RUN = "TENSORLAB_FUZZ_EXAMPLES" in os.environ
NAMES = ["a", "b", "c", "d", "e"]
_TRIGGERED = re.compile(r"\s*\(Triggered internally at [^)]*\)\.?\s*$")
_ADDRESS = re.compile(r"0x[0-9a-f]+")
# What a session's names may hold: the subset's values, never a module, a function or a frame.
ALLOWED_TYPES = (torch.Tensor, numpy.ndarray, numpy.generic, int, float, complex, bool, str, type(None), list,
                 tuple, torch.Size, torch.dtype, torch.device, torch.UntypedStorage, torch.autograd.graph.Node,
                 torch.utils.hooks.RemovableHandle)

SHAPES = ["3", "2, 3", "4", "1", "3, 1", "0"]
FLOAT_FACTORIES = [
    "torch.ones({shape}{grad})", "torch.zeros({shape}{grad})", "torch.rand({shape}{grad})",
    "torch.randn({shape}{grad})", "torch.full(({shape},), 2.5{grad})", "torch.arange(4.0{grad})",
    "torch.linspace(0, 1, 5{grad})", "torch.tensor([1.5, -2.0, 3.0]{grad})", "torch.eye(3{grad})",
    "torch.ones({shape}, dtype=torch.float64{grad})", "torch.tensor([[0.5, 1.0], [2.0, -1.0]]{grad})",
    "torch.ones({shape}, dtype=torch.complex64{grad})", "torch.full(({shape},), -1.5, dtype=torch.float16{grad})",
    "torch.zeros({shape}, dtype=torch.bfloat16{grad})", "torch.randn(2, 2, 2{grad})",
]
INT_FACTORIES = ["torch.arange(6)", "torch.randint(0, 5, ({shape},))", "torch.tensor([1, 2, 3])",
                 "torch.tensor([[1, 2], [3, 4]])", "torch.zeros({shape}, dtype=torch.int64)",
                 "torch.tensor([True, False, True])", "torch.ones({shape}, dtype=torch.int8)",
                 "torch.tensor([[1, 2], [3, 4]], dtype=torch.uint8)"]
COPIES = [
    "{t} = {s}", "{t} = {s}.clone()", "{t} = {s}.detach()", "{t} = {s}.clone().detach()",
    "{t} = {s}.detach().clone()", "{t} = {s}.data", "{t} = {s}.to(torch.float64)", "{t} = {s}.to('cpu')",
    "{t} = torch.tensor({s})", "{t} = copy.deepcopy({s})", "{t} = {s}.contiguous()", "{t} = {s}.float()",
    "{t} = torch.clone({s})", "{t} = {s}.new_tensor({s})", "{s}.data = {o}.clone()", "{t} = torch.as_tensor({s})",
]
VIEWS = [
    "{t} = {s}.view(-1)", "{t} = {s}.reshape(-1)", "{t} = {s}[1:]", "{t} = {s}[::2]", "{t} = {s}.t()",
    "{t} = {s}.transpose(0, -1)", "{t} = {s}.unsqueeze(0)", "{t} = {s}[0]", "{t} = {s}.narrow(0, 0, 1)",
    "{t} = {s}.flatten()", "{t} = {s}.T", "{t} = {s}.squeeze()", "{t} = {s}.select(0, 0)",
    "{t} = {s}.diagonal()", "{t} = {s}.view_as({s})", "{t} = {s}.expand_as(torch.stack([{s}, {s}]))", "{t} = {s}[None]",
    "{t} = {s}[..., :1]", "{t} = {s}.split(1)", "{t} = {s}.unbind()", "{t} = {s}.chunk(2)", "{t} = {s}.mT",
    "{t} = {s}[[0, 0]]", "{t} = {s}[{s} > 0]", "{t} = {s}.unfold(0, 1, 1)", "{t} = {s}.movedim(0, -1)",
    "{t} = {s}.as_strided((1,), (1,))", "{t} = {s}.H", "{t} = {s}.mH", "{t} = {s}.real", "{t} = {s}.imag",
    "{t} = torch.view_as_real({s})", "{t}, {u} = {s}.split(2)", "{t} = {s}.swapaxes(0, -1)",
    "{t} = {s}.movedim(-1, 0)",
]
IN_PLACE = [
    "{s}.add_(1)", "{s}.mul_(2)", "{s}.zero_()", "{s}.fill_(3)", "{s} += 1", "{s} *= {o}", "{s}.neg_()",
    "{s}.copy_({o})", "{s}.clamp_(0, 1)", "{s}.sigmoid_()", "{s}.exp_()", "{s}.abs_()", "{s}.sub_({o})",
    "{s}.masked_fill_({s} > 0.5, 0)", "{s}.uniform_()", "{s}.normal_()", "{s}.div_(2)", "{s}.pow_(2)",
    "{s}.index_fill_(0, torch.tensor([0]), -1)", "{s}.detach_()", "{s}.requires_grad_()",
    "{s}.requires_grad_(False)", "{s}.retain_grad()",
]
SET_ITEMS = ["{s}[0] = 7", "{s}[...] = 1", "{s}[:1] = 0", "{s}[0] = {o}[0]", "{s}[-1] = 2.5",
             "{s}[[0]] = 5", "{s}[{s} < 1] = 0"]
COMPUTE = [
    "{t} = {s} * 2", "{t} = {s} + {o}", "{t} = ({s} * {s}).sum()", "{t} = {s}.exp()", "{t} = {s}.sum()",
    "{t} = {s}.mean()", "{t} = {s} @ {o}", "{t} = {s}.pow(2)", "{t} = torch.cat([{s}.flatten(), {o}.flatten()])",
    "{t} = torch.stack([{s}, {s}])", "{t} = {s}.sigmoid()", "{t} = -{s}", "{t} = {s} / {o}", "{t} = {s} - 1",
    "{t} = {s}.max()", "{t} = {s} == {o}", "{t} = {s}.matmul({o})", "{t} = torch.mul({s}, 3)", "{t} = {s}.tanh()",
    "{t} = {s}.relu()", "{t} = {s}.sum(0)", "{t} = {s}.max(0)", "{t} = {s}.index_select(0, torch.tensor([0]))",
    "{t} = {s}.gather(0, torch.zeros_like({s}, dtype=torch.int64))", "{t} = {s}.masked_fill({s} > 0, 1)",
]
BACKWARD = ["{s}.sum().backward()", "{s}.backward()", "{s}.sum().backward(retain_graph=True)",
            "({s} * {s}).sum().backward()", "{s}.backward(torch.ones_like({s}))", "{s}.grad = None",
            "{t} = {s}.grad", "print({s}.grad)", "{s}.grad = torch.zeros_like({s})", "{s}.grad.zero_()",
            "{s}.requires_grad = True", "{t} = {s}.grad_fn.next_functions", "print({s}.grad_fn.name())",
            "{t} = {s}.detach().requires_grad_()", "{s}.backward(create_graph=True)"]
NUMPY = ["{t} = {s}.numpy()", "{t} = {s}.detach().numpy()", "{t} = torch.from_numpy({s}.numpy())",
         "{t} = torch.from_numpy({s}.detach()[1:].numpy())", "{t} = torch.from_numpy({s}.detach().numpy()[::2])",
         "{t} = {s}.numpy()[0]", "{t} = {s}.tolist()", "{t} = {s}.item()"]
ARRAYS = ["{t} = torch.from_numpy({a})", "{a}[0] = 7", "{t} = torch.as_tensor({a})", "{t} = torch.tensor({a})",
          "{a}[...] = 0", "{t} = {a}.tolist()", "{t} = {a}.shape"]
LOOKS = ["print({s})", "print({s}.is_leaf, {s}.requires_grad, {s}.grad_fn)", "print({s}._version)",
         "print({s}._base is None, {s}.is_contiguous(), {s}.storage_offset())", "{s}", "print(len({s}))",
         "{t} = {s}.grad_fn", "{t} = {s}.untyped_storage()", "{t} = {s}.shape", "{t} = [{s}, {o}]",
         "{t} = {s}.register_hook(print)", "print({s}.data_ptr() == {o}.data_ptr())", "print({s}._base is {o})",
         "print({s}.is_set_to({o}), {s}.stride(), {s}.untyped_storage().nbytes())", "{t} = copy.deepcopy([{s}, {o}])",
         "print({s}.dtype, {s}.shape, {s}.ndim, {s}.numel(), {s}.element_size())", "{t} = {s}.tolist()"]

# Issue #15: iterating a tensor (torch unbinds it whole), comparisons that broadcast, binary max/min,
# integer powers and reshapes that copy — each estimated by its own rule, each run as torch runs it.
ITERATION = ["{t}, {u} = {s}", "{t}, = {s}", "{t} = [{s}]", "{t} = []", "{t} = [1, 2]"]
LIST_ITERATION = ["{l} += {s}", "{l}[0:0] = {s}", "{l}[:] = {s}", "{t}, {u} = {l}", "{l}[1:] = {s}",
                  "print(len({l}))"]
BROADCAST_COMPARISONS = [
    "{t} = {s} < {o}", "{t} = {s} == {s}.unsqueeze(-1)", "{t} = torch.allclose({s}, {o})", "{t} = {s}.allclose({o})",
    "{t} = torch.equal({s}, {o})", "{t} = {s}.equal({o})", "{t} = {s} > {o}.unsqueeze(0)", "{t} = 0.5 in {s}",
    "{t} = {s} in {o}", "{t} = {s} != {o}", "{t} = torch.allclose({s}, {s}.unsqueeze(-1))",
]
MAX_MIN = ["{t} = {s}.max({o})", "{t} = {s}.min({o})", "{t} = {s}.max(other={o})", "{t} = {s}.min({s}.unsqueeze(-1))",
           "{t} = {s}.max(dim=0)", "{t} = {s}.min(0, keepdim=True)", "{t} = {s}.max({o}.unsqueeze(0))",
           "{t} = {s} ** {o}", "{t} = {s} ** 3", "{t} = 2 ** {s}", "{t} = {s}.pow({o})",
           "{t} = {s}.t().reshape(-1)", "{t} = {s}.t().flatten()", "{t} = {s}.t().contiguous()",
           "{t} = {s}.unsqueeze(0).expand_as(torch.stack([{s}, {s}])).reshape(-1)", "{t} = {s}.reshape_as({o})"]


PWNED = "/tmp/tensorlab-fuzz-pwned"
FORBIDDEN = [
    "import os", "{t} = __import__('os')", "{t} = {s}.__class__", "{t} = eval('1')", f"{{t}} = open({PWNED!r}, 'w')",
    f"torch.save({{s}}, {PWNED!r})", f"{{s}}.numpy().tofile({PWNED!r})", "{t} = getattr({s}, 'grad')",
    "{t} = {s}.register_hook({s}.backward)", "{t} = {s}.register_hook(torch.ones_like)", "{t} = {s}._values()",
    "{t} = {s}.untyped_storage().resize_(0)", "{t} = (lambda: 1)()", "{t} = [v for v in {s}]",
    "{t} = {s}.numpy().data", "{t} = torch.ops.aten.add({s}, 1)", "{t} = print.__self__", "{t} = copy.copy({s})",
    "{s}.shape = (1,)", f"with open({PWNED!r}, 'w'):\n    {{t}} = 1\n", "{t} = {s}.grad_fn.register_hook(print)",
    "{t} = {s}.untyped_storage().backward()", "{t} = torch.hub", "{t} = {s}.to(print)", "{t} = {s}.T.__dict__",
]


def _names(namespace: dict[str, Any], kind: type) -> list[str]:
    return [name for name, value in namespace.items() if isinstance(value, kind)]


class TensorLabAgainstTorch(RuleBasedStateMachine):
    """One random program, run in TensorLab and in plain torch side by side."""

    @initialize()
    def start(self) -> None:
        self.session = Session(limits=DEFAULT_LIMITS)
        self.glb: dict[str, Any] = {"torch": torch, "copy": copy}
        self.ns: dict[str, Any] = {}
        self.labels = StorageLabels()
        torch.manual_seed(0)
        # Each side keeps its own random state (they share torch's generator in this process).
        self.states = {"tensorlab": torch.get_rng_state(), "plain": torch.get_rng_state()}
        self.codes: list[str] = []
        # Storage labels are compared as strings until a new storage is allocated at the address of
        # one that died (then labels keyed by address cannot tell them apart: see
        # test_a_new_storage_at_a_freed_address_gets_a_new_label); the partition is compared always.
        self.storages: dict[str, dict[tuple[str, int], weakref.ref]] = {"tensorlab": {}, "plain": {}}
        self.labels_trusted = True

    # -- the comparison ------------------------------------------------------------
    def step(self, code: str) -> None:
        self.codes.append(code)
        torch.set_rng_state(self.states["tensorlab"])
        result = self.session.run(code)  # raises (fails the test) if anything escapes
        self.states["tensorlab"] = torch.get_rng_state()
        torch.set_rng_state(self.states["plain"])
        plain = self._run_plain(code)
        self.states["plain"] = torch.get_rng_state()
        ours = result.to_json()
        self._watch_addresses("tensorlab", self.session.namespace)
        self._watch_addresses("plain", self.ns)
        theirs = describe(self.ns, self.labels)
        others = plain_others(self.ns)
        problems = _differences(ours, plain, theirs, others, self.labels_trusted)
        assert not problems, "program:\n" + "\n".join(self.codes) + "\n\ndifferences:\n" + "\n".join(problems)

    def _watch_addresses(self, side: str, namespace: dict[str, Any]) -> None:
        """Notice a storage allocated where one that was labelled died (a reused address)."""
        found = {}
        for value in rows(namespace).values():   # the tensors inside containers are rows too (issue #16)
            storage = value.untyped_storage()
            # An empty storage is told apart by its own identity, which a new one may take too.
            key = (str(value.device), storage.data_ptr()) if storage.nbytes() else ("empty", storage._cdata)
            known = self.storages[side].get(key)
            if known is not None and known() is not storage:
                self.labels_trusted = False
            found[key] = weakref.ref(storage)
        self.storages[side] = found

    def _run_plain(self, code: str) -> dict[str, Any]:
        return run_statement(code, self.glb, self.ns)

    @invariant()
    def nothing_escaped(self) -> None:
        if not hasattr(self, "session"):
            return
        for name, value in self.session.namespace.items():
            assert isinstance(value, ALLOWED_TYPES) or _is_namedtuple_of_tensors(value), (name, type(value))
        assert set(self.session.namespace) == set(self.ns)

    # -- the statements ------------------------------------------------------------
    def _tensor(self, data: st.DataObject, label: str = "source") -> str:
        return data.draw(st.sampled_from(_names(self.ns, torch.Tensor)), label=label)

    def _fill(self, data: st.DataObject, template: str) -> str:
        fields = {"t": data.draw(st.sampled_from(NAMES), label="target")}
        if "{u}" in template:
            fields["u"] = data.draw(st.sampled_from([n for n in NAMES if n != fields["t"]]), label="second target")
        if "{s}" in template:
            fields["s"] = self._tensor(data)
        if "{o}" in template:
            fields["o"] = self._tensor(data, "other")
        if "{a}" in template:
            fields["a"] = data.draw(st.sampled_from(_names(self.ns, numpy.ndarray)), label="array")
        if "{l}" in template:
            fields["l"] = data.draw(st.sampled_from(_names(self.ns, list)), label="list")
        return template.format(**fields)

    @rule(data=st.data(), floats=st.booleans())
    def create(self, data: st.DataObject, floats: bool) -> None:
        self._create(data, floats)

    def _create(self, data: st.DataObject, floats: bool = True) -> None:
        template = data.draw(st.sampled_from(FLOAT_FACTORIES if floats else INT_FACTORIES), label="factory")
        grad = data.draw(st.sampled_from(["", ", requires_grad=True"]), label="grad") if floats else ""
        shape = data.draw(st.sampled_from(SHAPES), label="shape")
        target = data.draw(st.sampled_from(NAMES), label="target")
        self.step(f"{target} = " + template.format(shape=shape, grad=grad))

    @rule(data=st.data())
    def use(self, data: st.DataObject) -> None:
        if not _names(self.ns, torch.Tensor):
            self._create(data)  # every rule is always enabled: no example is given up for want of one
            return
        kinds = ["copy", "view", "in place", "set item", "compute", "backward", "numpy", "look", "iterate",
                 "compare", "max/min"]
        if _names(self.ns, numpy.ndarray):
            kinds.append("array")
        if _names(self.ns, list):
            kinds.append("list")
        kind = data.draw(st.sampled_from(kinds), label="kind")
        templates = {"copy": COPIES, "view": VIEWS, "in place": IN_PLACE, "set item": SET_ITEMS,
                     "compute": COMPUTE, "backward": BACKWARD, "numpy": NUMPY, "look": LOOKS, "array": ARRAYS,
                     "iterate": ITERATION, "list": LIST_ITERATION, "compare": BROADCAST_COMPARISONS,
                     "max/min": MAX_MIN}[kind]
        self.step(self._fill(data, data.draw(st.sampled_from(templates), label=kind)))

    @rule(data=st.data())
    def forbidden(self, data: st.DataObject) -> None:
        """Something outside the subset: refused, and nothing of it ran (plain Python is not asked)."""
        if not _names(self.ns, torch.Tensor):
            self._create(data)
            return
        code = self._fill(data, data.draw(st.sampled_from(FORBIDDEN), label="forbidden"))
        before = dict(self.session.namespace)
        snapshot = self.session.take_snapshot().to_json()
        try:
            result = self.session.run(code)
        except LanguageError:
            pass
        else:
            assert result.error is not None, code
        assert self.session.namespace.keys() == before.keys(), code
        assert all(self.session.namespace[k] is v for k, v in before.items()), code
        assert self.session.take_snapshot().to_json() == snapshot, code
        assert not os.path.exists(PWNED), code

    @rule(data=st.data(), mode=st.sampled_from(["no_grad", "enable_grad", "no_grad+enable_grad"]))
    def block(self, data: st.DataObject, mode: str) -> None:
        if not _names(self.ns, torch.Tensor):
            self._create(data)
            return
        lines = [self._fill(data, data.draw(st.sampled_from(IN_PLACE + SET_ITEMS + COPIES + COMPUTE[:8]),
                                            label="line"))
                 for _ in range(data.draw(st.integers(1, 3), label="lines"))]
        if mode == "no_grad+enable_grad":
            body = "    with torch.enable_grad():\n" + "".join(f"        {line}\n" for line in lines)
            self.step("with torch.no_grad():\n" + body)
        else:
            self.step(f"with torch.{mode}():\n" + "".join(f"    {line}\n" for line in lines))


def _differences(ours: dict[str, Any], plain: dict[str, Any], theirs: dict[str, Any],
                 others: dict[str, Any], labels: bool = True) -> list[str]:
    """What TensorLab's step reports differently from plain torch (empty when they agree).

    With ``labels`` False, storages are compared as a partition (which names share) only.
    """
    problems = []
    if ours["error"] != plain["error"]:
        problems.append(f"error: {ours['error']} != {plain['error']}")
    if _ADDRESS.sub("0x…", ours["output"]) != _ADDRESS.sub("0x…", plain["output"]):  # object addresses differ
        problems.append(f"output: {ours['output']!r} != {plain['output']!r}")
    warned = [_TRIGGERED.sub("", w) for w in plain["warnings"]]
    if ours["warnings"] != warned:
        problems.append(f"warnings: {ours['warnings']} != {warned}")
    if list(ours["tensors"]) != list(theirs):
        problems.append(f"tensor names: {list(ours['tensors'])} != {list(theirs)}")
    for name, fields in theirs.items():
        mine = ours["tensors"].get(name, {})
        for key, value in fields.items():
            if mine.get(key) != value and (labels or key != "storage"):
                problems.append(f"{name}.{key}: {mine.get(key)!r} != {value!r}")
    if not labels and _partition(ours["tensors"]) != _partition(theirs):
        problems.append(f"storage partition: {_partition(ours['tensors'])} != {_partition(theirs)}")
    problems += others_differences(ours["others"], others)
    return problems


def _partition(tensors: dict[str, dict[str, Any]]) -> set[frozenset[str]]:
    groups: dict[str, set[str]] = {}
    for name, fields in tensors.items():
        groups.setdefault(fields["storage"], set()).add(name)
    return {frozenset(group) for group in groups.values()}


def _is_namedtuple_of_tensors(value: Any) -> bool:
    return isinstance(value, tuple) and all(isinstance(v, torch.Tensor) for v in value)


TensorLabAgainstTorch.TestCase.settings = settings(
    max_examples=EXAMPLES, stateful_step_count=40, deadline=None,
    derandomize=not LONG_RUN, database=None if not LONG_RUN else settings.default.database,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)
test_tensorlab_against_plain_torch = TensorLabAgainstTorch.TestCase


# Issue #16: `for` loops and tensors inside lists and tuples (rows `l[0]`, ...), a profile of its own drawn
# only from these templates: 50 derandomized examples in CI (TENSORLAB_FUZZ_LOOP_EXAMPLES for more).
LOOP_EXAMPLES = int(os.environ.get("TENSORLAB_FUZZ_LOOP_EXAMPLES", "50"))
CONTAINERS = ["{t} = [{s}, {o}]", "{t} = ({s}, {s} * 2)", "{t} = {s}.unbind()", "{t} = {s}.split(1)",
              "{t} = [1, {s}, 'x']", "{t} = {s}.chunk(2)", "{t} = ({s}[0], {o})"]
ITERABLES = ["range({k})", "range(1, {k})", "range({k}, 0, -1)", "[{s}, {o}]", "({s}, {s} * 2)", "{s}.unbind()",
             "{s}.split(1)", "[{s}.sum(), {o}.sum()]"]
LOOP_BODY = IN_PLACE[:12] + SET_ITEMS[:4] + COMPUTE[:10] + COPIES[:6] + [
    "print({v})", "{t} = {v}", "{t} = {v} * 2", "{s}.add_(1)"]


class LoopsAgainstTorch(RuleBasedStateMachine):
    """Programs of loops and containers, run in TensorLab and in plain torch side by side."""

    start = TensorLabAgainstTorch.start
    nothing_escaped = TensorLabAgainstTorch.nothing_escaped
    step = TensorLabAgainstTorch.step
    _watch_addresses = TensorLabAgainstTorch._watch_addresses
    _run_plain = TensorLabAgainstTorch._run_plain
    _tensor = TensorLabAgainstTorch._tensor
    _fill = TensorLabAgainstTorch._fill
    _create = TensorLabAgainstTorch._create
    create = TensorLabAgainstTorch.create

    @rule(data=st.data())
    def container(self, data: st.DataObject) -> None:
        if not _names(self.ns, torch.Tensor):
            self._create(data)
            return
        self.step(self._fill(data, data.draw(st.sampled_from(CONTAINERS), label="container")))

    @rule(data=st.data(), grad_mode=st.booleans())
    def loop(self, data: st.DataObject, grad_mode: bool) -> None:
        if not _names(self.ns, torch.Tensor):
            self._create(data)
            return
        iterable = data.draw(st.sampled_from(ITERABLES + [f"{n}" for n in _names(self.ns, (list, tuple))]),
                             label="iterable")
        iterable = self._fill(data, iterable.replace("{k}", str(data.draw(st.integers(0, 4), label="k"))))
        variable = "i" if iterable.startswith("range") else data.draw(st.sampled_from(NAMES), label="variable")
        lines = []
        for _ in range(data.draw(st.integers(1, 3), label="lines")):
            template = data.draw(st.sampled_from(LOOP_BODY), label="line")
            if "{s}" in template and not _names(self.ns, torch.Tensor):
                continue
            lines.append(self._fill(data, template.replace("{v}", variable)))
        if not lines:
            lines = [f"print({variable})"]
        body = "".join(f"    {line}\n" for line in lines)
        if grad_mode:
            body = "    with torch.no_grad():\n" + "".join(f"        {line}\n" for line in lines)
        self.step(f"for {variable} in {iterable}:\n" + body)


LoopsAgainstTorch.TestCase.settings = settings(
    max_examples=LOOP_EXAMPLES, stateful_step_count=12, deadline=None,
    derandomize="TENSORLAB_FUZZ_LOOP_EXAMPLES" not in os.environ, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)
test_loops_and_containers_against_plain_torch = LoopsAgainstTorch.TestCase


# Issue #16: modules, optimizer steps, state_dict, deepcopy and loops over parameters, a profile of its own
# drawn only from these templates: 50 derandomized examples in CI (TENSORLAB_FUZZ_TRAINING_EXAMPLES for more).
TRAINING_EXAMPLES = int(os.environ.get("TENSORLAB_FUZZ_TRAINING_EXAMPLES", "50"))
MODULE_NAMES = ["m", "n"]
MODULES = [
    "{m} = nn.Linear(3, 2)",
    "{m} = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))",
    "{m} = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 2))",
    "{m} = nn.Sequential(nn.Linear(3, 4), nn.ReLU(inplace=True), nn.Linear(4, 2))",
    "{m} = nn.Sequential(nn.Linear(3, 4), nn.Sigmoid(), nn.ReLU(inplace=True), nn.Linear(4, 2))",
    "{m} = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.Identity(), nn.Linear(4, 2))",
    "{m} = nn.Sequential(nn.Linear(3, 4), nn.Dropout(0.5), nn.Linear(4, 2))",
]
OPTIMIZERS = ["opt = optim.SGD({m}.parameters(), lr=0.1)", "opt = optim.SGD({m}.parameters(), lr=0.1, momentum=0.9)",
              "opt = optim.Adam({m}.parameters(), lr=0.01)"]
FORWARD = ["loss = F.mse_loss({m}(torch.ones(4, 3)), torch.zeros(4, 2))", "loss = {m}(torch.ones(4, 3)).sum()",
           "out = {m}(torch.ones(4, 3))", "loss = F.relu({m}(torch.ones(4, 3))).sum()",
           "loss = F.sigmoid({m}(torch.ones(4, 3))).mean()"]
WITH_MODULE = [
    "{m}.zero_grad()", "sd = {m}.state_dict()", "{m2} = copy.deepcopy({m})", "sd2 = copy.deepcopy({m}.state_dict())",
    "{m}.eval()", "{m}.train()", "{m}.requires_grad_(False)", "{m}.requires_grad_(True)", "ps = list({m}.parameters())",
    "alias = {m}", "print(len(list({m}.named_parameters())))",
    "for p in {m}.parameters():\n    p.grad = None\n",
    "for name, p in {m}.named_parameters():\n    print(name, p.shape, p.requires_grad)\n",
    "with torch.no_grad():\n    for p in {m}.parameters():\n        p.mul_(0.5)\n",
    "for i in range(3):\n    loss = {m}(torch.ones(4, 3)).sum()\n    loss.backward()\n",
]
WITH_LOSS = ["loss.backward()", "loss.backward(retain_graph=True)", "print(loss.item())", "total = loss.item()",
             "total = loss + 0"]
WITH_OPTIMIZER = ["opt.step()", "opt.zero_grad()", "opt.zero_grad(set_to_none=False)",
                  "print(opt.param_groups[0]['lr'])",
                  "for i in range(2):\n    opt.zero_grad()\n    loss = {m}(torch.ones(4, 3)).sum()\n"
                  "    loss.backward()\n    opt.step()\n"]
WITH_STATE = ["{m}.load_state_dict(sd)", "print(list(sd.keys()))", "sd = {m}.state_dict()"]
TRAINING_TYPES = ALLOWED_TYPES + (torch.nn.Module, torch.optim.Optimizer, dict)


class TrainingAgainstTorch(RuleBasedStateMachine):
    """Programs of modules, optimizers, state dicts and loops over parameters, in TensorLab and plain torch."""

    step = TensorLabAgainstTorch.step
    _watch_addresses = TensorLabAgainstTorch._watch_addresses
    _run_plain = TensorLabAgainstTorch._run_plain

    @initialize()
    def start(self) -> None:
        TensorLabAgainstTorch.start(self)  # type: ignore[arg-type]
        # An import binds a module TensorLab keeps apart from the names (not a row, not in `others`).
        for line in ("import torch.nn as nn", "import torch.nn.functional as F", "import torch.optim as optim"):
            assert self.session.run(line).error is None, line
        self.glb.update(nn=torch.nn, F=torch.nn.functional, optim=torch.optim)

    @invariant()
    def nothing_escaped(self) -> None:
        if not hasattr(self, "session"):
            return
        for name, value in self.session.namespace.items():
            assert isinstance(value, TRAINING_TYPES) or _is_namedtuple_of_tensors(value), (name, type(value))
        assert set(self.session.namespace) == set(self.ns)

    def _module(self, data: st.DataObject) -> str:
        return data.draw(st.sampled_from(_names(self.ns, torch.nn.Module)), label="module")

    def _fill(self, data: st.DataObject, template: str) -> str:
        fields = {}
        if "{m}" in template:
            fields["m"] = self._module(data)
        if "{m2}" in template:
            fields["m2"] = data.draw(st.sampled_from(MODULE_NAMES), label="copy")
        return template.format(**fields)

    @rule(data=st.data())
    def module(self, data: st.DataObject) -> None:
        template = data.draw(st.sampled_from(MODULES), label="module kind")
        self.step(template.format(m=data.draw(st.sampled_from(MODULE_NAMES), label="target")))

    @rule(data=st.data())
    def train(self, data: st.DataObject) -> None:
        if not _names(self.ns, torch.nn.Module):
            self.module(data)
            return
        kinds = ["forward", "module", "optimizer"]
        if isinstance(self.ns.get("loss"), torch.Tensor):
            kinds.append("loss")
        if isinstance(self.ns.get("opt"), torch.optim.Optimizer):
            kinds.append("step")
        if isinstance(self.ns.get("sd"), dict):
            kinds.append("state")
        kind = data.draw(st.sampled_from(kinds), label="kind")
        templates = {"forward": FORWARD, "module": WITH_MODULE, "optimizer": OPTIMIZERS, "loss": WITH_LOSS,
                     "step": WITH_OPTIMIZER, "state": WITH_STATE}[kind]
        self.step(self._fill(data, data.draw(st.sampled_from(templates), label=kind)))


TrainingAgainstTorch.TestCase.settings = settings(
    max_examples=TRAINING_EXAMPLES, stateful_step_count=12, deadline=None,
    derandomize="TENSORLAB_FUZZ_TRAINING_EXAMPLES" not in os.environ, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
)
test_training_steps_against_plain_torch = TrainingAgainstTorch.TestCase


def test_a_new_storage_at_a_freed_address_gets_a_new_label():
    # The label follows the storage object, not its address: whether or not the allocator gives the new
    # storage the freed block (it often does), it is new memory, with a new label and no hidden write.
    reused = 0
    for _ in range(20):
        session = Session()
        session.run("x = torch.ones(1000)")
        address = session.namespace["x"].data_ptr()
        result = session.run("with torch.no_grad():\n    x = None\n    y = torch.ones(1000)\n")
        reused += session.namespace["y"].data_ptr() == address
        assert result.to_json()["tensors"]["y"]["storage"] == "S1"
        again = session.run("with torch.no_grad():\n    y = None\n    y = torch.zeros(1000)\n")
        assert again.to_json()["tensors"]["y"]["storage"] == "S2" and again.notes == ()
