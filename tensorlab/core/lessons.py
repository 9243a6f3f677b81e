"""Load, validate and save lesson files (TOML, DESIGN.md contract 2).

A lesson is checked whole before any of it runs: every step must be one
statement of the code subset and read only names an earlier step binds. A bad
file is rejected with its name, the step number and what is wrong.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tensorlab.core.language import LanguageError, Statement, check_names, parse_one
from tensorlab.core.limits import DEFAULT_LIMITS, Limits
from tensorlab.paths import lessons_dir

__all__ = [
    "Ask",
    "LessonStep",
    "Lesson",
    "LessonError",
    "parse_lesson",
    "load_lesson",
    "builtin_lessons",
    "find_lesson",
    "dump_lesson",
    "save_lesson",
]

_ID = re.compile(r"^[a-z0-9-]+$")
_LANG = r"_[a-z]{2}(?:_[A-Za-z]{2,4})?"
_LESSON_KEYS = re.compile(rf"^(?:id|title|summary|(?:title|summary){_LANG})$")
_STEP_KEYS = re.compile(rf"^(?:code|note|ask|note{_LANG})$")
_ASK_KEYS = re.compile(rf"^(?:question|choices|answer|explain|(?:question|choices|explain){_LANG})$")


class LessonError(ValueError):
    """A lesson file that cannot be used: which file, which step, what is wrong."""

    def __init__(self, source: str, message: str, step: int | None = None) -> None:
        self.source = source
        self.step = step
        self.reason = message
        where = source if step is None else f"{source}, step {step}"
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class Ask:
    """A question to predict before the step runs."""

    question: str
    choices: tuple[str, ...]
    answer: int
    explain: str = ""
    translations: Mapping[str, Any] = field(default_factory=dict)

    def text(self, key: str, language: str = "en") -> Any:
        """`question`, `choices` or `explain` in ``language`` (English if missing)."""
        return self.translations.get(f"{key}_{language}", getattr(self, key))


@dataclass(frozen=True)
class LessonStep:
    """One step: a statement of the subset, its narration and an optional question."""

    code: str
    statement: Statement = field(repr=False, compare=False)
    note: str = ""
    ask: Ask | None = None
    translations: Mapping[str, str] = field(default_factory=dict)

    def text(self, language: str = "en") -> str:
        """The note in ``language`` (English if there is none)."""
        return self.translations.get(f"note_{language}", self.note)


@dataclass(frozen=True)
class Lesson:
    """A lesson: id, title, summary and steps."""

    id: str
    title: str
    steps: tuple[LessonStep, ...]
    summary: str = ""
    translations: Mapping[str, str] = field(default_factory=dict)
    source: str = ""

    def text(self, key: str, language: str = "en") -> str:
        """`title` or `summary` in ``language`` (English if missing)."""
        return self.translations.get(f"{key}_{language}", getattr(self, key))

    @property
    def statements(self) -> list[Statement]:
        """The checked statement of each step, in order."""
        return [s.statement for s in self.steps]


def _need_str(source: str, table: Mapping[str, Any], key: str, step: int | None, where: str) -> str:
    value = table.get(key)
    if not isinstance(value, str):
        kind = "missing" if value is None else f"must be text, not {type(value).__name__}"
        raise LessonError(source, f"`{key}` in {where} is {kind}", step)
    return value


def _check_keys(source: str, table: Mapping[str, Any], allowed: re.Pattern[str], where: str,
                step: int | None) -> None:
    for key in table:
        if not allowed.match(key):
            raise LessonError(source, f"unknown key `{key}` in {where}", step)


def _translations(table: Mapping[str, Any], base: tuple[str, ...], source: str, step: int | None,
                  where: str) -> dict[str, Any]:
    found = {}
    for key, value in table.items():
        if "_" in key and key.split("_", 1)[0] in base:
            if key.startswith("choices_"):
                if not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
                    raise LessonError(source, f"`{key}` in {where} must be a list of text", step)
                found[key] = tuple(value)
            elif not isinstance(value, str):
                raise LessonError(source, f"`{key}` in {where} must be text", step)
            else:
                found[key] = value
    return found


def _parse_ask(source: str, table: Any, step: int) -> Ask:
    if not isinstance(table, dict):
        raise LessonError(source, "`ask` must be a table ([step.ask])", step)
    _check_keys(source, table, _ASK_KEYS, "[step.ask]", step)
    question = _need_str(source, table, "question", step, "[step.ask]")
    choices = table.get("choices")
    if not (isinstance(choices, list) and len(choices) >= 2 and all(isinstance(c, str) for c in choices)):
        raise LessonError(source, "`choices` in [step.ask] must be a list of at least two texts", step)
    answer = table.get("answer")
    if isinstance(answer, bool) or not isinstance(answer, int) or not 0 <= answer < len(choices):
        raise LessonError(source, f"`answer` in [step.ask] must be the index of a choice "
                                  f"(0 to {len(choices) - 1})", step)
    explain = table.get("explain", "")
    if not isinstance(explain, str):
        raise LessonError(source, "`explain` in [step.ask] must be text", step)
    translations = _translations(table, ("question", "choices", "explain"), source, step, "[step.ask]")
    for key, value in translations.items():
        if key.startswith("choices_") and len(value) != len(choices):
            raise LessonError(source, f"`{key}` must have as many choices as `choices`", step)
    return Ask(question, tuple(choices), answer, explain, translations)


def parse_lesson(text: str | bytes, source: str = "<lesson>", limits: Limits = DEFAULT_LIMITS) -> Lesson:
    """Validate a lesson's TOML text; :class:`LessonError` names what is wrong."""
    if isinstance(text, bytes):
        if len(text) > limits.max_lesson_bytes:
            raise LessonError(source, f"the file is larger than {limits.max_lesson_bytes:,} bytes")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LessonError(source, f"the file is not UTF-8 text (byte {exc.start})") from None
    if len(text) > limits.max_lesson_bytes:
        raise LessonError(source, f"the file is larger than {limits.max_lesson_bytes:,} bytes")
    if not text.strip():
        raise LessonError(source, "the file is empty")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise LessonError(source, f"this is not valid TOML: {exc}") from None
    for key in data:
        if key not in ("lesson", "step"):
            raise LessonError(source, f"unknown table `{key}` (expected [lesson] and [[step]])")
    header = data.get("lesson")
    if not isinstance(header, dict):
        raise LessonError(source, "the [lesson] table is missing")
    _check_keys(source, header, _LESSON_KEYS, "[lesson]", None)
    lesson_id = _need_str(source, header, "id", None, "[lesson]")
    if not _ID.match(lesson_id):
        raise LessonError(source, f"`id` must use only a-z, 0-9 and '-', not {lesson_id!r}")
    title = _need_str(source, header, "title", None, "[lesson]")
    summary = header.get("summary", "")
    if not isinstance(summary, str):
        raise LessonError(source, "`summary` in [lesson] must be text")
    translations = _translations(header, ("title", "summary"), source, None, "[lesson]")
    raw_steps = data.get("step")
    if raw_steps is None:
        raise LessonError(source, "the lesson has no [[step]]")
    if not isinstance(raw_steps, list):
        raise LessonError(source, "`step` must be an array of tables ([[step]])")
    if len(raw_steps) > limits.max_lesson_steps:
        raise LessonError(source, f"the lesson has {len(raw_steps)} steps; at most "
                                  f"{limits.max_lesson_steps} are allowed")
    steps = []
    for number, raw in enumerate(raw_steps, start=1):
        if not isinstance(raw, dict):
            raise LessonError(source, "each step must be a table", number)
        _check_keys(source, raw, _STEP_KEYS, "[[step]]", number)
        code = _need_str(source, raw, "code", number, "[[step]]")
        try:
            statement = parse_one(code, limits)
        except LanguageError as exc:
            raise LessonError(source, str(exc), number) from None
        note = raw.get("note", "")
        if not isinstance(note, str):
            raise LessonError(source, "`note` must be text", number)
        ask = _parse_ask(source, raw["ask"], number) if "ask" in raw else None
        steps.append(LessonStep(code, statement, note, ask,
                                _translations(raw, ("note",), source, number, "[[step]]")))
    # A name read before any step binds it is an error in the file, not in a step.
    defined: set[str] = set()
    for number, step in enumerate(steps, start=1):
        try:
            check_names([step.statement], defined)
        except LanguageError as exc:
            raise LessonError(source, str(exc), number) from None
        defined.update(step.statement.defines)
    return Lesson(lesson_id, title, tuple(steps), summary, translations, source)


