"""Steps you added (to the scratchpad and to each lesson), kept across restarts and across windows.

One TOML file in the user data folder holds every program that has steps of yours. It stores
only *your* steps, each anchored to the lesson step it follows, and files each program by where
its lesson came from::

    format = "tensorlab-user-steps"
    version = 2

    [[program]]
    source = "builtin"                 # a built-in lesson, by id
    lesson = "inplace-on-a-leaf"
    step = [
        { code = "k = torch.zeros(2)", after = "x[0] = 2" },          # after that lesson step
        { code = "m = k + 1", after = "x[0] = 2" },
        { code = "q = x * 2", after = "y[0] = 5", occurrence = 2 },    # after its second occurrence
    ]

    [[program]]
    source = "file"                    # a lesson file, by its path
    lesson = "my-lesson"
    file = "/home/me/lessons/my-lesson.toml"
    step = [{ code = "z = torch.ones(2)" }]     # no `after`: before the lesson's first step
    lesson_steps = ["a = torch.zeros(3)", "b = a + 1"]   # the lesson's steps when it was saved

    [[program]]
    source = "scratchpad"
    step = [{ code = "s = torch.arange(4.0)" }]

    [[program]]
    source = "diagnosis"               # a reproduction the Diagnose panel opened, by its id
    lesson = "diagnosis-0123456789ab"
    title = { en = "Diagnosis: ...", ko = "진단: ..." }
    summary = { en = "...", ko = "..." }   # what the error means: the narration before the first step
    lesson_steps = ["x = torch.randn(27, 32, requires_grad=True)", "y = torch.relu(x)", "y.add_(1)"]
    step = []                          # kept with no step of yours: the program itself is the diagnosis

* **Where a lesson came from**: a built-in lesson (the very object :func:`builtin_lessons`
  made) is filed by its id, a lesson file by its absolute path, so a lesson file whose id and
  file name equal a built-in lesson's never touches the built-in lesson's steps.
* **Rebased when the lesson changes**: a program is rebuilt from the lesson as it is now, your
  steps put back after the lesson steps they followed. A program records its lesson's steps
  (``lesson_steps``) when it is saved, and that sequence is aligned with the lesson's steps now
  (:func:`placements`, longest unchanged runs first), so steps inserted, removed or rewritten
  elsewhere in the lesson do not matter, and an anchor whose code appears twice can never
  slide to the other occurrence when the first is rewritten. Only an anchor in a run of
  unchanged steps is kept: one on a step rewritten, split or removed is gone. A program whose
  anchor is gone, or that no longer checks against the lesson (a name it reads is not bound),
  is set aside on its own with a message: the other programs stay. A program saved before
  programs recorded ``lesson_steps`` is aligned the same way, from the built-in lesson's steps
  as they were released then (``resources/lesson-steps-v2.json``); a lesson file's program of
  that age is matched by code and occurrence alone (nothing more was recorded).
* **Two windows on one folder**: a save takes the folder's lock (:class:`QLockFile`, a stale
  lock of a killed process is taken over), re-reads the file, merges in only the programs this
  window changed, writes atomically and unlocks. A program both windows changed is merged step
  by step (:func:`merge_program`): each window knows the version of each program it last read
  or wrote (its *base*), and a save keeps both windows' changes since then; where both changed
  the steps after the same lesson step differently, both are kept, in order, and a message says
  so. A lock that cannot be taken in time is said, and the changes stay in memory for the next
  save (at close, they go to a file of their own that the next start merges in), so no step is
  ever lost.
* **Never refused on the next start**: a program is validated before it is saved (at most
  ``max_lesson_steps`` steps, every name bound before it is read), and the loader sets aside
  only the program that fails; a file that cannot be read at all (for any reason, an exception
  nobody foresaw included) is set aside whole (renamed, never deleted) and the app starts.
* **A diagnosis is a program of its own**: the reproduction the Diagnose panel opened is kept whole
  (``lesson_steps``, its ``title`` and ``summary`` in each language) under ``diagnosis:<id>``, even with
  no step of yours, so it comes back after a restart (:meth:`UserSteps.diagnoses`) and never touches the
  scratchpad's or a lesson's steps; its id is made from its statements (:func:`diagnosis_id`), so opening
  the same reproduction again opens the same program, with your steps.
* Files of version 1 (the release before issue 15: whole programs with origins, filed by
  ``id@file name``) are migrated once: the original is kept beside it as ``user-steps.toml.version-1``.
* Temporaries left by a save killed midway (``kill -9``) are removed at the next start, under
  the lock (:func:`~tensorlab.core.files.atomic_write.remove_stray_temporaries`).

Every text is from the catalogue (``steps.*``, English and Korean).
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import os
import re
import threading
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any

import tomli_w
from PySide6.QtCore import QLockFile

from tensorlab.core.engine.player import ProgramStep, StepOrigin, program_from
from tensorlab.core.files.atomic_write import remove_stray_temporaries, write_text_atomic
from tensorlab.core.files.bounded_read import UnreadableFile, parse_toml, read_regular_file
from tensorlab.core.files.package_data import resources_dir
from tensorlab.core.lang.parse import LanguageError, NameCheck, parse_one
from tensorlab.core.lessons.lesson import Lesson, builtin_lessons
from tensorlab.core.messages.catalogue import LANGUAGES, Message, MessageError, msg, verbatim
from tensorlab.core.protocol.limits import DEFAULT_LIMITS, Limits
from tensorlab.ui.widgets.i18n import current_language, tr

__all__ = ["UserSteps", "FILE_NAME", "LOCK_NAME", "SavedProgram", "SavedStep", "Anchor", "StepsFileError",
           "LockBusy", "Document", "program_key", "parse_steps_file", "anchored", "lesson_codes",
           "placements", "rebase", "validate", "merge_program", "DIAGNOSIS", "diagnosis_id", "diagnosis_lesson",
           "is_diagnosis"]

FILE_NAME = "user-steps.toml"
LOCK_NAME = FILE_NAME + ".lock"
FORMAT = "tensorlab-user-steps"
VERSION = 2
RELEASED_STEPS = "lesson-steps-v2.json"   # in resources/: the lessons' steps old saved programs followed
SCRATCHPAD = "scratchpad"
DIAGNOSIS = "diagnosis"                # a reproduction opened from the Diagnose panel (its own program)
_DIAGNOSIS_SOURCE = "<diagnosis>"      # the Lesson.source of such a program (no file is called that)
_DIAGNOSIS_ID = re.compile(r"^diagnosis-[0-9a-f]{12}$")
MAX_TITLE = 200                        # characters of a diagnosis program's title (a title, not a document)
MAX_SUMMARY = 4_000                    # ... and of its summary (the explanation, a paragraph or two)
_SOURCES = (SCRATCHPAD, "builtin", "file", DIAGNOSIS)
_ORIGINS = tuple(origin.value for origin in StepOrigin)  # a tuple: `in` compares, never hashes (a list is no origin)
_UNSAVED = FILE_NAME + ".unsaved-"     # changes a closing window could not merge (merged at the next start)
STALE_LOCK_MS = 30_000                 # a lock older than this is taken over even if its process seems alive
LOCK_TIMEOUT_MS = 5_000                # how long a save waits for another window's save

log = logging.getLogger("tensorlab.ui")


class StepsFileError(MessageError, ValueError):
    """The saved steps cannot be used (what is wrong, and where); ``render(language)`` says it in a language."""


class LockBusy(MessageError):
    """Another window held the steps file's lock for longer than a save waits."""


