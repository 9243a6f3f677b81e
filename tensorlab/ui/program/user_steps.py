"""Steps you added (to the scratchpad and to each lesson), kept across restarts.

One TOML file in the user data folder holds every program that has steps of yours::

    format = "tensorlab-user-steps"
    version = 1

    [[program]]
    lesson = "clone-keeps-the-graph@clone-keeps-the-graph.toml"   # "" is the scratchpad
    [[program.step]]
    code = "x = torch.ones(3)"
    origin = "lesson"     # or "user"

It is written atomically (:func:`tensorlab.core.files.atomic_write.write_text_atomic`) and read
back like a lesson file: bounded size, strict keys, every line parsed and checked
against the names bound before it. A file that no longer parses is set aside (renamed,
never deleted) with a message, and the app starts without it.
"""

from __future__ import annotations

import os
import stat
import time
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tomli_w

from tensorlab.core.engine.player import Player, ProgramStep, program_from
from tensorlab.core.files.atomic_write import write_text_atomic
from tensorlab.core.lang.parse import LanguageError, check_names, parse_one
from tensorlab.core.lessons.lesson import Lesson
from tensorlab.core.protocol.limits import DEFAULT_LIMITS, Limits
from tensorlab.ui.widgets.i18n import current_language, tr

__all__ = ["UserSteps", "FILE_NAME", "StepsFileError"]

FILE_NAME = "user-steps.toml"
FORMAT = "tensorlab-user-steps"
_ORIGINS = ("lesson", "user")


class StepsFileError(ValueError):
    """The saved steps cannot be used (what is wrong, and where)."""


def _read_bounded(path: Path, limit: int) -> bytes:
    """The bytes of a regular file, at most ``limit`` (a FIFO or a device is refused, never read)."""
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise StepsFileError(f"{path.name} is not a regular file")
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(descriptor, min(65536, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(descriptor)
    if size > limit:
        raise StepsFileError(f"{path.name} is larger than {limit:,} bytes")
    return b"".join(chunks)


def _steps_of(raw: Any, where: str, limits: Limits) -> list[tuple[str, str]]:
    if not isinstance(raw, list) or len(raw) > limits.max_lesson_steps:
        raise StepsFileError(f"{where}: `step` must be a list of at most {limits.max_lesson_steps} steps")
    steps = []
    defined: set[str] = set()
    for number, item in enumerate(raw, start=1):
        if not isinstance(item, dict) or set(item) - {"code", "origin"}:
            raise StepsFileError(f"{where}, step {number}: only `code` and `origin` are allowed")
        code, origin = item.get("code"), item.get("origin")
        if not isinstance(code, str) or origin not in _ORIGINS:
            raise StepsFileError(f"{where}, step {number}: `code` must be text and `origin` lesson or user")
        try:
            statement = parse_one(code, limits)
            check_names([statement], defined)
        except LanguageError as exc:
            raise StepsFileError(f"{where}, step {number}: {exc}") from None
        defined.update(statement.defines)
        steps.append((code, origin))
    return steps


def parse_steps_file(data: bytes, limits: Limits = DEFAULT_LIMITS) -> dict[str, list[tuple[str, str]]]:
    """Programs by lesson key, as (code, origin) pairs; :class:`StepsFileError` says what is wrong."""
    try:
        document = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError) as exc:
        raise StepsFileError(f"this is not valid TOML: {exc}") from None
    if set(document) - {"format", "version", "program"} or document.get("format") != FORMAT:
        raise StepsFileError(f"this is not a {FORMAT} file")
    if document.get("version") != 1:
        raise StepsFileError(f"version {document.get('version')!r} is not one this TensorLab reads")
    programs: dict[str, list[tuple[str, str]]] = {}
    raw_programs = document.get("program", [])
    if not isinstance(raw_programs, list):
        raise StepsFileError("`program` must be an array of tables ([[program]])")
    for number, raw in enumerate(raw_programs, start=1):
        if not isinstance(raw, dict) or set(raw) - {"lesson", "step"} or not isinstance(raw.get("lesson"), str):
            raise StepsFileError(f"program {number}: only `lesson` (text) and `step` are allowed")
        programs[raw["lesson"]] = _steps_of(raw.get("step", []), f"program {number}", limits)
    return programs


class UserSteps:
    """The programs with steps of yours, by lesson key; loaded at start, saved when they change."""

    def __init__(self, folder: str | os.PathLike[str], limits: Limits = DEFAULT_LIMITS) -> None:
        self.folder = Path(folder)
        self.path = self.folder / FILE_NAME
        self.limits = limits
        self.saved: dict[str, list[tuple[str, str]]] = {}
        self.problems: list[str] = []    # messages for the user (a file set aside, a lesson changed)

    def load(self) -> None:
        """Read the file; one that cannot be used is set aside with a message."""
        self.saved = {}
        if not self.path.exists() and not self.path.is_symlink():
            return
        try:
            data = _read_bounded(self.path, self.limits.max_lesson_bytes * 4)
            self.saved = parse_steps_file(data, self.limits)
        except (OSError, StepsFileError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            self.problems.append(self._set_aside(reason))

    def _set_aside(self, reason: str) -> str:
        aside = self.path.with_name(f"{FILE_NAME}.set-aside-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            os.replace(self.path, aside)
            where = str(aside)
        except OSError:
            where = str(self.path)
        return tr("The steps you added earlier could not be read ({reason}); the file was set aside as {path}.")\
            .format(reason=reason, path=where)

    def program(self, lesson: Lesson | None) -> list[ProgramStep] | None:
        """The saved program of ``lesson`` (None: nothing saved, or it no longer fits the lesson)."""
        key = Player.key(lesson)
        saved = self.saved.get(key)
        if saved is None:
            return None
        lesson_steps = program_from(lesson)
        if [code for code, origin in saved if origin == "lesson"] != [s.code for s in lesson_steps]:
            title = lesson.text("title", current_language()) if lesson is not None else tr("Scratchpad")
            self.problems.append(tr("The steps you added to “{title}” were made for another version of the "
                                    "lesson and are not used.").format(title=title))
            del self.saved[key]
            return None
        ours = iter(lesson_steps)
        return [next(ours) if origin == "lesson" else ProgramStep(code, parse_one(code, self.limits), origin="user")
                for code, origin in saved]

    def update(self, lesson: Lesson | None, program: Sequence[ProgramStep]) -> bool:
        """Remember ``program`` for ``lesson`` (forgotten when no step is yours); True if it changed."""
        key = Player.key(lesson)
        steps = [(s.code, s.origin) for s in program]
        if not any(origin == "user" for _, origin in steps):
            return self.saved.pop(key, None) is not None
        if self.saved.get(key) == steps:
            return False
        self.saved[key] = steps
        return True

    def saved_programs(self) -> dict[str, list[tuple[str, str]]]:
        """A copy of every remembered program, to save while this store goes on changing."""
        return {key: list(steps) for key, steps in self.saved.items()}

    def save(self, saved: dict[str, list[tuple[str, str]]] | None = None) -> None:
        """Write every program (or ``saved``, a :meth:`snapshot`) atomically (OSError if it cannot be written)."""
        saved = self.saved if saved is None else saved
        document = {"format": FORMAT, "version": 1,
                    "program": [{"lesson": key, "step": [{"code": c, "origin": o} for c, o in steps]}
                                for key, steps in saved.items()]}
        self.folder.mkdir(parents=True, exist_ok=True)
        write_text_atomic(self.path, tomli_w.dumps(document))