def load_lesson(path: str | Path, limits: Limits = DEFAULT_LIMITS) -> Lesson:
    """Read and validate the lesson file at ``path``."""
    path = Path(path)
    try:
        size = path.stat().st_size
        if size > limits.max_lesson_bytes:
            raise LessonError(path.name, f"the file is larger than {limits.max_lesson_bytes:,} bytes")
        data = path.read_bytes()
    except OSError as exc:
        raise LessonError(path.name, f"cannot read the file: {exc.strerror or exc}") from None
    return parse_lesson(data, path.name, limits)


def builtin_lessons() -> list[Lesson]:
    """The lessons shipped with TensorLab, in their teaching order."""
    directory = lessons_dir()
    lessons = [load_lesson(p) for p in sorted(directory.glob("*.toml"))]
    order = _ORDER
    return sorted(lessons, key=lambda l: (order.index(l.id) if l.id in order else len(order), l.id))


# The order the built-in lessons are taught in (files are named by id).
_ORDER = [
    "inplace-on-a-leaf",
    "clone-keeps-the-graph",
    "detach-shares-memory",
    "detach-and-the-version-counter",
    "clone-detach-order",
]


def find_lesson(name: str) -> Lesson:
    """A built-in lesson by id, or a lesson file by path."""
    path = Path(name)
    if path.suffix == ".toml" or path.exists():
        return load_lesson(path)
    for lesson in builtin_lessons():
        if lesson.id == name:
            return lesson
    known = ", ".join(l.id for l in builtin_lessons())
    raise LessonError(name, f"no such lesson file or built-in lesson (built-in: {known})")