@dataclass(frozen=True)
class Anchor:
    """The lesson step a step of yours follows: its code, and which of the lesson's steps with that code."""

    code: str
    occurrence: int = 1


@dataclass(frozen=True)
class SavedStep:
    """One step of yours: its code and the lesson step it follows (None: before the lesson's first step)."""

    code: str
    after: Anchor | None = None


@dataclass(frozen=True)
class SavedProgram:
    """Your steps for one lesson, and where that lesson came from."""

    source: str                  # "scratchpad", "builtin" or "file"
    lesson: str = ""             # the lesson's id ("" for the scratchpad)
    file: str = ""               # a lesson file's absolute path (a bare name: migrated from version 1)
    steps: tuple[SavedStep, ...] = ()
    lesson_steps: tuple[str, ...] | None = None   # the lesson's step codes when saved (None: not recorded)
    titles: tuple[tuple[str, str], ...] = ()      # a diagnosis: its title in each language, (language, title)
    summaries: tuple[tuple[str, str], ...] = ()   # ... and its summary (what the error means)

    @property
    def key(self) -> str:
        """How this program is filed (:func:`program_key` gives the same for its lesson)."""
        if self.source == "builtin":
            return f"builtin:{self.lesson}"
        if self.source == "file":
            return f"file:{self.file}" if os.path.isabs(self.file) else f"file-name:{self.lesson}@{self.file}"
        if self.source == DIAGNOSIS:
            return f"{DIAGNOSIS}:{self.lesson}"
        return SCRATCHPAD

    def table(self) -> dict[str, Any]:
        """This program as the TOML table the file holds."""
        table: dict[str, Any] = {"source": self.source}
        if self.source != SCRATCHPAD:
            table["lesson"] = self.lesson
        if self.source == "file":
            table["file"] = self.file
        if self.titles:
            table["title"] = dict(self.titles)
        if self.summaries:
            table["summary"] = dict(self.summaries)
        steps = []
        for step in self.steps:
            item: dict[str, Any] = {"code": step.code}
            if step.after is not None:
                item["after"] = step.after.code
                if step.after.occurrence != 1:
                    item["occurrence"] = step.after.occurrence
            steps.append(item)
        table["step"] = steps
        if self.lesson_steps is not None and self.source != SCRATCHPAD:
            table["lesson_steps"] = list(self.lesson_steps)
        return table


def is_builtin(lesson: Lesson) -> bool:
    """True for a lesson TensorLab ships (the object it loaded), False for any lesson file."""
    return any(shipped is lesson for shipped in builtin_lessons())


def is_diagnosis(lesson: Lesson | None) -> bool:
    """True for the program of a diagnosis (:func:`diagnosis_lesson` made it), False for any lesson."""
    return lesson is not None and lesson.source == _DIAGNOSIS_SOURCE and bool(_DIAGNOSIS_ID.match(lesson.id))


def diagnosis_id(codes: Sequence[str]) -> str:
    """The id of the diagnosis program whose steps are ``codes``: the same statements, the same program."""
    digest = hashlib.sha256("\n".join(codes).encode("utf-8")).hexdigest()
    return f"{DIAGNOSIS}-{digest[:12]}"


def diagnosis_lesson(codes: Sequence[str], titles: dict[str, str], limits: Limits = DEFAULT_LIMITS,
                     summaries: dict[str, str] | None = None) -> Lesson:
    """The reproduction ``codes`` as a lesson to step through (titled ``titles["en"]``, translated by the rest;
    ``summaries``: what the narration says before the first step, by language).

    :class:`StepsFileError` when a statement is not of the code subset, reads a name not bound before it,
    or there are none or too many.
    """
    from tensorlab.core.lessons.lesson import LessonStep

    if not codes or len(codes) > limits.max_lesson_steps:
        raise StepsFileError(msg("steps.too_many", limit=limits.max_lesson_steps))
    steps = []
    names = NameCheck()
    for number, code in enumerate(codes, start=1):
        try:
            statement = parse_one(code, limits)
            names.add(statement)
        except LanguageError as exc:
            raise StepsFileError(msg("steps.in_step", step=number, reason=exc.message)) from None
        steps.append(LessonStep(code, statement))
    title = titles.get("en") or next(iter(titles.values()), DIAGNOSIS)
    translations = {f"title_{k}": v for k, v in titles.items() if k != "en"}
    summaries = summaries or {}
    translations.update({f"summary_{k}": v for k, v in summaries.items() if k != "en"})
    chapter = msg("steps.diagnosis_chapter")   # the lesson picker's heading over the diagnoses
    translations.update({f"chapter_{language}": chapter.render(language) for language in LANGUAGES if language != "en"})
    return Lesson(diagnosis_id(codes), title, tuple(steps), summary=summaries.get("en", ""),
                  translations=translations, source=_DIAGNOSIS_SOURCE, chapter=chapter.render("en"))


