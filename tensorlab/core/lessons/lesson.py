"""Load, validate and save lesson files (TOML; the format is the design's contract 2: README, "Lesson files").

A lesson is checked whole before any of it runs: every step must be one
statement of the code subset and read only names an earlier step binds. A bad
file is rejected with its name, the step number and what is wrong. Only regular
files are read, never more than the size limit (a FIFO, a device or a huge file
is refused, not read), and TOML that would exhaust the parser is refused too.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tomli_w

from tensorlab.core.files.atomic_write import write_text_atomic
from tensorlab.core.files.bounded_read import UnreadableFile, parse_toml, read_regular_file
from tensorlab.core.files.package_data import lessons_dir
from tensorlab.core.lang.parse import LanguageError, NameCheck, Statement, parse_one
from tensorlab.core.lessons.course import COURSE_FILE, Course, CourseError, builtin_course
from tensorlab.core.messages.catalogue import Message, MessageError, message_of, msg, verbatim
from tensorlab.core.protocol.limits import DEFAULT_LIMITS, Limits
from tensorlab.core.protocol.measure_results import MAX_SIZE, MIN_SIZE, MeasuredQuestion, question_problem

__all__ = [
    "Ask",
    "VERDICT_CHECK",
    "LessonStep",
    "RefusedStep",
    "Lesson",
    "LessonError",
    "parse_lesson",
    "load_lesson",
    "lesson_data",
    "builtin_lessons",
    "find_lesson",
    "dump_lesson",
    "save_lesson",
]

_ID = re.compile(r"^[a-z0-9-]+$")
_LANG = r"_[a-z]{2}(?:_[A-Za-z]{2,4})?"
_LESSON_KEYS = re.compile(rf"^(?:id|title|summary|chapter|prerequisites|(?:title|summary|chapter){_LANG})$")
_STEP_KEYS = re.compile(rf"^(?:code|note|ask|facts|note{_LANG})$")
VERDICT_CHECK = "verdict"   # `check` of a question answered by a measurement (MeasuredQuestion)
_ASK_KEYS = re.compile(
    rf"^(?:question|choices|answer|explain|check|size|verdicts|requires_grad|(?:question|choices|explain){_LANG})$")


class LessonError(MessageError, ValueError):
    """A lesson file that cannot be used: which file, which step, what is wrong (``reason``)."""

    def __init__(self, source: str, reason: Message, step: int | None = None) -> None:
        self.source = source
        self.step = step
        self.reason = reason
        if step is None:
            super().__init__(msg("lesson.in_file", source=source, reason=reason))
        else:
            super().__init__(msg("lesson.in_step", source=source, step=step, reason=reason))


@dataclass(frozen=True)
class Ask:
    """A question to predict before the step runs.

    ``check`` names what the question is about (``"x.grad"``, ``"error"``,
    ``"output"``, ...): :mod:`tensorlab.core.checks.lesson_checks` evaluates it after
    the step and finds which choice is true. ``check = "verdict"`` (``measured``) is a
    question about speed: no ``answer`` is stored, the right choice is the verdict measured
    on the session's device when it is asked (:class:`MeasuredQuestion`).
    """

    question: str
    choices: tuple[str, ...]
    answer: int | None            # None only for a measured question
    explain: str = ""
    translations: Mapping[str, Any] = field(default_factory=dict)
    check: str = ""
    measured: MeasuredQuestion | None = None

    def text(self, key: str, language: str = "en") -> Any:
        """`question`, `choices` or `explain` in ``language`` (English if missing)."""
        return self.translations.get(f"{key}_{language}", getattr(self, key))


@dataclass(frozen=True)
class LessonStep:
    """One step: a statement of the subset, its narration and an optional question.

    ``facts`` are what the note states about the state after the step, in the
    small vocabulary of :mod:`tensorlab.core.checks.lesson_checks` ("x is a leaf").
    """

    code: str
    statement: Statement = field(repr=False, compare=False)
    note: str = ""
    ask: Ask | None = None
    translations: Mapping[str, str] = field(default_factory=dict)
    facts: tuple[str, ...] = ()
    # Where it starts in an opened ``.py`` or notebook (``cell``: its code cell, 1-based); 0: not from a file.
    # The explanation of a failing backward names the culprit step by it too ("step 5 (line 12)").
    line: int = 0
    cell: int = 0

    def text(self, language: str = "en") -> str:
        """The note in ``language`` (English if there is none)."""
        return self.translations.get(f"note_{language}", self.note)


@dataclass(frozen=True)
class RefusedStep:
    """A statement of an opened ``.py`` or notebook that TensorLab shows but never runs, and why.

    ``after``: how many of the lesson's (runnable) steps come before it; ``line``: where it starts in
    its file (``cell``: its notebook cell, 1-based, or 0 in a ``.py``). Refused steps are never part
    of ``Lesson.steps``: nothing plays, checks, saves or exports them as code.
    """

    code: str
    reason: Message
    after: int
    line: int = 0
    cell: int = 0
    note: str = ""


@dataclass(frozen=True)
class Lesson:
    """A lesson: id, title, summary, chapter, prerequisites and steps (and, for an opened file, the
    statements it holds that TensorLab refused, ``refused``)."""

    id: str
    title: str
    steps: tuple[LessonStep, ...]
    summary: str = ""
    translations: Mapping[str, str] = field(default_factory=dict)
    source: str = ""
    chapter: str = ""
    prerequisites: tuple[str, ...] = ()
    refused: tuple[RefusedStep, ...] = ()

    def text(self, key: str, language: str = "en") -> str:
        """`title`, `summary` or `chapter` in ``language`` (English if missing)."""
        return self.translations.get(f"{key}_{language}", getattr(self, key))

    @property
    def statements(self) -> list[Statement]:
        """The checked statement of each step, in order."""
        return [s.statement for s in self.steps]


def _need_str(source: str, table: Mapping[str, Any], key: str, step: int | None, where: str) -> str:
    value = table.get(key)
    if value is None:
        raise LessonError(source, msg("lesson.missing", key=key, where=where), step)
    if not isinstance(value, str):
        raise LessonError(source, msg("lesson.not_text_type", key=key, where=where, type=type(value).__name__), step)
    return value


def _optional_str(source: str, table: Mapping[str, Any], key: str, step: int | None, where: str) -> str:
    value = table.get(key, "")
    if not isinstance(value, str):
        raise LessonError(source, msg("lesson.not_text", key=key, where=where), step)
    return value


def _text_list(source: str, table: Mapping[str, Any], key: str, step: int | None, where: str) -> tuple[str, ...]:
    value = table.get(key, [])
    if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
        raise LessonError(source, msg("lesson.not_text_list", key=key, where=where), step)
    return tuple(value)


def _check_keys(source: str, table: Mapping[str, Any], allowed: re.Pattern[str], where: str,
                step: int | None) -> None:
    for key in table:
        if not allowed.match(key):
            raise LessonError(source, msg("lesson.unknown_key", key=key, where=where), step)


def _translations(table: Mapping[str, Any], base: tuple[str, ...], source: str, step: int | None,
                  where: str) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in table.items():
        if "_" in key and key.split("_", 1)[0] in base:
            if key.startswith("choices_"):
                if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
                    raise LessonError(source, msg("lesson.not_text_list", key=key, where=where), step)
                found[key] = tuple(value)
            elif not isinstance(value, str):
                raise LessonError(source, msg("lesson.not_text", key=key, where=where), step)
            else:
                found[key] = value
    return found


def _parse_ask(source: str, table: Any, step: int) -> Ask:
    if not isinstance(table, dict):
        raise LessonError(source, msg("lesson.ask_not_table"), step)
    _check_keys(source, table, _ASK_KEYS, "[step.ask]", step)
    question = _need_str(source, table, "question", step, "[step.ask]")
    choices = table.get("choices")
    if not (isinstance(choices, list) and len(choices) >= 2 and all(isinstance(c, str) for c in choices)):
        raise LessonError(source, msg("lesson.choices"), step)
    explain = _optional_str(source, table, "explain", step, "[step.ask]")
    check = _optional_str(source, table, "check", step, "[step.ask]").strip()
    measured = _measured(source, table, check, len(choices), step)
    answer = table.get("answer")
    if measured is not None:
        if "answer" in table:
            raise LessonError(source, msg("lesson.verdict_answer"), step)
    elif isinstance(answer, bool) or not isinstance(answer, int) or not 0 <= answer < len(choices):
        raise LessonError(source, msg("lesson.answer", last=len(choices) - 1), step)
    translations = _translations(table, ("question", "choices", "explain"), source, step, "[step.ask]")
    for key, value in translations.items():
        if key.startswith("choices_") and len(value) != len(choices):
            raise LessonError(source, msg("lesson.choices_count", key=key), step)
    return Ask(question, tuple(choices), answer, explain, translations, check, measured)


def _measured(source: str, table: Mapping[str, Any], check: str, choices: int, step: int) -> MeasuredQuestion | None:
    """The measured question of a ``check = "verdict"`` ask (its fields checked), or None for any other."""
    fields = [key for key in ("size", "verdicts", "requires_grad") if key in table]
    if check != VERDICT_CHECK:
        if fields:
            raise LessonError(source, msg("lesson.verdict_fields", low=MIN_SIZE, high=MAX_SIZE), step)
        return None
    size, verdicts, grad = table.get("size"), table.get("verdicts"), table.get("requires_grad", True)
    if question_problem(size, verdicts, choices, grad) or not isinstance(size, int) or not isinstance(verdicts, list):
        raise LessonError(source, msg("lesson.verdict_fields", low=MIN_SIZE, high=MAX_SIZE), step)
    return MeasuredQuestion(size, tuple(str(v) for v in verdicts), bool(grad))


def _decode(text: str | bytes, source: str, limits: Limits) -> str:
    if isinstance(text, bytes):
        if len(text) > limits.max_lesson_bytes:
            raise LessonError(source, msg("file.too_large", limit=limits.max_lesson_bytes))
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LessonError(source, msg("lesson.not_utf8", byte=exc.start)) from None
    if len(text) > limits.max_lesson_bytes:
        raise LessonError(source, msg("file.too_large", limit=limits.max_lesson_bytes))
    if not text.strip():
        raise LessonError(source, msg("lesson.empty"))
    return text


def _toml(text: str, source: str) -> dict[str, Any]:
    # The one TOML reading (files.bounded_read): every failure, a 5,000-digit integer included, is one error.
    try:
        return parse_toml(text)
    except UnreadableFile as exc:
        raise LessonError(source, exc.message) from None


def _parse_header(source: str, data: Mapping[str, Any]) -> dict[str, Any]:
    header = data.get("lesson")
    if not isinstance(header, dict):
        raise LessonError(source, msg("lesson.no_header"))
    _check_keys(source, header, _LESSON_KEYS, "[lesson]", None)
    lesson_id = _need_str(source, header, "id", None, "[lesson]")
    if not _ID.match(lesson_id):
        raise LessonError(source, msg("lesson.bad_id", text=repr(lesson_id)))
    prerequisites = _text_list(source, header, "prerequisites", None, "[lesson]")
    for name in prerequisites:
        if not _ID.match(name):
            raise LessonError(source, msg("lesson.bad_prerequisite", text=repr(name)))
    return {
        "id": lesson_id,
        "title": _need_str(source, header, "title", None, "[lesson]"),
        "summary": _optional_str(source, header, "summary", None, "[lesson]"),
        "chapter": _optional_str(source, header, "chapter", None, "[lesson]"),
        "prerequisites": prerequisites,
        "translations": _translations(header, ("title", "summary", "chapter"), source, None, "[lesson]"),
    }


def _parse_step(source: str, raw: Any, number: int, limits: Limits) -> LessonStep:
    if not isinstance(raw, dict):
        raise LessonError(source, msg("lesson.step_not_table"), number)
    _check_keys(source, raw, _STEP_KEYS, "[[step]]", number)
    code = _need_str(source, raw, "code", number, "[[step]]")
    try:
        statement = parse_one(code, limits)
    except LanguageError as exc:
        raise LessonError(source, exc.message, number) from None
    note = raw.get("note", "")
    if not isinstance(note, str):
        raise LessonError(source, msg("lesson.note_not_text"), number)
    facts = _text_list(source, raw, "facts", number, "[[step]]")
    ask = _parse_ask(source, raw["ask"], number) if "ask" in raw else None
    return LessonStep(code, statement, note, ask, _translations(raw, ("note",), source, number, "[[step]]"),
                      facts)


def parse_lesson(text: str | bytes, source: str = "<lesson>", limits: Limits = DEFAULT_LIMITS) -> Lesson:
    """Validate a lesson's TOML text; :class:`LessonError` names what is wrong."""
    data = _toml(_decode(text, source, limits), source)
    for key in data:
        if key not in ("lesson", "step"):
            raise LessonError(source, msg("lesson.unknown_table", key=key))
    header = _parse_header(source, data)
    raw_steps = data.get("step")
    if raw_steps is None:
        raise LessonError(source, msg("lesson.no_steps"))
    if not isinstance(raw_steps, list):
        raise LessonError(source, msg("lesson.steps_not_array"))
    if len(raw_steps) > limits.max_lesson_steps:
        raise LessonError(source, msg("lesson.too_many_steps", count=len(raw_steps),
                                      limit=limits.max_lesson_steps))
    steps = [_parse_step(source, raw, number, limits) for number, raw in enumerate(raw_steps, start=1)]
    # A name read before any step binds it is an error in the file, not in a step.
    # ... and so is a member refused on a name whose kind its binding step says (`opt.load_state_dict(...)`).
    names = NameCheck()
    for number, step in enumerate(steps, start=1):
        try:
            names.add(step.statement)
        except LanguageError as exc:
            raise LessonError(source, exc.message, number) from None
    return Lesson(header["id"], header["title"], tuple(steps), header["summary"], header["translations"],
                  source, header["chapter"], header["prerequisites"])


