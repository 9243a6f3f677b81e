"""Run a whole lesson headlessly (contract 3 of the design: the README's "Headless commands").

``tensorlab run`` uses a worker process (:class:`~tensorlab.core.engine.process_engine.ProcessEngine`):
a step that crashes PyTorch or is killed (out of memory, over the time limit)
becomes that step's error (``WorkerCrash``, ``WorkerTimeout``); the worker is
restarted where it stood and the run goes on with the next step.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from tensorlab.core.lessons.lesson import Lesson, RefusedStep
from tensorlab.core.lessons.source_import import (
    RANDOM_SHIFTED,
    as_the_file_runs,
    changes_before_refused,
    opened_file,
    refused_at_run_time,
    refused_line,
    run_time_refusal,
    with_file_lines,
    with_may_differ,
)
from tensorlab.core.messages.catalogue import msg
from tensorlab.core.protocol.engine_api import Engine, EngineCrashed
from tensorlab.core.protocol.results import ErrorInfo, StepResult
from tensorlab.core.protocol.snapshot import OtherInfo, Snapshot, StorageInfo, TensorInfo

__all__ = ["LessonRun", "iter_lesson", "lesson_json", "write_lesson_json", "with_refused", "refused_json",
           "MAX_RUN_VALUES"]

# Values written by one `run --json`, over every step: beyond it, values are null (the
# snapshot of each step lists every tensor again, so a long file could otherwise ask for gigabytes).
MAX_RUN_VALUES = 2_000_000


class LessonRun:
    """Every step of ``lesson`` run on ``engine`` (fresh, seeded), one step's result at a time (iterate it).

    The caller owns the engine (the worker, or the in-process one of ``--in-process`` and tests).
    ``time_limit``: seconds for the whole run; steps not reached by then are reported as not run.
    An engine that can bound its work (the worker's ``run_within``) is told the deadline too: a
    step still running then is stopped, and so is the replay after a crash, so the run ends
    within ``time_limit`` plus one step's time limit.

    An opened file's step that the subset refuses as it runs (`model = model.to(device)` on a module: the
    worker knows the type) is not a result: it becomes a refused step of :attr:`lesson`, with the later steps
    that read what it binds ("depends on line N"), as if the import had refused them; the run goes on with
    the next step that runs. :attr:`lesson` is the lesson as it stands (its steps before the one running are
    numbered as they were).
    """

    def __init__(self, lesson: Lesson, engine: Engine, time_limit: float | None = None) -> None:
        self.lesson = lesson
        self.engine = engine
        self.time_limit = time_limit

    def __iter__(self) -> Iterator[StepResult]:
        started = time.monotonic()
        engine, time_limit = self.engine, self.time_limit
        run_within = getattr(engine, "run_within", None)
        if run_within is not None:
            run_within(time_limit)
        snapshot = Snapshot()
        index = 0
        done: list[StepResult] = []   # the results so far, in the lesson's order (a session rebuilt from them)
        while index < len(self.lesson.steps):
            step = self.lesson.steps[index]
            if time_limit is not None and time.monotonic() - started > time_limit:
                why = msg("engine.time_limit", seconds=f"{time_limit:g}")
                error = ErrorInfo("TimeLimit", why.render("en"), None, why)
                yield StepResult(index, step.code, error, (), "", None, snapshot)
                index += 1
                continue
            try:
                result = engine.run(step.code)
            except EngineCrashed as exc:
                # Past the deadline the reason is the time limit alone (no session was restarted for it).
                message = exc.why if exc.kind == "TimeLimit" else exc.message
                result = StepResult(index, step.code, ErrorInfo(exc.kind, message.render("en"), None, message), (),
                                    "", None, snapshot)
            else:
                if result.index != index:
                    # After a crash (or a step refused as it ran) the worker counts otherwise: the lesson's index.
                    result = dataclasses.replace(result, index=index)
                opened = opened_file(self.lesson)
                reason = run_time_refusal(result) if opened else None
                if reason is not None:
                    # Its names are as they were before it, but what ran of it may have drawn random numbers
                    # (`nn.Sequential(nn.Linear(2, 2)).to(device)`): the session is rebuilt without it, as the window
                    # and the export run the file, so that every later draw is theirs too.
                    self.lesson = refused_at_run_time(self.lesson, index, reason, refused_line(result))
                    restore = getattr(engine, "restore", None)
                    if restore is not None:
                        restore([s.code for s in self.lesson.steps[:index]], done)
                    continue
                if opened:
                    result = as_the_file_runs(result, self.lesson, index)
                result = with_file_lines(result, self.lesson.steps)   # an opened file's culprit step: by its line too
            snapshot = result.snapshot
            if opened_file(self.lesson):   # only an opened file's step can be refused as it runs (and rebuilt
                done.append(result)        # from these); a lesson file keeps none (490 snapshots took 2 GB)
            yield result
            index += 1


def iter_lesson(lesson: Lesson, engine: Engine, time_limit: float | None = None) -> LessonRun:
    """Every step's result of ``lesson`` on ``engine``, one at a time (:class:`LessonRun`)."""
    return LessonRun(lesson, engine, time_limit)