def _toml_string(text: str) -> str:
    # JSON's string escapes are all valid TOML basic-string escapes.
    return json.dumps(text, ensure_ascii=False)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return _toml_string(str(value))


def dump_lesson(lesson: Lesson) -> str:
    """TOML text of ``lesson``; :func:`parse_lesson` reads it back unchanged."""
    lines = ["[lesson]", f"id = {_toml_string(lesson.id)}", f"title = {_toml_string(lesson.title)}"]
    if lesson.summary:
        lines.append(f"summary = {_toml_string(lesson.summary)}")
    lines += [f"{k} = {_toml_value(v)}" for k, v in lesson.translations.items()]
    for step in lesson.steps:
        lines += ["", "[[step]]", f"code = {_toml_string(step.code)}"]
        if step.note:
            lines.append(f"note = {_toml_string(step.note)}")
        lines += [f"{k} = {_toml_value(v)}" for k, v in step.translations.items()]
        if step.ask is not None:
            ask = step.ask
            lines += ["", "[step.ask]", f"question = {_toml_string(ask.question)}",
                      f"choices = {_toml_value(list(ask.choices))}", f"answer = {ask.answer}"]
            if ask.explain:
                lines.append(f"explain = {_toml_string(ask.explain)}")
            lines += [f"{k} = {_toml_value(v)}" for k, v in ask.translations.items()]
    return "\n".join(lines) + "\n"


def save_lesson(lesson: Lesson, path: str | Path) -> None:
    """Write ``lesson`` to ``path`` as TOML (written whole, then renamed into place)."""
    path = Path(path)
    text = dump_lesson(lesson)
    parse_lesson(text, path.name)  # never write a file TensorLab would refuse to open
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)
