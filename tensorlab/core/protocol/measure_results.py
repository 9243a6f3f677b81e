"""What a speed measurement found, as plain data, and the verdict drawn from the numbers.

Imports no torch: measurements cross from the worker process to the window as
they are (:mod:`tensorlab.core.protocol.wire`), and the verdict logic is tested with
synthetic timings. :mod:`tensorlab.core.tools.measure` does the timing.

The verdict compares ``clone().detach()`` with ``detach().clone()`` at each size:
``ratio`` is the median of the first over the median of the second, ``low`` and
``high`` the ratio of the quartiles taken crosswise (q1/q3 and q3/q1). When 1
lies between them the spreads overlap: "no measurable difference".
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from tensorlab.core.messages.catalogue import Message, MessageError, msg, render

__all__ = [
    "METHODS",
    "METHOD_STATEMENTS",
    "ORDER_METHODS",
    "DEFAULT_SIZES",
    "MIN_SIZE",
    "MAX_SIZE",
    "MeasureError",
    "MeasureParams",
    "Machine",
    "Measurement",
    "Verdict",
    "MeasureResult",
    "quartiles",
    "matrix_shape",
    "verdict_for",
    "verdicts",
    "Noise",
    "noise",
    "NOISE_SPREAD",
    "NOISE_FACTOR",
    "VERDICT_KINDS",
    "QUESTION_JOB",
    "MeasuredQuestion",
    "question_problem",
]

# Every method the measure panel offers, named by its code as written after `x`, and the
# statement timed for it (x is the tensor measured). The one list: the panel, the CLI and the
# timing (tensorlab.core.tools.measure) all read it. Constants, never user text.
METHOD_STATEMENTS: Mapping[str, str] = MappingProxyType({
    "clone()": "x.clone()",
    "detach()": "x.detach()",
    "clone().detach()": "x.clone().detach()",
    "detach().clone()": "x.detach().clone()",
    ".data": "x.data",
    "torch.tensor(x)": "torch.tensor(x)",
    "copy.deepcopy(x)": "copy.deepcopy(x)",
    "to(torch.float64)": "x.to(torch.float64)",
    "t().contiguous()": "x.t().contiguous()",
})
METHODS: tuple[str, ...] = tuple(METHOD_STATEMENTS)
# The two whose order the post's claim is about.
CLONE_DETACH, DETACH_CLONE = "clone().detach()", "detach().clone()"
ORDER_METHODS: tuple[str, ...] = ("clone()", "detach()", CLONE_DETACH, DETACH_CLONE)
DEFAULT_SIZES: tuple[int, ...] = tuple(10**k for k in range(1, 8))
MIN_SIZE, MAX_SIZE = 1, 10**7
MIN_RUN_TIME, MAX_RUN_TIME = 0.001, 10.0
MAX_ROUNDS = 10


class MeasureError(MessageError, ValueError):
    """Parameters a measurement cannot use (which, and why)."""


@dataclass(frozen=True)
class MeasureParams:
    """What to measure: methods, sizes (elements), with/without requires_grad, seconds per measurement.

    ``rounds``: the methods at one size are timed in turn this many times, each
    for ``min_run_time / rounds`` seconds, and each method's blocks are pooled;
    a passing load on the machine then falls on every method alike.
    """

    methods: tuple[str, ...] = METHODS
    sizes: tuple[int, ...] = DEFAULT_SIZES
    requires_grad: tuple[bool, ...] = (True, False)
    min_run_time: float = 0.2
    rounds: int = 3

    @classmethod
    def from_dict(cls, params: Mapping[str, Any]) -> MeasureParams:
        """Checked parameters from a job's ``params`` (MeasureError names what is wrong)."""
        unknown = set(params) - {"methods", "sizes", "requires_grad", "min_run_time", "rounds"}
        if unknown:
            raise MeasureError(msg("measure.unknown", names=", ".join(sorted(unknown))))
        methods = tuple(params.get("methods", METHODS))
        for method in methods:
            if method not in METHODS:
                raise MeasureError(msg("measure.method", method=method[:80], methods=", ".join(METHODS)))
        if not methods:
            raise MeasureError(msg("measure.no_method"))
        sizes = tuple(params.get("sizes", DEFAULT_SIZES))
        if not sizes:
            raise MeasureError(msg("measure.no_size"))
        for size in sizes:
            if isinstance(size, bool) or not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
                raise MeasureError(msg("measure.sizes", low=MIN_SIZE, high=MAX_SIZE, value=repr(size)))
        grads = tuple(params.get("requires_grad", (True, False)))
        if not grads or any(not isinstance(g, bool) for g in grads):
            raise MeasureError(msg("measure.grads"))
        seconds = params.get("min_run_time", 0.2)
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not (
                MIN_RUN_TIME <= seconds <= MAX_RUN_TIME):
            raise MeasureError(msg("measure.run_time", low=MIN_RUN_TIME, high=MAX_RUN_TIME, value=repr(seconds)))
        rounds = params.get("rounds", 3)
        if isinstance(rounds, bool) or not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
            raise MeasureError(msg("measure.rounds", high=MAX_ROUNDS, value=repr(rounds)))
        # Keep the user's order of methods, without repeats; sizes ascending.
        return cls(tuple(dict.fromkeys(methods)), tuple(sorted(set(sizes))), tuple(dict.fromkeys(grads)),
                   float(seconds), rounds)

    def to_dict(self) -> dict[str, Any]:
        """The job's ``params`` for these parameters."""
        return {"methods": list(self.methods), "sizes": list(self.sizes),
                "requires_grad": list(self.requires_grad), "min_run_time": self.min_run_time,
                "rounds": self.rounds}

    @property
    def total(self) -> int:
        """How many measurements these parameters ask for."""
        return len(self.methods) * len(self.sizes) * len(self.requires_grad)

    @property
    def steps(self) -> int:
        """How many timed runs (a method at a size, in one round): the progress counts these."""
        return self.total * self.rounds