def program_key(lesson: Lesson | None, path: str | os.PathLike[str] | None = None) -> str:
    """How the steps of ``lesson`` are filed: the scratchpad, a built-in lesson's id, a lesson file's path,
    a diagnosis's id.

    ``path``: the file the lesson was opened from. A lesson that is not built in and whose path
    nobody gave is filed by its id and file name (as version 1 filed every lesson).
    """
    if lesson is None:
        return SCRATCHPAD
    if is_diagnosis(lesson):
        return f"{DIAGNOSIS}:{lesson.id}"
    if path is not None:
        return f"file:{os.path.abspath(path)}"
    if is_builtin(lesson):
        return f"builtin:{lesson.id}"
    return f"file-name:{lesson.id}@{lesson.source}"


def describe(lesson: Lesson | None) -> Message:
    """The lesson as messages name it: its title in quotes, or the scratchpad."""
    if lesson is None:
        return msg("steps.scratchpad")
    return msg("steps.lesson_named", title=lesson.text("title", current_language()))


def anchored(program: Sequence[ProgramStep]) -> tuple[SavedStep, ...]:
    """Your steps of ``program``, each anchored to the lesson step before it."""
    seen: Counter[str] = Counter()
    anchor: Anchor | None = None
    steps = []
    for step in program:
        if step.origin == StepOrigin.LESSON:
            seen[step.code] += 1
            anchor = Anchor(step.code, seen[step.code])
        else:
            steps.append(SavedStep(step.code, anchor))
    return tuple(steps)


def lesson_codes(program: Sequence[ProgramStep]) -> tuple[str, ...]:
    """The codes of the lesson's steps in ``program``: what :func:`anchored` counts occurrences in."""
    return tuple(step.code for step in program if step.origin == StepOrigin.LESSON)


def _occurrences(codes: Sequence[str]) -> list[tuple[str, int]]:
    """Each code with its occurrence number (the second ``b = a + 1`` is ``("b = a + 1", 2)``)."""
    seen: Counter[str] = Counter()
    keys = []
    for code in codes:
        seen[code] += 1
        keys.append((code, seen[code]))
    return keys


def placements(before: Sequence[str], now: Sequence[str]) -> dict[tuple[str, int], int]:
    """Where each step of the lesson as it was (by code and occurrence) is among the steps ``now``.

    The two sequences are aligned (the longest runs of unchanged steps first, no heuristic
    that skips common lines), and only a step inside such a run has a place: a step that was
    rewritten, split or removed has none, so an anchor on it is gone rather than moved to
    another step with the same code.
    """
    keys = _occurrences(before)
    matcher = SequenceMatcher(None, list(before), list(now), autojunk=False)
    where: dict[tuple[str, int], int] = {}
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            where[keys[block.a + k]] = block.b + k
    return where


@functools.lru_cache(maxsize=1)
def _released_steps() -> dict[str, tuple[str, ...]]:
    """The built-in lessons' step codes as released before programs recorded ``lesson_steps``."""
    try:
        data = json.loads((resources_dir() / RELEASED_STEPS).read_text(encoding="utf-8"))
        return {str(k): tuple(str(c) for c in v) for k, v in data["lessons"].items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):   # a damaged install: match by code alone
        log.warning("%s unreadable: old saved programs are matched by code and occurrence", RELEASED_STEPS)
        return {}


def _saved_against(saved: SavedProgram) -> tuple[str, ...] | None:
    """The lesson steps ``saved`` was anchored to (recorded, or the released ones), None if unknown."""
    if saved.lesson_steps is not None:
        return saved.lesson_steps
    if saved.source == "builtin":
        return _released_steps().get(saved.lesson)
    return None


def validate(program: Sequence[ProgramStep], limits: Limits = DEFAULT_LIMITS) -> Message | None:
    """Why the loader would refuse ``program`` (too many steps, a name read before it is bound), or None."""
    if len(program) > limits.max_lesson_steps:
        return msg("steps.too_long", count=len(program), limit=limits.max_lesson_steps)
    names = NameCheck()
    for number, step in enumerate(program, start=1):
        try:
            names.add(step.statement)
        except LanguageError as exc:
            return msg("steps.in_step", step=number, reason=exc.message)
    return None


def rebase(lesson: Lesson | None, saved: SavedProgram, limits: Limits = DEFAULT_LIMITS) -> list[ProgramStep]:
    """The program of ``lesson`` as it is now, your steps put back after their anchors.

    :class:`StepsFileError` if they no longer fit (an anchor gone, a name no longer bound).
    """
    lesson_steps = program_from(lesson)
    now = [step.code for step in lesson_steps]
    before = _saved_against(saved)
    if before is None:   # nothing recorded: by code and occurrence (what such a file meant)
        where = {key: index for index, key in enumerate(_occurrences(now))}
    else:
        where = placements(before, now)
    after: dict[int, list[ProgramStep]] = {}
    for mine in saved.steps:
        index = -1
        if mine.after is not None:
            found = where.get((mine.after.code, mine.after.occurrence))
            if found is None:
                raise StepsFileError(msg("steps.anchor_gone", code=mine.after.code))
            index = found
        try:
            statement = parse_one(mine.code, limits)
        except LanguageError as exc:
            raise StepsFileError(exc.message) from None
        after.setdefault(index, []).append(ProgramStep(mine.code, statement, origin=StepOrigin.USER))
    program = list(after.get(-1, []))
    for index, step in enumerate(lesson_steps):
        program.append(step)
        program.extend(after.get(index, []))
    problem = validate(program, limits)
    if problem is not None:
        raise StepsFileError(problem)
    return program


