"""Play a program of steps forward and back: a lesson plus the steps a user adds.

The player owns the program and the results; an :mod:`engine <tensorlab.core.protocol.engine_api>`
holds the live session (in this process, or in a worker process for the window).
Position k means the first k steps have run. Going back shows the results already known
for the first k steps (each snapshot is what torch held right after its step, and replay is
deterministic): the engine's live session stays where it stood, further on, and the steps it
ran past the position are kept as the results *ahead*. Stepping forward again over the same
program takes the next of them (the engine ran that very step there). The live state is
rebuilt only when something needs it at the position (a new or different step, a graph, a
job, the session itself): then the engine restores it from a fresh, seeded session, and only
the torch state is rebuilt (:meth:`Player.sync`). The results kept stay within the history's share of the
memory budget (:mod:`tensorlab.core.protocol.history`): old snapshots lose their values,
and going back to one runs its steps again to read them (the panels show the state
and the one before it, so both are whole). A step the user builds is inserted at the current
position and run, so nothing of the lesson (nor anything the user made) is lost.
This module imports no torch.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from tensorlab.core.lang.parse import TENSOR_KIND, Statement, check_names, parse_one
from tensorlab.core.lessons.lesson import Lesson, LessonStep
from tensorlab.core.lessons.source_import import (
    as_the_file_runs,
    opened_file,
    refused_at_run_time,
    refused_line,
    run_time_refusal,
    with_file_lines,
)
from tensorlab.core.protocol.engine_api import NEVER, Cancelled, Engine, EngineCrashed, Progress
from tensorlab.core.protocol.history import KEEP_LAST, History, history_allowance
from tensorlab.core.protocol.limits import DEFAULT_LIMITS, Limits
from tensorlab.core.protocol.results import ErrorInfo, StepResult
from tensorlab.core.protocol.snapshot import GraphInfo, Snapshot

__all__ = ["StepOrigin", "ProgramStep", "PlayerState", "Player", "Cancelled", "EngineCrashed", "program_from",
           "program_as_lesson"]

EMPTY_SNAPSHOT = Snapshot()

# What a step that stopped its worker is, when the player goes past it (``past_crashes``): a result whose
# error is the crash, the engine restarted without it. Such a step is never sent to an engine again.
LOST_KINDS = frozenset({"WorkerCrash", "WorkerTimeout", "TimeLimit"})


def lost(result: StepResult) -> bool:
    """Whether ``result`` is a step that stopped its worker and was recorded as content (not run in the session)."""
    return result.error is not None and result.error.type in LOST_KINDS


class StepOrigin(StrEnum):
    """Where a step of the program came from.

    The values are those ``user-steps.toml`` has always saved (a ``str`` enum: they compare equal
    to the text, and are written as it): do not rename them.
    """

    LESSON = "lesson"   # a step of the open lesson
    USER = "user"       # a step you added


@dataclass(frozen=True)
class ProgramStep(LessonStep):
    """One step of the program: a lesson step, or a step the user added (``origin=StepOrigin.USER``)."""

    origin: StepOrigin = StepOrigin.LESSON


@dataclass(frozen=True)
class PlayerState:
    """Everything the panels show, as immutable data."""

    lesson: Lesson | None
    program: tuple[ProgramStep, ...]
    position: int
    results: tuple[StepResult, ...]   # results of program[:position]
    device: str
    devices: tuple[str, ...] = ("cpu",)
    trimmed: int = 0                   # steps at the start whose values the kept history dropped
    # Going back left the worker's live session further on (:meth:`Player.prepare` rebuilds it at the position).
    away: bool = False

    @property
    def snapshot(self) -> Snapshot:
        """The snapshot after the last step run (empty at position 0)."""
        return self.results[-1].snapshot if self.results else EMPTY_SNAPSHOT

    @property
    def previous_snapshot(self) -> Snapshot:
        """The snapshot before the last step run (to highlight what it changed)."""
        return self.results[-2].snapshot if len(self.results) > 1 else EMPTY_SNAPSHOT

    @property
    def last(self) -> StepResult | None:
        """The result of the last step run."""
        return self.results[-1] if self.results else None

    @property
    def names(self) -> tuple[str, ...]:
        """Every name bound now (tensors and other values)."""
        return self.snapshot.names

    @property
    def kinds(self) -> dict[str, str]:
        """The type of every name bound now to something other than a tensor (`SGD`, `Linear`): what a typed
        line may read on it is checked before it runs (:func:`~tensorlab.core.lang.parse.check_names`), and
        ``TENSOR_KIND`` for a name bound to a tensor (`for r in x` is refused before it runs)."""
        kinds = {t.name: TENSOR_KIND for t in self.snapshot.tensors if t.name.isidentifier()}
        kinds.update({o.name: o.type for o in self.snapshot.others})
        return kinds

    @property
    def user_steps(self) -> tuple[int, ...]:
        """Indices of the steps the user added."""
        return tuple(i for i, s in enumerate(self.program) if s.origin == StepOrigin.USER)

    def at(self, position: int) -> PlayerState:
        """This state as it was at an earlier ``position`` (known without running anything)."""
        position = max(0, min(position, self.position))
        return PlayerState(self.lesson, self.program, position, self.results[:position], self.device,
                           self.devices, min(self.trimmed, position), self.away or position < self.position)

    @property
    def whole(self) -> bool:
        """Whether the snapshots the panels show (the last and the one before) still hold their values."""
        return not any(r.snapshot.trimmed for r in self.results[-KEEP_LAST:])


def program_from(lesson: Lesson | None) -> list[ProgramStep]:
    """The program of ``lesson``: its steps, in order (empty for the scratchpad)."""
    if lesson is None:
        return []
    return [ProgramStep(s.code, s.statement, s.note, s.ask, s.translations, s.facts, s.line, s.cell)
            for s in lesson.steps]


def program_as_lesson(lesson: Lesson | None, program: Sequence[LessonStep]) -> Lesson:
    """The program as it stands (the lesson's steps and yours) as a lesson: to save, export or check.

    A program with no step of yours is ``lesson`` itself (its id, texts and file). With steps of
    yours it is a lesson of its own: the id gets ``-mine`` and the title says so; the title's
    translations are left out (they would name the lesson without your steps); chapter,
    prerequisites and the other texts stay. The scratchpad (``lesson`` None) is "My steps".
    """
    steps = tuple(program)
    if lesson is None:
        return Lesson("my-steps", "My steps", steps)
    if not any(getattr(step, "origin", StepOrigin.LESSON) == StepOrigin.USER for step in steps):
        return Lesson(lesson.id, lesson.title, steps, lesson.summary, dict(lesson.translations), lesson.source,
                      lesson.chapter, lesson.prerequisites, refused=lesson.refused)
    translations = {k: v for k, v in lesson.translations.items() if not k.startswith("title_")}
    # An opened file's refused statements keep their places (an export writes them commented): the one after
    # the lesson's k-th step stands before its (k+1)-th, after the steps you added (as the Code panel shows).
    starts = [i for i, step in enumerate(steps) if getattr(step, "origin", StepOrigin.LESSON) != StepOrigin.USER]
    refused = tuple(replace(r, after=starts[r.after] if r.after < len(starts) else len(steps))
                    for r in lesson.refused)
    return Lesson(f"{lesson.id}-mine", f"{lesson.title} (with my steps)", steps, lesson.summary, translations,
                  chapter=lesson.chapter, prerequisites=lesson.prerequisites, refused=refused)


class Player:
    """Runs a program step by step on one engine. Use from one thread at a time."""

    def __init__(self, engine: Engine, limits: Limits = DEFAULT_LIMITS) -> None:
        self.limits = limits
        self.engine: Engine = engine
        self.lesson: Lesson | None = None
        self.program: list[ProgramStep] = []
        self.results: list[StepResult] = []
        self.focus: tuple[str, ...] = ()
        self._kept: dict[str, list[ProgramStep]] = {}
        self.history = History(history_allowance(getattr(engine, "limits", limits)))
        # Stepping back leaves the engine where it stood (see the module docstring): ``_away`` says that the live
        # session does not stand at the position, ``_ahead`` holds the results of the steps it ran past it
        # (program[position:position + len(_ahead)]). A graph one of them did not read is asked for where it is
        # shown (:meth:`graph`), at the live state.
        self._away = False
        self._ahead: list[StepResult] = []

    def use_engine(self, engine: Engine) -> None:
        """Run on ``engine`` from now on (a new memory budget): the kept history's allowance is its budget's share,
        and what the player keeps is trimmed to it at once. The caller restores the engine to the position."""
        self.engine = engine
        self._in_step()   # a new engine stands at its start; the caller restores it
        self.history.allowance = history_allowance(getattr(engine, "limits", self.limits))
        self._trim()

    def _trim(self) -> None:
        """Keep the results within the history's allowance, and tell the engine what that leaves (the worker counts
        it in the session's budget, with what the engine and the worker keep)."""
        self.history.trim(self.results)
        count = getattr(self.engine, "count_kept", None)
        if count is not None:
            count(self.history.held)

    # -- state -----------------------------------------------------------------
    @property
    def position(self) -> int:
        """How many steps of the program have run."""
        return len(self.results)

    @property
    def session(self) -> Any:
        """The live session at the position, where the engine runs in this process (tests, scripts); else None.

        Typed ``Any``: the window side of the core may not name the worker side's ``Session``.
        """
        self.sync()
        return getattr(self.engine, "session", None)

    @property
    def in_step(self) -> bool:
        """Whether the engine's live session stands at the position (else :meth:`sync` brings it there)."""
        return not self._away

    def _in_step(self) -> None:
        """The engine stands at the position now (it was reset or restored there): nothing is ahead."""
        self._away = False
        self._ahead = []

    def sync(self, cancelled: Callable[[], bool] = NEVER, progress: Progress | None = None) -> None:
        """Bring the engine's live session to the position, where stepping back left it further on.

        The results stay those known; only the torch state is rebuilt (a replay from a fresh, seeded
        session, without snapshots). On cancel the player stands where the engine got to.
        """
        if not self._away:
            return
        self._ahead = []
        kept = [i for i in range(self.position) if not lost(self.results[i])]
        try:
            self.engine.restore([self.program[i].code for i in kept], [self.results[i] for i in kept], cancelled,
                                progress)
        except (Cancelled, EngineCrashed) as exc:
            self._away = False
            self._settle(exc.position)
            raise
        self._away = False

    def prepare(self, cancelled: Callable[[], bool] = NEVER, progress: Progress | None = None) -> bool:
        """Rebuild the live state at the position ahead of need, where going back left the engine further on (the
        window asks once going back settles, so that the next line typed does not wait for the replay); True once
        the engine stands at the position.

        Unlike :meth:`sync`, a cancel (the learner stepping on, Esc) changes nothing shown: the results stay, and
        the engine, stopped part way, is brought to the position by the next step that needs it (the replay goes
        on from where this one stopped).
        """
        if not self._away:
            return True
        self._ahead = []   # the engine no longer stands past the position once the replay starts
        kept = [i for i in range(self.position) if not lost(self.results[i])]
        try:
            self.engine.restore([self.program[i].code for i in kept], [self.results[i] for i in kept], cancelled,
                                progress)
        except Cancelled:
            return False
        except EngineCrashed as exc:
            self._away = False
            self._settle(exc.position)
            raise
        self._away = False
        return True

    @property
    def kept(self) -> dict[str, list[ProgramStep]]:
        """Programs with user steps, kept per lesson key while another program is open."""
        return self._kept

    def state(self) -> PlayerState:
        """An immutable picture of the player now."""
        return PlayerState(self.lesson, tuple(self.program), self.position, tuple(self.results),
                           self.engine.device, tuple(self.engine.devices), self.history.trimmed_steps, self._away)

    # -- loading ---------------------------------------------------------------
    def load(self, lesson: Lesson | None, program: Sequence[ProgramStep] | None = None) -> None:
        """Start ``lesson`` (or an empty program) at position 0.

        Steps the user added to the program being left are kept and come back
        when that lesson is opened again; ``program`` replaces what was kept.
        """
        self.keep_current()
        self.lesson = lesson
        kept = self._kept.pop(self.key(lesson), None)
        if program is not None:
            kept = list(program)
        self.program = kept if kept is not None else program_from(lesson)
        self.engine.reset()
        self._in_step()
        self.results = []

    def keep_current(self) -> None:
        """Remember the open program if the user added steps to it."""
        if any(step.origin == StepOrigin.USER for step in self.program):
            self._kept[self.key(self.lesson)] = list(self.program)
        else:
            self._kept.pop(self.key(self.lesson), None)

    @staticmethod
    def key(lesson: Lesson | None) -> str:
        """How a lesson's kept steps are filed (the scratchpad is "")."""
        return "" if lesson is None else f"{lesson.id}@{lesson.source}"

    # -- moving ----------------------------------------------------------------
    def forward(self, cancelled: Callable[[], bool] = NEVER) -> StepResult | None:
        """Run the next step; None at the end of the program."""
        if self.position >= len(self.program):
            return None
        if self._away and self._ahead and not self._ahead[0].snapshot.trimmed:
            # The engine ran this very step here already (stepping back left it further on): its result, as torch
            # made it then. The engine stands at the position again once nothing is ahead.
            result = self._ahead.pop(0)
            self.results.append(result)
            self._away = bool(self._ahead)
            self._trim()
            return result
        self.sync(cancelled)
        result = self.engine.run(self.program[self.position].code, self.focus, cancelled)
        if result.index != self.position:
            result = replace(result, index=self.position)   # after a lost step the engine counts one fewer
        if self._refused_as_it_ran(result):
            return self.forward(cancelled)   # the next step that runs, if any
        if self._opened_file() and self.program[self.position].origin == StepOrigin.LESSON:
            assert self.lesson is not None   # a file's own step as running the file shows it; yours keep their echo
            index = sum(1 for s in self.program[:self.position] if s.origin == StepOrigin.LESSON)
            result = as_the_file_runs(result, self.lesson, index)
        result = with_file_lines(result, self.program)   # an opened file's culprit step: by its line too
        self.results.append(result)
        self._trim()
        return result

    def _opened_file(self) -> bool:
        """Whether the program is a learner's opened ``.py`` or notebook (its steps carry their file lines)."""
        return self.lesson is not None and opened_file(self.lesson)

    def _refused_as_it_ran(self, result: StepResult) -> bool:
        """Whether the step at the position is an opened file's that the subset refused as it ran (a module's
        `model = model.to(device)`): then it is a refused step of the lesson, and so is every later step of the
        file that reads what it binds (:func:`refused_at_run_time`), shown greyed with their reasons and never
        run; the engine, which counted the step, is rebuilt at the position before the next step runs."""
        step = self.program[self.position]
        reason = run_time_refusal(result)
        if reason is None or self.lesson is None or step.origin != StepOrigin.LESSON or not self._opened_file():
            return False
        index = sum(1 for s in self.program[:self.position] if s.origin == StepOrigin.LESSON)
        lesson = refused_at_run_time(self.lesson, index, reason, refused_line(result))
        kept = {(s.cell, s.line, s.code) for s in lesson.steps}
        program = [old for number, old in enumerate(self.program)
                   if old.origin != StepOrigin.LESSON or number < self.position
                   or (old.cell, old.line, old.code) in kept]
        self.lesson, self.program = lesson, program
        self._away, self._ahead = True, []   # the engine ran one step more than the program holds now
        return True

    def go_to(self, position: int, cancelled: Callable[[], bool] = NEVER,
              progress: Progress | None = None, past_crashes: bool = False) -> None:
        """Reach ``position``: forward from here, or back by restoring the earlier state.

        ``cancelled`` is polled between steps; on cancel the player stays at the
        position reached so far and :class:`Cancelled` is raised. A step that stops the worker (a crash,
        its time limit, the run's) raises :class:`EngineCrashed` there, unless ``past_crashes`` (slides,
        like ``tensorlab run``): then its result is that error, shown as content over the state before it,
        and the later steps run on the session the engine restarted without it.
        """
        position = max(0, min(position, len(self.program)))
        if position < self.position:
            if all(not r.snapshot.trimmed for r in self.results[max(position - KEEP_LAST, 0):position]):
                # The state there is known and whole: shown at once, the engine left where it stands.
                self._ahead = self.results[position:] + self._ahead
                self.results = self.results[:position]
                self._away = True
                self._trim()
                return
            self._restore(position, cancelled, progress)
            return
        total = position - self.position
        done = 0
        while self.position < position:
            if cancelled():
                raise Cancelled(self.position)
            position = min(position, len(self.program))   # a step refused as it ran leaves the program shorter
            if self.position >= position:
                break
            try:
                self.forward(cancelled)
            except Cancelled as exc:
                self._settle(exc.position)
                raise
            except EngineCrashed as exc:
                if not (past_crashes and self._record_lost(exc)):
                    self._settle(exc.position)
                    raise
            done += 1
            if progress is not None:
                progress(done, total)

    def _record_lost(self, exc: EngineCrashed) -> bool:
        """The step the engine lost, as its result (``go_to(past_crashes=True)``); False when the engine does not
        stand where it stood before the step (its replay ran out of time): then nothing after it can be shown."""
        if exc.position != self._engine_steps(self.position) or self.engine.position != exc.position:
            return False
        # Past the run's deadline the reason is the time limit alone (no session was restarted for it), as in `run`.
        message = exc.why if exc.kind == "TimeLimit" else exc.message
        index = self.position
        before = self.results[-1].snapshot if self.results else EMPTY_SNAPSHOT
        self.results.append(StepResult(index, self.program[index].code,
                                       ErrorInfo(exc.kind, message.render("en"), None, message), (), "", None,
                                       before))
        self._trim()
        return True

    def _engine_steps(self, position: int) -> int:
        """How many of the first ``position`` steps the engine ran (a lost step it never kept)."""
        return sum(1 for result in self.results[:position] if not lost(result))

    def _restore(self, position: int, cancelled: Callable[[], bool], progress: Progress | None) -> None:
        self._in_step()   # restored from a fresh session below, wherever the engine stood
        codes = [step.code for step in self.program[:position]]
        known = self.results[:position]
        # Snapshots the panels will show whose values the history dropped: replay to the first of them,
        # then run the steps from there again, which reads their values (the run is deterministic).
        again = next((i for i in range(max(position - KEEP_LAST, 0), position) if known[i].snapshot.trimmed),
                     position)
        try:
            # A lost step is never run again (it would stop the worker again): the engine replays without it.
            kept = [i for i in range(again) if not lost(known[i])]
            self.engine.restore([codes[i] for i in kept], [known[i] for i in kept], cancelled, progress)
            self.results = known[:again]
            for index in range(again, position):
                if lost(known[index]):
                    self.results.append(replace(known[index], snapshot=self.results[-1].snapshot
                                                if self.results else EMPTY_SNAPSHOT))
                    continue
                # Only the snapshot is read again: the rest of the result (its notes, explanations) is known.
                ran = self.engine.run(codes[index], self.focus, cancelled)
                self.results.append(replace(known[index], snapshot=ran.snapshot))
        except (Cancelled, EngineCrashed) as exc:
            self._settle(exc.position)
            raise
        self._trim()

    def _settle(self, position: int | None) -> None:
        """After a cancel or a crash: keep the results of the steps the engine still stands on.

        ``position`` counts the engine's steps; a lost step before it (``past_crashes``) is kept with them.
        """
        if position is None:
            return
        stands = min(position, self.engine.position)
        keep = 0
        while keep < len(self.results) and (lost(self.results[keep]) or self._engine_steps(keep) < stands):
            keep += 1
        self.results = self.results[:keep]

    def reset(self) -> None:
        """Back to position 0."""
        self.go_to(0)

    def set_device(self, device: str, cancelled: Callable[[], bool] = NEVER,
                   progress: Progress | None = None) -> None:
        """Move to ``device`` and replay to the same position there (results change: they say the device)."""
        position = self.position
        self.engine.set_device(device)
        self._in_step()
        self.results = []
        self.go_to(position, cancelled, progress)

    def graph(self, name: str) -> GraphInfo | None:
        """The autograd graph behind ``name`` at the current position."""
        self.sync()
        return self.engine.graph(name)

    def job(self, name: str, params: dict[str, Any], cancelled: Callable[[], bool] = NEVER,
            progress: Progress | None = None) -> Any:
        """Run the engine's job ``name`` on the live session at the position (brought there first)."""
        self.sync(cancelled)
        return self.engine.job(name, params, cancelled, progress)

    # -- adding ----------------------------------------------------------------
    def check(self, code: str) -> Statement:
        """Parse a user's line against the names bound now; LanguageError if refused."""
        statement = parse_one(code, self.limits)
        state = self.state()
        check_names([statement], state.names, state.kinds)
        return statement

    def insert(self, code: str, cancelled: Callable[[], bool] = NEVER, progress: Progress | None = None) -> StepResult:
        """Insert a user's statement at the current position and run it (``progress``: of rebuilding the live
        state there first, where going back left the engine further on)."""
        statement = self.check(code)
        self.sync(cancelled, progress)   # the live state at the position, before the program changes
        self.program.insert(self.position, ProgramStep(statement.source, statement, origin=StepOrigin.USER))
        try:
            result = self.forward(cancelled)
        except (Cancelled, EngineCrashed) as exc:
            self._settle(exc.position)
            raise
        assert result is not None
        return result

    def remove(self, index: int, cancelled: Callable[[], bool] = NEVER, progress: Progress | None = None) -> None:
        """Remove a step the user added (lesson steps stay); restores the state if it had run."""
        if not 0 <= index < len(self.program) or self.program[index].origin != StepOrigin.USER:
            raise ValueError("only steps you added can be removed")
        position = self.position
        if index >= position:
            self.sync(cancelled, progress)   # the engine may stand past the step removed
        del self.program[index]
        if index < position:
            self._in_step()   # restored below from a fresh session
            # Every later result may differ now: replay from the step removed.
            kept = self.results[:index]
            self.results = kept
            ran = [i for i in range(index) if not lost(kept[i])]   # a lost step is never sent to an engine again
            self.engine.restore([self.program[i].code for i in ran], [kept[i] for i in ran], cancelled, progress)
            self.go_to(position - 1, cancelled, progress)

    def close(self) -> None:
        """Stop the engine."""
        self.engine.close()