def with_refused(lesson: Lesson, results: Iterable[StepResult]) -> Iterator[StepResult | RefusedStep]:
    """The results of a run with the lesson's refused steps (an opened file's, never run) in their places; a
    :class:`LessonRun`'s own lesson as it stands, with the steps it refused as they ran."""
    given = 0

    def waiting() -> tuple[RefusedStep, ...]:
        return _current(lesson, results).refused[given:]

    ran = 0
    for result in results:
        while (rest := waiting()) and rest[0].after <= ran:
            yield rest[0]
            given += 1
        yield result
        ran += 1
    yield from waiting()


def _current(lesson: Lesson, results: object) -> Lesson:
    """The lesson as a run stands (a :class:`LessonRun` refuses steps as they run), else ``lesson``."""
    return results.lesson if isinstance(results, LessonRun) else lesson


def _before(lesson: Lesson, results: object, step: RefusedStep, snapshot: Snapshot) -> Snapshot:
    """The state a refused step's JSON shows (the one before it): ``snapshot``, each tensor a refused statement
    before it may have changed marked ``"may_differ"``, as the steps that run mark theirs."""
    return with_may_differ(snapshot, changes_before_refused(_current(lesson, results), step))


def refused_json(step: RefusedStep, index: int) -> dict[str, Any]:
    """The head of a refused step's JSON: not run, ``"ok": false``, ``"refused"``: the reason (English)."""
    return {"index": index, "code": step.code, "ok": False, "error": None, "refused": step.reason.render("en"),
            "warnings": [], "output": "", "line": step.line, "cell": step.cell}


def ran_json(lesson: Lesson, result: StepResult, number: int) -> dict[str, Any]:
    """The fields an opened file's step that ran adds to contract 3 (none for a lesson file, whose steps keep
    theirs): ``"index"``, its place among every statement of the file; ``"step"``, its number among the steps
    that run (the transcript's, the Code panel's and the explanations'); ``"line"`` and ``"cell"``, where it
    starts in the file (``"cell"`` 0 in a ``.py``), as a refused step says them: a consumer maps a failing
    ``backward()`` to the file from the JSON alone; ``"value"``, the value the step echoes where Jupyter shows one
    (a cell's last expression), as the window's Output shows it."""
    if not opened_file(lesson):
        return {}
    fields: dict[str, Any] = {"index": number, "step": result.index + 1}
    if result.value is not None:   # the value the file's step echoes (a notebook cell's last expression, Out[])
        fields["value"] = result.value
    shifted = next((note for note in result.notes if note.key == RANDOM_SHIFTED), None)
    if shifted is not None:   # its random numbers may not be the file's: why, and the line that is not run
        where = dict(shifted.params)["where"]
        fields["random_differs"] = {"line": where.values.get("line"), "cell": where.values.get("cell", 0),
                                    "reason": shifted.text}
    if result.index < len(lesson.steps):
        step = lesson.steps[result.index]
        fields.update(line=step.line, cell=step.cell)
    return fields


def lesson_json(lesson: Lesson, device: str, results: list[StepResult] | LessonRun) -> dict[str, Any]:
    """The contract-3 JSON document of a run (an opened file's refused steps in their places, not run)."""
    steps: list[dict[str, Any]] = []
    snapshot = Snapshot()
    for number, entry in enumerate(with_refused(lesson, results)):
        if isinstance(entry, RefusedStep):
            steps.append({**refused_json(entry, number), **_before(lesson, results, entry, snapshot).to_json()})
        else:
            snapshot = entry.snapshot
            steps.append({**entry.to_json(), **ran_json(_current(lesson, results), entry, number)})
    return {"lesson": lesson.id, "device": device, "steps": steps}