# -- two windows' changes of one program -------------------------------------------------------------------------
def _merge_lists(base: list[str], mine: list[str], theirs: list[str]) -> tuple[list[str], bool]:
    """A three-way merge of the codes after one anchor; True when both sides changed the same place differently.

    Each side's changes since ``base`` are found by :class:`difflib.SequenceMatcher`: a base step either side
    removed (or replaced) goes, the steps either side inserted at a place come in there; when both inserted
    different steps at one place, this window's come first, then the other's.
    """
    if mine == theirs or theirs == base:
        return list(mine), False
    if mine == base:
        return list(theirs), False
    from difflib import SequenceMatcher

    def changes(side: list[str]) -> tuple[list[bool], list[list[str]]]:
        kept = [False] * len(base)
        inserted: list[list[str]] = [[] for _ in range(len(base) + 1)]
        for tag, i1, i2, j1, j2 in SequenceMatcher(None, base, side, autojunk=False).get_opcodes():
            if tag == "equal":
                kept[i1:i2] = [True] * (i2 - i1)
            elif tag in ("insert", "replace"):
                inserted[i1] += side[j1:j2]
        return kept, inserted

    kept_mine, in_mine = changes(mine)
    kept_theirs, in_theirs = changes(theirs)
    merged: list[str] = []
    conflict = False
    for place in range(len(base) + 1):
        a, b = in_mine[place], in_theirs[place]
        if a and b and a != b:
            conflict = True
            merged += a + b
        else:
            merged += a or b
        if place < len(base) and kept_mine[place] and kept_theirs[place]:
            merged.append(base[place])
    return merged, conflict


def _by_anchor(program: SavedProgram | None) -> dict[Anchor | None, list[str]]:
    groups: dict[Anchor | None, list[str]] = {}
    for step in program.steps if program is not None else ():
        groups.setdefault(step.after, []).append(step.code)
    return groups


def merge_program(base: SavedProgram | None, mine: SavedProgram | None,
                  theirs: SavedProgram | None) -> tuple[SavedProgram | None, bool]:
    """This window's program (``mine``) and the file's (``theirs``), both changed since ``base``, merged step by step.

    Steps are grouped by the lesson step they follow (their anchor); each group is merged three ways
    (:func:`_merge_lists`), so both windows' additions stay and a step either removed goes. Returns the
    merged program (None: no steps left) and whether both changed the same place differently.
    """
    groups = [_by_anchor(p) for p in (base, mine, theirs)]
    anchors = list(dict.fromkeys([*groups[1], *groups[2], *groups[0]]))
    steps: list[SavedStep] = []
    conflict = False
    for anchor in anchors:
        codes, clash = _merge_lists(*(g.get(anchor, []) for g in groups))
        conflict |= clash
        steps += [SavedStep(code, anchor) for code in codes]
    model = mine or theirs or base
    if model is None or (not steps and model.source != DIAGNOSIS):   # a diagnosis is kept without steps
        return None, conflict
    return replace(model, steps=tuple(steps)), conflict


def _program_named(program: SavedProgram) -> Message:
    if program.source == DIAGNOSIS and program.titles:
        return msg("steps.lesson_named", title=dict(program.titles).get(current_language(), program.titles[0][1]))
    return msg("steps.scratchpad") if program.source == SCRATCHPAD else msg("steps.lesson_id", lesson=program.lesson)


# -- the file --------------------------------------------------------------------------------------------------
@dataclass
class Failure:
    """A program of the file that cannot be used: its table as read, and why."""

    table: Any
    reason: Message
    lesson: Message


@dataclass
class Document:
    """What a steps file holds: its usable programs by key (in file order), those that failed, its version."""

    programs: dict[str, SavedProgram]
    failed: list[Failure]
    version: int = VERSION


def _where(raw: Any, number: int) -> Message:
    """A program of the file as messages name it (its lesson's id, the scratchpad, or its number)."""
    if isinstance(raw, dict):
        lesson = raw.get("lesson")
        if isinstance(lesson, str) and lesson:
            return msg("steps.lesson_id", lesson=lesson.partition("@")[0])   # version 1 wrote id@file name
        if raw.get("source") == SCRATCHPAD or lesson == "":
            return msg("steps.scratchpad")
    return msg("steps.program_number", number=number)


def _step_v2(item: Any, limits: Limits) -> SavedStep:
    if not isinstance(item, dict) or set(item) - {"code", "after", "occurrence"}:
        raise StepsFileError(msg("steps.step_keys"))
    code, after, occurrence = item.get("code"), item.get("after"), item.get("occurrence", 1)
    if not isinstance(code, str) or not (after is None or isinstance(after, str)) \
            or type(occurrence) is not int or not 1 <= occurrence <= limits.max_lesson_steps \
            or (after is None and "occurrence" in item):
        raise StepsFileError(msg("steps.step_values", limit=limits.max_lesson_steps))
    try:
        parse_one(code, limits)
    except LanguageError as exc:
        raise StepsFileError(exc.message) from None
    return SavedStep(code, None if after is None else Anchor(after, occurrence))