@dataclass(frozen=True)
class Machine:
    """Where the numbers were measured."""

    device: str          # "cpu", "cuda:0", "mps"
    device_name: str     # the CPU model or the GPU's name, as the system reports it
    torch: str
    threads: int


@dataclass(frozen=True)
class Measurement:
    """Seconds per call of one method at one size, from torch.utils.benchmark blocks.

    ``runs``: how many timed blocks the distribution holds (each of ``number_per_run`` calls).
    """

    method: str
    size: int
    requires_grad: bool
    median_s: float
    q1_s: float
    q3_s: float
    runs: int
    number_per_run: int = 1

    @property
    def iqr_s(self) -> float:
        """The interquartile range (q3 - q1), in seconds."""
        return self.q3_s - self.q1_s

    def to_json(self) -> dict[str, Any]:
        """The `results` entry of `tensorlab measure --json`."""
        return {"method": self.method, "size": self.size, "requires_grad": self.requires_grad,
                "median_s": self.median_s, "iqr_s": self.iqr_s, "runs": self.runs}


@dataclass(frozen=True)
class Verdict:
    """clone().detach() against detach().clone() at one size.

    ``kind``: "same" (1 lies between low and high), "slower" (clone().detach()
    takes measurably longer) or "faster" (it takes measurably less time).
    """

    size: int
    requires_grad: bool
    ratio: float
    low: float
    high: float
    kind: str

    @property
    def text(self) -> str:
        """The verdict in plain English, from the numbers."""
        return self.render("en")

    def render(self, language: str = "en") -> str:
        """The verdict in ``language``, from the numbers."""
        key = {"same": "verdict.same", "slower": "verdict.slower"}.get(self.kind, "verdict.faster")
        return render(key, {"ratio": f"{self.ratio:.2f}", "low": f"{self.low:.2f}", "high": f"{self.high:.2f}"},
                      language)

    def to_json(self) -> dict[str, Any]:
        """The `verdict` entry of `tensorlab measure --json`."""
        return {"size": self.size, "ratio": self.ratio, "low": self.low, "high": self.high,
                "requires_grad": self.requires_grad, "text": self.text}


