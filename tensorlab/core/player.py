"""Play a program of steps forward and back: a lesson plus the steps a user adds.

The player owns a :class:`~tensorlab.core.session.Session`. Position k means the
first k steps have run; stepping back replays the first k steps from a fresh,
seeded session, so the state after k steps is always the same. A step the user
builds is inserted at the current position and run, so nothing of the lesson
(nor anything the user made) is lost.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tensorlab.core.inspect import Snapshot
from tensorlab.core.language import Statement, check_names, parse_one
from tensorlab.core.lessons import Lesson, LessonStep
from tensorlab.core.limits import DEFAULT_LIMITS, Limits
from tensorlab.core.session import Session, StepResult

__all__ = ["ProgramStep", "PlayerState", "Player", "Cancelled"]

EMPTY_SNAPSHOT = Snapshot()


class Cancelled(Exception):
    """A long replay was cancelled; the player stopped at a consistent position."""


@dataclass(frozen=True)
class ProgramStep(LessonStep):
    """One step of the program: a lesson step, or a step the user added (``origin="user"``)."""

    origin: str = "lesson"  # "lesson" or "user"


@dataclass(frozen=True)
class PlayerState:
    """Everything the panels show, as immutable data."""

    lesson: Lesson | None
    program: tuple[ProgramStep, ...]
    position: int
    results: tuple[StepResult, ...]   # results of program[:position]
    device: str

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
        snap = self.snapshot
        return tuple(t.name for t in snap.tensors) + tuple(o.name for o in snap.others)

    def at(self, position: int) -> PlayerState:
        """This state as it was at an earlier ``position`` (known without running anything)."""
        position = max(0, min(position, self.position))
        return PlayerState(self.lesson, self.program, position, self.results[:position], self.device)


Progress = Callable[[int, int], None]


class Player:
    """Runs a program step by step on one session. Use from one thread at a time."""

    def __init__(self, device: str = "cpu", limits: Limits = DEFAULT_LIMITS) -> None:
        self.limits = limits
        self.session = Session(device=device, limits=limits)
        self.lesson: Lesson | None = None
        self.program: list[ProgramStep] = []
        self.results: list[StepResult] = []
        self._kept: dict[str, list[ProgramStep]] = {}

    # -- state -----------------------------------------------------------------
    @property
    def position(self) -> int:
        """How many steps of the program have run."""
        return len(self.results)

    def state(self) -> PlayerState:
        """An immutable picture of the player now."""
        return PlayerState(self.lesson, tuple(self.program), self.position, tuple(self.results),
                           self.session.device)

    # -- loading ---------------------------------------------------------------
    def load(self, lesson: Lesson | None) -> None:
        """Start ``lesson`` (or an empty program) at position 0.

        Steps the user added to the program being left are kept and come back
        when that lesson is opened again.
        """
        if any(step.origin == "user" for step in self.program):
            self._kept[self._key(self.lesson)] = list(self.program)
        self.lesson = lesson
        kept = self._kept.pop(self._key(lesson), None)
        if kept is not None:
            self.program = kept
        else:
            self.program = [] if lesson is None else [
                ProgramStep(s.code, s.statement, s.note, s.ask, s.translations) for s in lesson.steps
            ]
        self.session.reset()
        self.results = []

    @staticmethod
    def _key(lesson: Lesson | None) -> str:
        return "" if lesson is None else f"{lesson.id}@{lesson.source}"

    # -- moving ----------------------------------------------------------------
    def forward(self) -> StepResult | None:
        """Run the next step; None at the end of the program."""
        if self.position >= len(self.program):
            return None
        result = self.session.execute(self.program[self.position].statement)
        self.results.append(result)
        return result

    def go_to(self, position: int, cancelled: Callable[[], bool] = lambda: False,
              progress: Progress | None = None) -> None:
        """Reach ``position``: forward from here, or a replay from the start to go back.

        ``cancelled`` is polled between steps; on cancel the player stays at the
        position reached so far and :class:`Cancelled` is raised.
        """
        position = max(0, min(position, len(self.program)))
        if position < self.position:
            self.session.reset()
            self.results = []
        total = position - self.position
        done = 0
        while self.position < position:
            if cancelled():
                raise Cancelled()
            self.forward()
            done += 1
            if progress is not None:
                progress(done, total)

    def reset(self) -> None:
        """Back to position 0."""
        self.go_to(0)

    def set_device(self, device: str, cancelled: Callable[[], bool] = lambda: False,
                   progress: Progress | None = None) -> None:
        """Move to ``device`` and replay to the same position there."""
        position = self.position
        self.session = Session(device=device, limits=self.limits)
        self.results = []
        self.go_to(position, cancelled, progress)

    # -- adding ----------------------------------------------------------------
    def check(self, code: str) -> Statement:
        """Parse a user's line against the names bound now; LanguageError if refused."""
        statement = parse_one(code, self.limits)
        check_names([statement], self.session.names)
        return statement

    def insert(self, code: str) -> StepResult:
        """Insert a user's statement at the current position and run it."""
        statement = self.check(code)
        self.program.insert(self.position, ProgramStep(statement.source, statement, origin="user"))
        result = self.forward()
        assert result is not None
        return result

    def remove(self, index: int) -> None:
        """Remove a step the user added (lesson steps stay); replays if it had run."""
        if not 0 <= index < len(self.program) or self.program[index].origin != "user":
            raise ValueError("only steps you added can be removed")
        position = self.position
        del self.program[index]
        if index < position:
            self.session.reset()
            self.results = []
            self.go_to(position - 1)