def write_lesson_json(lesson: Lesson, device: str, results: Iterable[StepResult],
                      stream: IO[str], max_values: int = MAX_RUN_VALUES) -> None:
    """Write the contract-3 document step by step, as results come (memory stays flat).

    Once ``max_values`` values were written, later tensors' values (and grads) are null.
    A tensor or value the snapshot shares with the step before is encoded once, not at every step.
    """
    stream.write(json.dumps({"lesson": lesson.id, "device": device}, ensure_ascii=False)[:-1] + ', "steps": [')
    encoder = _SnapshotEncoder(max_values)
    snapshot = Snapshot()
    for number, result in enumerate(with_refused(lesson, results)):
        if isinstance(result, RefusedStep):
            # Never run: the state is the one before it (each step lists every tensor, contract 3).
            head = refused_json(result, number)
            before = _before(lesson, results, result, snapshot)
            stream.write(("," if number else "") + _dumps(head)[:-1] + ", " + encoder.encode(before) + "}")
            continue
        snapshot = result.snapshot
        head = {"index": result.index, "code": result.code, "ok": result.ok,
                "error": None if result.error is None else result.error.to_json(),
                "warnings": [w.message for w in result.warnings], "output": result.output,
                **ran_json(_current(lesson, results), result, number)}
        loop = "" if result.iterations is None else f', "iterations": {int(result.iterations)}'   # a loop step
        stream.write(("," if number else "") + _dumps(head)[:-1] + ", " + encoder.encode(result.snapshot) + loop + "}")
    stream.write("]}\n")


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


# id(part) -> (part, {variant: text}).
_Texts = dict[int, tuple[Any, dict[Any, str]]]


def _json_text(part: StorageInfo | OtherInfo) -> Callable[[], str]:
    """What encodes ``part`` as JSON text, when asked."""
    return lambda: _dumps(part.to_json())


class _SnapshotEncoder:
    """The JSON text of snapshots, each part encoded once while consecutive snapshots share it."""

    def __init__(self, max_values: int) -> None:
        self.left = max_values
        # id(part) -> (part, {variant: text}); only the parts of the last snapshot are kept.
        self._texts: _Texts = {}

    def encode(self, snapshot: Snapshot) -> str:
        """``"tensors": {...}, "storages": [...], "others": {...}`` of one step."""
        used: _Texts = {}
        tensors = ", ".join(f"{_dumps(t.name)}: {self._tensor(t, used)}" for t in snapshot.tensors)
        storages = ", ".join(self._part(s, "json", used, _json_text(s)) for s in snapshot.storages)
        others = ", ".join(f"{_dumps(o.name)}: {self._part(o, 'json', used, _json_text(o))}"
                           for o in snapshot.others)
        self._texts = used
        return f'"tensors": {{{tensors}}}, "storages": [{storages}], "others": {{{others}}}'

    def _tensor(self, tensor: TensorInfo, used: _Texts) -> str:
        # Values, then the grad, count against what the run may still write; over it, null.
        with_values = self._fits(_count(tensor.values))
        with_grad = self._fits(_count(tensor.grad))

        def encode() -> str:
            # The values as they are kept (nested tuples: JSON arrays), never turned into lists first:
            # past the run's cap they are not written at all, so they are not copied either.
            data = dataclasses.replace(tensor, values=None, grad=None).to_json()
            data["values"] = tensor.values if with_values else None
            data["grad"] = tensor.grad if with_grad else None
            return _dumps(data)

        return self._part(tensor, (with_values, with_grad), used, encode)

    def _fits(self, count: int) -> bool:
        if count > self.left:
            return False
        self.left -= count
        return True

    def _part(self, part: Any, variant: Any, used: _Texts, encode: Callable[[], str]) -> str:
        key = id(part)
        kept = used.get(key) or self._texts.get(key)
        if kept is None or kept[0] is not part:
            kept = (part, {})
        used[key] = kept
        texts = kept[1]
        if variant not in texts:
            texts[variant] = encode()
        return texts[variant]


def _count(values: Any) -> int:
    if values is None:
        return 0
    if isinstance(values, (list, tuple)):
        return sum(_count(v) for v in values) if values and isinstance(values[0], (list, tuple)) else len(values)
    return 1