@dataclass(frozen=True)
class MeasureResult:
    """A whole measurement: where, what was measured, the verdicts, and what was skipped (and why)."""

    machine: Machine
    measurements: tuple[Measurement, ...]
    verdicts: tuple[Verdict, ...] = ()
    skipped: tuple[Message, ...] = field(default=())   # why a method was left out at a size

    def to_json(self) -> dict[str, Any]:
        """The document `tensorlab measure --json` prints."""
        return {"device": self.machine.device, "device_name": self.machine.device_name,
                "torch": self.machine.torch, "threads": self.machine.threads,
                "results": [m.to_json() for m in self.measurements],
                "verdict": [v.to_json() for v in self.verdicts],
                "noise": [n.to_json() for n in noise(self.measurements)]}


def quartiles(times: Sequence[float]) -> tuple[float, float, float]:
    """(q1, median, q3) of ``times`` by linear interpolation (as torch.quantile and numpy compute them)."""
    values = sorted(float(t) for t in times)
    if not values:
        raise ValueError("no times")
    if len(values) == 1:
        return values[0], values[0], values[0]
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, median, q3


def matrix_shape(size: int) -> tuple[int, int]:
    """A 2-D shape of ``size`` elements, as square as the divisors allow (rows <= columns).

    ``t().contiguous()`` needs a transposed view that is not contiguous, so at
    least two rows and two columns: a prime size has none (rows is then 1).
    """
    rows = 1
    for candidate in range(2, math.isqrt(size) + 1):
        if size % candidate == 0:
            rows = candidate
    return rows, size // rows


def verdict_for(clone_detach: Measurement, detach_clone: Measurement) -> Verdict | None:
    """The verdict from the two measurements at one size (None where a time is not positive)."""
    a, b = clone_detach, detach_clone
    if min(a.median_s, a.q1_s, b.median_s, b.q1_s, b.q3_s) <= 0:
        return None
    ratio = a.median_s / b.median_s
    low = a.q1_s / b.q3_s
    high = a.q3_s / b.q1_s
    if low <= 1.0 <= high:
        kind = "same"
    elif low > 1.0:
        kind = "slower"
    else:
        kind = "faster"
    return Verdict(a.size, a.requires_grad, ratio, low, high, kind)


def verdicts(measurements: Iterable[Measurement]) -> tuple[Verdict, ...]:
    """A verdict for every (size, requires_grad) where both clone().detach() and detach().clone() were measured."""
    found: dict[tuple[int, bool], dict[str, Measurement]] = {}
    for m in measurements:
        found.setdefault((m.size, m.requires_grad), {})[m.method] = m
    out = []
    for _key, by_method in sorted(found.items(), key=lambda item: (item[0][0], not item[0][1])):
        if CLONE_DETACH in by_method and DETACH_CLONE in by_method:
            verdict = verdict_for(by_method[CLONE_DETACH], by_method[DETACH_CLONE])
            if verdict is not None:
                out.append(verdict)
    return tuple(out)


# -- #17: results that are noise ------------------------------------------------------------------------
NOISE_SPREAD = 0.5     # IQR / median above this: the blocks disagree with each other
NOISE_FACTOR = 10.0    # this many times off the log-log line through its neighbours: it disagrees with them