def load_lesson(path: str | Path, limits: Limits = DEFAULT_LIMITS) -> Lesson:
    """Read and validate the lesson file at ``path``."""
    path = Path(path)
    name = path.name or str(path)
    try:
        data = read_regular_file(path, limits.max_lesson_bytes)
    except UnreadableFile as exc:
        raise LessonError(name, exc.message) from None
    return parse_lesson(data, name, limits)


def builtin_lessons() -> list[Lesson]:
    """The lessons shipped with TensorLab, in the course's teaching order (grouped by chapter).

    The course manifest (:mod:`tensorlab.core.lessons.course`) gives the order, and each listed
    lesson's chapter (with its translations) and prerequisites, over what its file says; a file
    the manifest does not list comes last, as its file says (a test keeps that from shipping).
    """
    return list(_builtin_lessons())


@functools.lru_cache(maxsize=1)
def _builtin_lessons() -> tuple[Lesson, ...]:
    # Read and checked once per process: the shipped files do not change while it runs.
    try:
        course = builtin_course()
    except CourseError as exc:
        raise LessonError(COURSE_FILE, message_of(exc)) from None  # the shipped manifest: for its developers
    files = {p.stem: p for p in sorted(lessons_dir().glob("*.toml")) if p.name != COURSE_FILE}
    listed = [lesson_id for lesson_id in course.order if lesson_id in files]
    missing = [lesson_id for lesson_id in course.order if lesson_id not in files]
    if missing:
        raise LessonError(COURSE_FILE, verbatim(f"the course lists `{missing[0]}`, but there is no {missing[0]}.toml"))
    lessons = [_as_in_course(load_lesson(files[i]), course) for i in listed]
    return tuple(lessons + [load_lesson(files[i]) for i in files if i not in listed])


