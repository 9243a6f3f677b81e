"""Steps you added (to the scratchpad and to each lesson), kept across restarts.

One TOML file in the user data folder holds every program that has steps of yours::

    format = "tensorlab-user-steps"
    version = 1

    [[program]]
    lesson = "clone-keeps-the-graph@clone-keeps-the-graph.toml"   # "" is the scratchpad
    [[program.step]]
    code = "x = torch.ones(3)"
    origin = "lesson"     # or "user" (:class:`~tensorlab.core.engine.player.StepOrigin`)

It is written atomically (:func:`tensorlab.core.files.atomic_write.write_text_atomic`) and read
back like a lesson file, by the one bounded reader (:func:`tensorlab.core.files.bounded_read.read_toml_file`:
a regular file, never a link, bounded size), with strict keys, every line parsed and checked
against the names bound before it. A file that cannot be used for any reason (including an
exception nobody foresaw) is set aside (renamed, never deleted) with a message, and the app
starts without it. Files written by every earlier release (version 1, these keys and origins)
load as they are; ``tests/data/migration/`` holds one.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tomli_w

from tensorlab.core.engine.player import Player, ProgramStep, StepOrigin, program_from
from tensorlab.core.files.atomic_write import write_text_atomic
from tensorlab.core.files.bounded_read import UnreadableFile, parse_toml, read_regular_file
from tensorlab.core.lang.parse import LanguageError, check_names, parse_one
from tensorlab.core.lessons.lesson import Lesson
from tensorlab.core.messages.catalogue import MessageError
from tensorlab.core.protocol.limits import DEFAULT_LIMITS, Limits
from tensorlab.ui.widgets.i18n import current_language, tr

__all__ = ["UserSteps", "FILE_NAME", "Saved", "StepsFileError"]

FILE_NAME = "user-steps.toml"
FORMAT = "tensorlab-user-steps"
VERSION = 1
_ORIGINS = tuple(origin.value for origin in StepOrigin)  # a tuple: `in` compares, never hashes (a list is no origin)

log = logging.getLogger("tensorlab.ui")

# (code, origin) of each step of one saved program.
Saved = list[tuple[str, StepOrigin]]


class StepsFileError(MessageError, ValueError):
    """The saved steps cannot be used (what is wrong, and where); ``render(language)`` says it in a language.

    The file's own format errors are said in English (they concern a file TensorLab wrote itself).
    """


def _steps_of(raw: Any, where: str, limits: Limits) -> Saved:
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
        steps.append((code, StepOrigin(origin)))
    return steps


def parse_steps_file(data: bytes, limits: Limits = DEFAULT_LIMITS) -> dict[str, Saved]:
    """Programs by lesson key, as (code, origin) pairs; :class:`StepsFileError` says what is wrong."""
    try:
        document = parse_toml(data)
    except UnreadableFile as exc:
        raise StepsFileError(exc.message) from None
    if set(document) - {"format", "version", "program"} or document.get("format") != FORMAT:
        raise StepsFileError(f"this is not a {FORMAT} file")
    if document.get("version") != VERSION:
        raise StepsFileError(f"version {document.get('version')!r} is not one this TensorLab reads")
    programs: dict[str, Saved] = {}
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
        self.saved: dict[str, Saved] = {}
        self.problems: list[str] = []    # messages for the user (a file set aside, a lesson changed)

    def load(self) -> None:
        """Read the file; one that cannot be used is set aside with a message."""
        self.saved = {}
        if not self.path.exists() and not self.path.is_symlink():
            return
        try:
            # Not followed if it is a link: TensorLab writes this file itself, never as one.
            data = read_regular_file(self.path, self.limits.max_lesson_bytes * 4, follow_symlinks=False)
            self.saved = parse_steps_file(data, self.limits)
        except UnreadableFile as exc:
            self.problems.append(self._set_aside(exc.render(current_language())))
        except StepsFileError as exc:
            self.problems.append(self._set_aside(exc.render(current_language())))
        except Exception as exc:  # whatever else goes wrong, the app must start: the file goes aside
            log.exception("the saved steps could not be read")
            self.problems.append(self._set_aside(f"{type(exc).__name__}: {exc}"))

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
        if [code for code, origin in saved if origin == StepOrigin.LESSON] != [s.code for s in lesson_steps]:
            title = lesson.text("title", current_language()) if lesson is not None else tr("Scratchpad")
            self.problems.append(tr("The steps you added to “{title}” were made for another version of the "
                                    "lesson and are not used.").format(title=title))
            del self.saved[key]
            return None
        ours = iter(lesson_steps)
        return [next(ours) if origin == StepOrigin.LESSON
                else ProgramStep(code, parse_one(code, self.limits), origin=StepOrigin.USER)
                for code, origin in saved]

    def update(self, lesson: Lesson | None, program: Sequence[ProgramStep]) -> bool:
        """Remember ``program`` for ``lesson`` (forgotten when no step is yours); True if it changed."""
        key = Player.key(lesson)
        steps = [(s.code, StepOrigin(s.origin)) for s in program]
        if not any(origin == StepOrigin.USER for _, origin in steps):
            return self.saved.pop(key, None) is not None
        if self.saved.get(key) == steps:
            return False
        self.saved[key] = steps
        return True

    def saved_programs(self) -> dict[str, Saved]:
        """A copy of every remembered program, to save while this store goes on changing."""
        return {key: list(steps) for key, steps in self.saved.items()}

    def save(self, saved: dict[str, Saved] | None = None) -> None:
        """Write every program (or ``saved``, from :meth:`saved_programs`) atomically (OSError if it cannot be)."""
        saved = self.saved if saved is None else saved
        # The origins are written as their text (``str(StepOrigin.USER)`` is "user"), as every release reads.
        document = {"format": FORMAT, "version": VERSION,
                    "program": [{"lesson": key, "step": [{"code": c, "origin": str(o)} for c, o in steps]}
                                for key, steps in saved.items()]}
        self.folder.mkdir(parents=True, exist_ok=True)
        write_text_atomic(self.path, tomli_w.dumps(document))