@dataclass(frozen=True)
class Noise:
    """A measurement whose numbers say it is noise: ``reason`` "spread" (IQR/median, in ``value``) or
    "off_line" (how many times off the log-log line through its neighbours, in ``value``)."""

    measurement: Measurement
    reason: str
    value: float

    def message(self) -> Message:
        """What the flag says, for the plot's text and the table."""
        m = self.measurement
        where = {"method": m.method, "size": f"{m.size:,}", "grad": m.requires_grad}
        if self.reason == "spread":
            return msg("measure.noise_spread", ratio=f"{self.value:.2f}", limit=NOISE_SPREAD, **where)
        return msg("measure.noise_off_line", ratio=f"{self.value:.0f}", limit=f"{NOISE_FACTOR:.0f}", **where)

    def to_json(self) -> dict[str, Any]:
        """The `noise` entry of `tensorlab measure --json` (added in #17; the other fields are unchanged)."""
        m = self.measurement
        return {"method": m.method, "size": m.size, "requires_grad": m.requires_grad,
                "reason": self.reason, "value": self.value, "text": self.message().render("en")}


def _off_line(point: Measurement, neighbours: Sequence[Measurement]) -> float:
    """How many times ``point``'s median is off the log-log line through its two ``neighbours`` (1: on it),
    or, with one neighbour (an end point), off every line through it of slope 0 to 1: a copy of more
    elements takes no less time, and at most proportionally more (extrapolating the line through the
    two nearest would call the flat start of every real curve noise)."""
    x, y = math.log10(point.size), math.log10(point.median_s)
    if len(neighbours) == 2:
        a, b = neighbours
        xa, xb = math.log10(a.size), math.log10(b.size)
        ya, yb = math.log10(a.median_s), math.log10(b.median_s)
        return float(10 ** abs(y - (ya + (yb - ya) * (x - xa) / (xb - xa))))
    (n,) = neighbours
    rise = x - math.log10(n.size)
    low, high = math.log10(n.median_s) + min(0.0, rise), math.log10(n.median_s) + max(0.0, rise)
    return float(10 ** max(low - y, y - high, 0.0))


def _neighbours(points: Sequence[Measurement], i: int, excluded: set[int]) -> list[Measurement]:
    """The nearest point on each side of ``points[i]`` (at an end, the one nearest), never an excluded one."""
    left = [p for j, p in enumerate(points[:i]) if j not in excluded]
    right = [p for j, p in enumerate(points[i + 1:], start=i + 1) if j not in excluded]
    return left[-1:] + right[:1]


def _between(point: Measurement, neighbours: Sequence[Measurement]) -> bool:
    """Whether ``point``'s median lies between its two neighbours' (inclusive): on a monotone stretch
    of the curve, where no rule can tell which of the three is wrong (a real cliff looks like that)."""
    a, b = neighbours
    return min(a.median_s, b.median_s) <= point.median_s <= max(a.median_s, b.median_s)


def _off_by(points: Sequence[Measurement], i: int, excluded: set[int]) -> float:
    """How far off its neighbours ``points[i]`` is, or 1.0 where the rule does not let it be judged.

    An inner point is judged only if it is not between its neighbours and they agree with each
    other without it (the far one lies within the slope-0-to-1 range through the near one, within
    :data:`NOISE_FACTOR`); an end point only if its one neighbour agrees with the next point beyond
    it (when there is one). So a consistent point beside a cliff is never the one marked.
    """
    near = _neighbours(points, i, excluded)
    point = points[i]
    if not near or len({p.size for p in near} | {point.size}) != len(near) + 1:
        return 1.0
    if len(near) == 2:
        a, b = near
        if _between(point, near) or _off_line(b, [a]) > NOISE_FACTOR:
            return 1.0
        return _off_line(point, near)
    (n,) = near
    j = next(k for k, p in enumerate(points) if p is n)
    beyond = _neighbours(points, j, excluded | {i})
    if beyond and beyond[0].size != n.size and _off_line(n, beyond) > NOISE_FACTOR:
        return 1.0
    return _off_line(point, near)