def _program_v2(raw: Any, limits: Limits) -> SavedProgram:
    if not isinstance(raw, dict):
        raise StepsFileError(msg("steps.program_not_table"))
    if set(raw) - {"source", "lesson", "file", "step", "lesson_steps", "title", "summary"}:
        raise StepsFileError(msg("steps.program_keys"))
    source, lesson, file = raw.get("source"), raw.get("lesson", ""), raw.get("file", "")
    if source not in _SOURCES:
        raise StepsFileError(msg("steps.source"))
    if not isinstance(lesson, str) or (source == SCRATCHPAD) != (lesson == ""):
        raise StepsFileError(msg("steps.lesson"))
    if not isinstance(file, str) or (source == "file") != (file != ""):
        raise StepsFileError(msg("steps.file"))
    raw_steps = raw.get("step", [])
    if not isinstance(raw_steps, list) or len(raw_steps) > limits.max_lesson_steps:
        raise StepsFileError(msg("steps.too_many", limit=limits.max_lesson_steps))
    steps = []
    for number, item in enumerate(raw_steps, start=1):
        try:
            steps.append(_step_v2(item, limits))
        except StepsFileError as exc:
            raise StepsFileError(msg("steps.in_step", step=number, reason=exc.message)) from None
    lesson_steps = raw.get("lesson_steps")
    if lesson_steps is not None and (source == SCRATCHPAD or not isinstance(lesson_steps, list)
                                     or len(lesson_steps) > limits.max_lesson_steps
                                     or not all(isinstance(code, str) for code in lesson_steps)):
        raise StepsFileError(msg("steps.lesson_steps", limit=limits.max_lesson_steps))
    titles: tuple[tuple[str, str], ...] = ()
    summaries: tuple[tuple[str, str], ...] = ()
    if source == DIAGNOSIS:
        titles, summaries = _diagnosis_parts(raw, lesson, lesson_steps, limits)
    elif "title" in raw or "summary" in raw:
        raise StepsFileError(msg("steps.program_keys"))
    return SavedProgram(source, lesson, file, tuple(steps), None if lesson_steps is None else tuple(lesson_steps),
                        titles, summaries)


def _texts(value: Any, most: int, needed: bool) -> bool:
    """``value`` is a table of texts by language, each of 1 to ``most`` characters (or absent, unless ``needed``)."""
    if value is None:
        return not needed
    return isinstance(value, dict) and bool(value) and all(
        isinstance(k, str) and isinstance(v, str) and 0 < len(v) <= most for k, v in value.items())


def _diagnosis_parts(raw: dict[str, Any], lesson: str, lesson_steps: Any, limits: Limits) -> \
        tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """A diagnosis program's titles and summaries, once its id, texts and reproduction are checked
    (StepsFileError if not)."""
    title, summary = raw.get("title"), raw.get("summary")
    if not _DIAGNOSIS_ID.match(lesson) or not isinstance(lesson_steps, list) or not lesson_steps \
            or not _texts(title, MAX_TITLE, True) or not _texts(summary, MAX_SUMMARY, False):
        raise StepsFileError(msg("steps.diagnosis", limit=MAX_TITLE))
    if diagnosis_id(lesson_steps) != lesson:   # the id is its statements': another id would file it elsewhere
        raise StepsFileError(msg("steps.diagnosis", limit=MAX_TITLE))
    titles: dict[str, str] = dict(title) if isinstance(title, dict) else {}
    diagnosis_lesson(lesson_steps, titles, limits)   # every statement of the subset, every name bound
    return tuple(titles.items()), tuple(summary.items()) if isinstance(summary, dict) else ()


def _program_v1(raw: Any, limits: Limits) -> SavedProgram:
    """A version-1 program (the whole program, with origins, filed by ``id@file name``), migrated."""
    if not isinstance(raw, dict) or set(raw) - {"lesson", "step"} or not isinstance(raw.get("lesson"), str):
        raise StepsFileError(msg("steps.program_keys_v1"))
    key: str = raw["lesson"]
    lesson_id, at, name = key.partition("@")
    if key and not (at and lesson_id and name):
        raise StepsFileError(msg("steps.lesson_key_v1"))
    raw_steps = raw.get("step", [])
    if not isinstance(raw_steps, list) or len(raw_steps) > limits.max_lesson_steps:
        raise StepsFileError(msg("steps.too_many", limit=limits.max_lesson_steps))
    program = []
    for number, item in enumerate(raw_steps, start=1):
        if not isinstance(item, dict) or set(item) - {"code", "origin"}:
            raise StepsFileError(msg("steps.in_step", step=number, reason=msg("steps.step_keys_v1")))
        code, origin = item.get("code"), item.get("origin")
        if not isinstance(code, str) or origin not in _ORIGINS:
            raise StepsFileError(msg("steps.in_step", step=number, reason=msg("steps.step_values_v1")))
        try:
            statement = parse_one(code, limits)
        except LanguageError as exc:
            raise StepsFileError(msg("steps.in_step", step=number, reason=exc.message)) from None
        program.append(ProgramStep(code, statement, origin=StepOrigin(origin)))
    problem = validate(program, limits)   # version 1 checked the names of the whole program: so does its migration
    if problem is not None:
        raise StepsFileError(problem)
    if not key:
        return SavedProgram(SCRATCHPAD, steps=anchored(program))
    builtin = any(l.id == lesson_id and l.source == name for l in builtin_lessons())
    return SavedProgram("builtin" if builtin else "file", lesson_id, "" if builtin else name, anchored(program),
                        lesson_codes(program))


def parse_steps_file(data: bytes, limits: Limits = DEFAULT_LIMITS) -> Document:
    """The programs of a steps file (version 2, or 1 migrated); a program that fails is in ``failed``.

    :class:`StepsFileError` (or :class:`UnreadableFile`) when the file as a whole cannot be used.
    """
    document = parse_toml(data)
    if set(document) - {"format", "version", "program"} or document.get("format") != FORMAT:
        raise StepsFileError(msg("steps.not_this_format"))
    version = document.get("version")
    if type(version) is not int or version not in (1, VERSION):
        raise StepsFileError(msg("steps.version", version=repr(version)))
    raw_programs = document.get("program", [])
    if not isinstance(raw_programs, list):
        raise StepsFileError(msg("steps.programs_not_array"))
    read = _program_v1 if version == 1 else _program_v2
    programs: dict[str, SavedProgram] = {}
    failed: list[Failure] = []
    for number, raw in enumerate(raw_programs, start=1):
        try:
            program = read(raw, limits)
            if program.key in programs:
                raise StepsFileError(msg("steps.duplicate"))
        except StepsFileError as exc:
            failed.append(Failure(raw, exc.message, _where(raw, number)))
            continue
        programs[program.key] = program
    return Document(programs, failed, version)