def _as_in_course(lesson: Lesson, course: Course) -> Lesson:
    """``lesson`` with the chapter and prerequisites the course gives it."""
    found = course.find(lesson.id)
    if found is None:
        return lesson
    chapter, entry = found
    translations = {k: v for k, v in lesson.translations.items() if not k.startswith("chapter_")}
    translations.update({"chapter" + key[len("title"):]: text for key, text in chapter.translations.items()})
    return dataclasses.replace(lesson, chapter=chapter.title, prerequisites=entry.prerequisites,
                               translations=translations)


def find_lesson(name: str) -> Lesson:
    """A built-in lesson by id, or a lesson file by path."""
    path = Path(name)
    if path.suffix == ".toml" or os.path.lexists(path):
        return load_lesson(path)
    for lesson in builtin_lessons():
        if lesson.id == name:
            return lesson
    known = ", ".join(l.id for l in builtin_lessons())
    raise LessonError(name, msg("lesson.not_found", known=known))


def lesson_data(lesson: Lesson) -> dict[str, Any]:
    """``lesson`` as the plain tables of its TOML file."""
    header: dict[str, Any] = {"id": lesson.id, "title": lesson.title}
    if lesson.summary:
        header["summary"] = lesson.summary
    if lesson.chapter:
        header["chapter"] = lesson.chapter
    if lesson.prerequisites:
        header["prerequisites"] = list(lesson.prerequisites)
    header.update({k: list(v) if isinstance(v, tuple) else v for k, v in lesson.translations.items()})
    steps = []
    for step in lesson.steps:
        table: dict[str, Any] = {"code": step.code}
        if step.note:
            table["note"] = step.note
        table.update(step.translations)
        if step.facts:
            table["facts"] = list(step.facts)
        if step.ask is not None:
            ask = step.ask
            asked: dict[str, Any] = {"question": ask.question, "choices": list(ask.choices)}
            if ask.answer is not None:
                asked["answer"] = ask.answer
            if ask.check:
                asked["check"] = ask.check
            if ask.measured is not None:
                asked["size"] = ask.measured.size
                asked["verdicts"] = list(ask.measured.verdicts)
                if not ask.measured.requires_grad:
                    asked["requires_grad"] = False
            if ask.explain:
                asked["explain"] = ask.explain
            asked.update({k: list(v) if isinstance(v, tuple) else v for k, v in ask.translations.items()})
            table["ask"] = asked
        steps.append(table)
    return {"lesson": header, "step": steps}


def dump_lesson(lesson: Lesson) -> str:
    """TOML text of ``lesson`` (written by tomli-w); :func:`parse_lesson` reads it back unchanged.

    Texts with line breaks are written as multi-line strings where that reads
    back exactly (TOML folds a carriage return before a line break), else escaped.
    """
    data = lesson_data(lesson)
    text = tomli_w.dumps(data, multiline_strings=True)
    if tomllib.loads(text) != data:
        text = tomli_w.dumps(data)
    return text


def save_lesson(lesson: Lesson, path: str | Path) -> None:
    """Write ``lesson`` to ``path`` as TOML, atomically (a crash leaves the old file or the new one)."""
    path = Path(path)
    text = dump_lesson(lesson)
    parse_lesson(text, path.name)  # never write a file TensorLab would refuse to open
    write_text_atomic(path, text)