def noise(measurements: Iterable[Measurement]) -> tuple[Noise, ...]:
    """Every measurement that is likely noise, in the order given.

    Its own blocks disagree (IQR/median over :data:`NOISE_SPREAD`), or its median sits more than
    :data:`NOISE_FACTOR` times off the log-log line through its neighbouring sizes of the same method
    and ``requires_grad`` (an end point: off every line of slope 0 to 1 through its one neighbour),
    where those neighbours agree with each other without it (see :func:`_off_by`; a point between
    its neighbours is never marked). The worst such point is flagged first and is no one's
    neighbour after, so one bad point does not make the good ones beside it look bad too.
    """
    given = list(measurements)
    flagged: dict[Measurement, Noise] = {}
    for m in given:
        if m.median_s > 0 and m.iqr_s / m.median_s > NOISE_SPREAD:
            flagged[m] = Noise(m, "spread", m.iqr_s / m.median_s)
    curves: dict[tuple[str, bool], list[Measurement]] = {}
    for m in given:
        if m.median_s > 0:
            curves.setdefault((m.method, m.requires_grad), []).append(m)
    for points in curves.values():
        points.sort(key=lambda p: p.size)
        excluded: set[int] = set()
        while True:
            worst, worst_factor = -1, NOISE_FACTOR
            for i in range(len(points)):
                factor = 1.0 if i in excluded else _off_by(points, i, excluded)
                if factor > worst_factor:
                    worst, worst_factor = i, factor
            if worst < 0:
                break
            excluded.add(worst)
            flagged.setdefault(points[worst], Noise(points[worst], "off_line", worst_factor))
    return tuple(flagged[m] for m in given if m in flagged)


# -- #18: a lesson question answered by a measurement ----------------------------------------------------
VERDICT_KINDS: tuple[str, ...] = ("slower", "same", "faster")   # clone().detach() against detach().clone()
QUESTION_RUN_TIME = 1.0    # seconds per method a lesson's measured question times (in QUESTION_ROUNDS turns)
QUESTION_ROUNDS = 3
QUESTION_JOB = "lesson_measure"   # the worker's job for it: the measure job under its own name (jobs.JOBS)


@dataclass(frozen=True)
class MeasuredQuestion:
    """A lesson question (``check = "verdict"``) whose right choice is the verdict measured when it is asked.

    ``verdicts``: for each choice, the verdict it claims on clone().detach() against
    detach().clone() at ``size`` elements ("slower", "same" or "faster", each exactly once, so
    exactly one choice is right whatever the device measures). Nothing stores an answer.
    """

    size: int
    verdicts: tuple[str, ...]
    requires_grad: bool = True

    def params(self) -> MeasureParams:
        """What to measure: the two orders at ``size``, with ``requires_grad`` as asked."""
        return MeasureParams((CLONE_DETACH, DETACH_CLONE), (self.size,), (self.requires_grad,),
                             QUESTION_RUN_TIME, QUESTION_ROUNDS)

    def verdict(self, result: MeasureResult) -> Verdict | None:
        """The verdict of ``result`` this question is about (None: not measured there)."""
        for verdict in result.verdicts:
            if verdict.size == self.size and verdict.requires_grad == self.requires_grad:
                return verdict
        return None

    def choice(self, result: MeasureResult) -> int | None:
        """The index of the choice the measured verdict makes right (None: no verdict at this size)."""
        verdict = self.verdict(result)
        if verdict is None or verdict.kind not in self.verdicts:
            return None
        return self.verdicts.index(verdict.kind)


def question_problem(size: object, verdicts: object, choices: int, requires_grad: object = True) -> bool:
    """Whether these fields of a measured question are wrong (see :class:`MeasuredQuestion`)."""
    return (isinstance(size, bool) or not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE
            or not isinstance(verdicts, list) or len(verdicts) != choices
            or sorted(v for v in verdicts if isinstance(v, str)) != sorted(VERDICT_KINDS)
            or not isinstance(requires_grad, bool))