def dump_steps_file(programs: dict[str, SavedProgram]) -> str:
    """The text of a steps file holding ``programs``."""
    document = {"format": FORMAT, "version": VERSION, "program": [p.table() for p in programs.values()]}
    return tomli_w.dumps(document)


def _unique(folder: Path, stem: str) -> Path:
    """A name in ``folder`` that nothing has yet: ``stem`` + a time stamp (+ a counter)."""
    stamp = f"{stem}{time.strftime('%Y%m%d-%H%M%S')}"
    path, number = folder / stamp, 1
    while os.path.lexists(path):
        number += 1
        path = folder / f"{stamp}-{number}"
    return path


# -- the store ---------------------------------------------------------------------------------------------------
@dataclass
class Merged:
    """What a save (or a load) did: the file's programs after it, and messages for the user."""

    programs: dict[str, SavedProgram]
    problems: list[str]
    written: dict[str, SavedProgram | None]
    seen: tuple[int, ...] | None = None     # the file's signature when it was read or written (None: no file)


def _signature(path: Path) -> tuple[int, ...] | None:
    """What changes when the file is replaced: inode, size, modification time (None: no file)."""
    try:
        info = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return (info.st_ino, info.st_size, info.st_mtime_ns)


class UserSteps:
    """The programs with steps of yours, by :func:`program_key`; loaded at start, merged into the file when saved.

    ``saved``: the programs as this window knows them (the file's, and this window's changes);
    ``pending``: the changes not yet merged into the file (a program, or None: no steps of yours any more).
    """

    def __init__(self, folder: str | os.PathLike[str], limits: Limits = DEFAULT_LIMITS,
                 lock_timeout_ms: int = LOCK_TIMEOUT_MS) -> None:
        self.folder = Path(folder)
        self.path = self.folder / FILE_NAME
        self.limits = limits
        self.lock_timeout_ms = lock_timeout_ms
        self.saved: dict[str, SavedProgram] = {}
        self.pending: dict[str, SavedProgram | None] = {}
        self.problems: list[str] = []    # messages for the user (a file or a program set aside, a lock)
        self._refused: dict[str, str] = {}   # key -> the reason last said that its program is not saved
        self._seen: tuple[int, ...] | None = None   # the file's signature when this store last read or wrote it
        # key -> the version of the program this window's copy was made from: as loaded, as opened from the
        # file, or as this window last saved it (None: not in the file then). A save merges against it.
        self.base: dict[str, SavedProgram | None] = {}
        self._base_lock = threading.Lock()   # saves read and set it in the writing thread

    # -- loading -------------------------------------------------------------------------------------------------
    def load(self) -> None:
        """Read the file (under the lock: stray temporaries removed, programs that fail set aside, version 1
        migrated, changes a closed window could not merge merged in); nothing here ever raises."""
        self.saved = {}
        if not os.path.lexists(self.folder):
            return
        try:
            with self._locked():
                remove_stray_temporaries(self.folder, lambda name: name.startswith(FILE_NAME))
                merged = self._merge({}, adopt_unsaved=True)
        except (LockBusy, OSError, StepsFileError) as exc:
            # Another window is saving, the folder cannot be locked or written: read what is there, move nothing.
            log.warning("the saved steps were read without the lock: %s", exc)
            merged = self._merge({}, write=False)
        except Exception as exc:  # whatever else goes wrong, the app must start
            log.exception("the saved steps could not be read")
            merged = Merged({}, [self._set_aside_file(verbatim(f"{type(exc).__name__}: {exc}"))], {})
        self.saved = merged.programs
        with self._base_lock:
            self.base = dict(merged.programs)
        self._seen = merged.seen
        self.problems.extend(merged.problems)

    def refresh(self) -> None:
        """Take in what another window saved since this store last read or wrote the file (its own changes win)."""
        if _signature(self.path) == self._seen:
            return
        try:
            merged = self._merge({}, write=False)
        except Exception:   # pragma: no cover - _merge without writing reads only, and reading never raises
            log.exception("the saved steps could not be read again")
            return
        self.saved_as(merged)

    def _read(self, move: bool = True) -> tuple[Document | None, list[str]]:
        """The file's document (None: no file); a file that cannot be used is set aside, with its message.

        ``move`` False (the lock is not held): such a file is left where it is, unsaid (another window may be
        replacing it right now); the next save under the lock sets it aside.
        """
        if not os.path.lexists(self.path):
            return None, []
        try:
            # Not followed if it is a link: TensorLab writes this file itself, never as one.
            data = read_regular_file(self.path, self.limits.max_lesson_bytes * 4, follow_symlinks=False)
            return parse_steps_file(data, self.limits), []
        except UnreadableFile as exc:
            if exc.kind == "missing":
                return None, []
            reason = exc.message
        except StepsFileError as exc:
            reason = exc.message
        except Exception as exc:  # an exception nobody foresaw: the file goes aside, the app starts
            log.exception("the saved steps could not be read")
            reason = verbatim(f"{type(exc).__name__}: {exc}")
        if not move:
            log.warning("the saved steps cannot be read now: %s", reason)
            return None, []
        return None, [self._set_aside_file(reason)]

    def _set_aside_file(self, reason: Message) -> str:
        aside = _unique(self.folder, f"{FILE_NAME}.set-aside-")
        try:
            os.replace(self.path, aside)
            where = str(aside)
        except OSError:
            where = str(self.path)
        return tr("The steps you added earlier could not be read ({reason}); the file was set aside as {path}.")\
            .format(reason=reason.render(current_language()), path=where)

    def _set_aside_programs(self, tables: list[Any], version: int, failures: list[tuple[Message, Message]]) -> \
            list[str] | None:
        """Write programs that cannot be used to a file of their own (never deleted); a message for each.

        None when that file cannot be written: the programs must then stay where they are.
        """
        aside = _unique(self.folder, f"{FILE_NAME}.set-aside-")
        try:
            text = tomli_w.dumps({"format": FORMAT, "version": version, "program": tables})
            with open(aside, "x", encoding="utf-8") as file:   # "x": a new file, never through a planted link
                file.write(text)
                file.flush()
                os.fsync(file.fileno())
        except Exception as exc:
            log.warning("could not set the saved steps aside: %s", exc)
            with contextlib.suppress(OSError):
                if aside.is_file() and not aside.is_symlink():
                    aside.unlink()   # half written: the programs stay in the file instead
            return None
        return [msg("steps.set_aside", lesson=lesson, reason=reason, path=str(aside)).render(current_language())
                for lesson, reason in failures]

    def _not_used(self, failures: list[tuple[Message, Message]]) -> list[str]:
        return [msg("steps.not_used", lesson=lesson, reason=reason, path=str(self.path)).render(current_language())
                for lesson, reason in failures]

    # -- merging -------------------------------------------------------------------------------------------------
    @contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the folder's lock (a stale one, left by a killed process, is taken over); LockBusy if it is held."""
        lock = QLockFile(str(self.folder / LOCK_NAME))
        lock.setStaleLockTime(STALE_LOCK_MS)
        if not lock.tryLock(self.lock_timeout_ms):
            if lock.error() == QLockFile.LockError.LockFailedError:
                raise LockBusy(msg("steps.locked", path=str(self.path),
                                   seconds=f"{self.lock_timeout_ms / 1000:g}"))
            raise OSError(f"cannot lock {self.folder / LOCK_NAME} ({lock.error().name})")
        try:
            yield
        finally:
            lock.unlock()

    def _merge(self, changes: dict[str, SavedProgram | None], adopt_unsaved: bool = False,
               write: bool = True, bases: dict[str, SavedProgram | None] | None = None) -> Merged:
        """Re-read the file, apply ``changes``, write it if anything changed.

        ``bases``: the version of each changed program the change was made from; a program the file holds
        in another version now (another window saved it) is merged step by step (:func:`merge_program`).
        The lock is held, unless ``write`` is False (then nothing is written or set aside).
        """
        bases = bases or {}
        document, problems = self._read(move=write)
        before = dict(document.programs) if document is not None else {}
        programs = dict(before)
        if document is None and write and os.path.lexists(self.path):
            # Unreadable, and it could not be renamed aside: never written over.
            raise OSError(f"{self.path} cannot be read, and could not be set aside")
        failures = document.failed if document is not None else []
        said = [(f.lesson, f.reason) for f in failures]
        if failures and write:
            assert document is not None
            aside = self._set_aside_programs([f.table for f in failures], document.version, said)
            if aside is None:   # they could not be kept elsewhere: the file is not written without them
                raise OSError(f"the programs that cannot be used could not be set aside from {self.path}")
            problems += aside
        elif failures:
            problems += self._not_used(said)
        unsaved = self._unsaved_files() if adopt_unsaved and write else []
        for _, extra in unsaved:
            programs.update(extra)
        for key, program in changes.items():
            theirs = programs.get(key)
            if key in bases and theirs != bases[key] and program != theirs:
                # Another window saved this program since this one read it: both windows' steps are kept.
                program, conflict = merge_program(bases[key], program, theirs)
                named = _program_named(next(p for p in (theirs, bases[key], program) if p is not None))
                problems.append(msg("steps.merged_conflict" if conflict else "steps.merged_other",
                                    lesson=named).render(current_language()))
            if program is None:
                programs.pop(key, None)
            else:
                programs[key] = program
        migrated = document is not None and document.version != VERSION
        if write and (programs != before or failures or migrated):
            if migrated and not os.path.lexists(self.path.with_name(f"{FILE_NAME}.version-1")):
                # The file as the release before wrote it, kept (an older TensorLab can be pointed at it).
                with open(self.path, "rb") as old, open(self.path.with_name(f"{FILE_NAME}.version-1"), "xb") as copy:
                    copy.write(old.read())
            text = dump_steps_file(programs)
            if len(text.encode("utf-8")) > self.limits.max_lesson_bytes * 4:
                raise StepsFileError(msg("steps.file_too_large", limit=self.limits.max_lesson_bytes * 4))
            self.folder.mkdir(parents=True, exist_ok=True)
            write_text_atomic(self.path, text)
        for path, _ in unsaved:   # merged into the file now: the file of its own goes
            os.unlink(path)
        return Merged(programs, problems, dict(changes), _signature(self.path))

    def _unsaved_files(self) -> list[tuple[Path, dict[str, SavedProgram]]]:
        """The files of changes closing windows could not merge, with their programs (unusable ones stay)."""
        found = []
        for path in sorted(self.folder.glob(_UNSAVED + "*")):
            try:
                data = read_regular_file(path, self.limits.max_lesson_bytes * 4, follow_symlinks=False)
                document = parse_steps_file(data, self.limits)
            except Exception as exc:   # left as it is, for a person to look at
                log.warning("not merged: %s (%s)", path, exc)
                continue
            found.append((path, document.programs))
        return found

    def save(self, changes: dict[str, SavedProgram | None] | None = None) -> Merged:
        """Merge ``changes`` (default: every pending one) into the file under the lock.

        Each change is merged against its program's base (:attr:`base`), so another window's steps saved
        since are merged in, not written over; once written, the change is the base of the next one (saves
        run one after another, in the writing thread: a change made while one is on its way follows it).

        Raises :class:`LockBusy` when another window holds the lock too long, OSError when the
        file cannot be written, :class:`StepsFileError` when it would grow past what the loader reads;
        the changes then stay pending. Safe to call from a thread of its own: it reads nothing of this
        object but its settings (apply what it returns with :meth:`saved_as`).
        """
        changes = dict(self.pending) if changes is None else changes
        self.folder.mkdir(parents=True, exist_ok=True)
        with self._locked():
            with self._base_lock:
                # A program not in this window's base was not in the file when it read it.
                bases = {key: self.base.get(key) for key in changes}
            merged = self._merge(changes, bases=bases)
            with self._base_lock:
                # This window's copy as it sent it (not the merge: another window's steps merged into the file
                # stay theirs to the next merge, never read as removed by this window).
                self.base.update(changes)
            return merged

    def saved_as(self, merged: Merged) -> None:
        """Take in what a save wrote: the file's programs (another window's included), the changes now merged.

        """
        for key, program in merged.written.items():
            if key in self.pending and self.pending[key] == program:
                del self.pending[key]
        self.saved = {**merged.programs, **{k: p for k, p in self.pending.items() if p is not None}}
        for key, program in self.pending.items():
            if program is None:
                self.saved.pop(key, None)
        self._seen = merged.seen
        self.problems.extend(merged.problems)

    def keep_unsaved(self) -> Path | None:
        """Write the pending changes to a file of their own (a closing window that could not save); its path."""
        if not self.pending:
            return None
        programs = {key: program for key, program in self.pending.items() if program is not None}
        if not programs:
            return None   # only removals: nothing of yours is lost if they wait
        path = _unique(self.folder, _UNSAVED)
        self.folder.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, dump_steps_file(programs))
        return path

    # -- the programs -------------------------------------------------------------------------------------------
    def program(self, key: str, lesson: Lesson | None) -> list[ProgramStep] | None:
        """The saved program of ``lesson`` rebased on it (None: nothing saved, or set aside now with a message)."""
        saved = self.saved.get(key)
        if key not in self.pending:
            with self._base_lock:
                self.base[key] = saved   # the window's copy is made from this version now (no save of it is on its way)
        if saved is None and key.startswith("file:") and lesson is not None:
            # A lesson file opened from its path: version 1 filed it by id and file name.
            legacy = f"file-name:{lesson.id}@{lesson.source}"
            if legacy in self.saved:
                with self._base_lock:
                    self.base[legacy] = self.saved[legacy]
                saved = replace(self.saved.pop(legacy), file=key[len("file:"):])
                self.saved[key] = saved
                self.pending[legacy], self.pending[key] = None, saved
        if saved is None:
            return None
        try:
            return rebase(lesson, saved, self.limits)
        except StepsFileError as exc:
            said = [(describe(lesson), exc.message)]
            aside = self._set_aside_programs([saved.table()], VERSION, said)
            if aside is None:   # not written elsewhere: it stays in the file, unused
                self.problems.extend(self._not_used(said))
                return None
            self.problems.extend(aside)
            del self.saved[key]
            self.pending[key] = None
            return None

    def update(self, key: str, lesson: Lesson | None, program: Sequence[ProgramStep]) -> bool:
        """Remember ``program`` (forgotten when no step is yours); True if there is a change to save.

        A program the loader would refuse is not saved: a message says why (once per reason),
        and what the file holds for it stays.
        """
        steps = anchored(program)
        diagnosis = is_diagnosis(lesson)
        if not steps and not diagnosis:
            self._refused.pop(key, None)
            if key not in self.saved:
                return False
            self.saved.pop(key, None)
            self.pending[key] = None
            return True
        problem = validate(program, self.limits)
        if problem is not None:
            text = msg("steps.not_saved", lesson=describe(lesson), reason=problem).render(current_language())
            if self._refused.get(key) != text:
                self._refused[key] = text
                self.problems.append(text)
            return False
        self._refused.pop(key, None)
        source = SCRATCHPAD if lesson is None else DIAGNOSIS if diagnosis else "file" if key.startswith("file") \
            else "builtin"
        file = key[len("file:"):] if key.startswith("file:") else lesson.source if source == "file" and lesson else ""
        saved = SavedProgram(source, "" if lesson is None else lesson.id, file, steps,
                             None if lesson is None else lesson_codes(program),
                             _texts_of(lesson, "title") if diagnosis and lesson is not None else (),
                             _texts_of(lesson, "summary") if diagnosis and lesson is not None and lesson.summary
                             else ())
        if self.saved.get(key) == saved:
            return False
        self.saved[key] = saved
        self.pending[key] = saved
        return True

    # -- diagnoses ----------------------------------------------------------------------------------------------
    def keep_diagnosis(self, lesson: Lesson) -> bool:
        """Remember the diagnosis program ``lesson`` (opened now), even with no step of yours; True if new.

        Saved with the next save; one already kept (the same statements) keeps your steps.
        """
        if not is_diagnosis(lesson):
            raise ValueError(f"{lesson.id!r} is not a diagnosis")
        key = program_key(lesson)
        if key in self.saved:
            return False
        return self.update(key, lesson, program_from(lesson))

    def diagnoses(self) -> list[Lesson]:
        """The diagnosis programs kept (oldest first), as lessons to open; one that cannot be made is skipped."""
        found = []
        for program in self.saved.values():
            if program.source != DIAGNOSIS or program.lesson_steps is None:
                continue
            try:
                found.append(diagnosis_lesson(program.lesson_steps, dict(program.titles), self.limits,
                                              dict(program.summaries)))
            except StepsFileError:   # pragma: no cover - the loader checked it
                continue
        return found


def _texts_of(lesson: Lesson, key: str) -> tuple[tuple[str, str], ...]:
    """A diagnosis lesson's ``title`` or ``summary`` in each language it has, English first (as
    :func:`diagnosis_lesson` takes them)."""
    return ((("en", getattr(lesson, key)),) if getattr(lesson, key) else ()) + tuple(
        (k[len(key) + 1:], v) for k, v in lesson.translations.items() if k.startswith(f"{key}_") and v)
