"""The built-in course's manifest: `tensorlab/resources/lessons/course.toml`.

It says the order of the built-in lessons, their chapters (with the chapters' translated
titles) and what each lesson builds on. :func:`tensorlab.core.lessons.lesson.builtin_lessons`
applies it: for a built-in lesson the manifest wins over the file's own ``chapter`` and
``prerequisites`` (a teacher's lesson file keeps its own). It is read by the one bounded
reader and checked whole: strict keys, lesson ids, each lesson listed once.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tensorlab.core.files.bounded_read import UnreadableFile, read_toml_file
from tensorlab.core.files.package_data import lessons_dir
from tensorlab.core.messages.catalogue import Message, MessageError, msg
from tensorlab.core.protocol.limits import DEFAULT_LIMITS

__all__ = ["COURSE_FILE", "CourseError", "CourseLesson", "Chapter", "Course", "parse_course", "read_course",
           "builtin_course"]

COURSE_FILE = "course.toml"
FORMAT = "tensorlab-course"

_ID = re.compile(r"^[a-z0-9-]+$")
_TITLE_KEYS = re.compile(r"^title_[a-z]{2}(?:_[A-Za-z]{2,4})?$")


class CourseError(MessageError, ValueError):
    """The manifest cannot be used (what is wrong, and where: a catalogue message)."""


@dataclass(frozen=True)
class CourseLesson:
    """One lesson of the course: its id (the file is ``<id>.toml``) and the lessons it builds on."""

    id: str
    prerequisites: tuple[str, ...] = ()


@dataclass(frozen=True)
class Chapter:
    """A chapter: its title, the title's translations (``title_ko``, ...) and its lessons in order."""

    title: str
    lessons: tuple[CourseLesson, ...]
    translations: Mapping[str, str] = field(default_factory=dict)

    def text(self, language: str = "en") -> str:
        """The title in ``language`` (English if missing)."""
        return self.translations.get(f"title_{language}", self.title)


@dataclass(frozen=True)
class Course:
    """The chapters, in teaching order."""

    chapters: tuple[Chapter, ...]

    @property
    def order(self) -> tuple[str, ...]:
        """Every lesson id, in teaching order."""
        return tuple(lesson.id for chapter in self.chapters for lesson in chapter.lessons)

    def find(self, lesson_id: str) -> tuple[Chapter, CourseLesson] | None:
        """The chapter and entry of ``lesson_id``, or None when the course does not list it."""
        for chapter in self.chapters:
            for lesson in chapter.lessons:
                if lesson.id == lesson_id:
                    return chapter, lesson
        return None


def _ids(value: Any, where: Message) -> tuple[str, ...]:
    if not (isinstance(value, list) and all(isinstance(v, str) and _ID.match(v) for v in value)):
        raise CourseError(msg("course.prerequisites", where=where))
    return tuple(value)


def _lesson(raw: Any, where: Message) -> CourseLesson:
    if not isinstance(raw, dict) or set(raw) - {"id", "prerequisites"}:
        raise CourseError(msg("course.lesson_table", where=where))
    lesson_id = raw.get("id")
    if not isinstance(lesson_id, str) or not _ID.match(lesson_id):
        raise CourseError(msg("course.bad_id", where=where, text=repr(lesson_id)[:80]))
    return CourseLesson(lesson_id, _ids(raw.get("prerequisites", []), msg("course.where_lesson", where=where,
                                                                           lesson=lesson_id)))


def _chapter(raw: Any, number: int) -> Chapter:
    where = msg("course.where_chapter", number=number)
    if not isinstance(raw, dict):
        raise CourseError(msg("course.chapter_table", where=where))
    unknown = [k for k in raw if k not in ("title", "lessons") and not _TITLE_KEYS.match(k)]
    if unknown:
        raise CourseError(msg("course.unknown_key", where=where, key=str(unknown[0])[:80]))
    title = raw.get("title")
    translations = {k: v for k, v in raw.items() if _TITLE_KEYS.match(k)}
    if not isinstance(title, str) or not title.strip() or not all(isinstance(v, str) for v in translations.values()):
        raise CourseError(msg("course.title", where=where))
    lessons = raw.get("lessons")
    if not isinstance(lessons, list) or not lessons:
        raise CourseError(msg("course.lessons", where=where))
    return Chapter(title, tuple(_lesson(item, where) for item in lessons), translations)


def parse_course(document: Mapping[str, Any]) -> Course:
    """The course in a parsed manifest; :class:`CourseError` says what is wrong."""
    if set(document) - {"format", "version", "chapter"} or document.get("format") != FORMAT:
        raise CourseError(msg("course.format", format=FORMAT))
    if document.get("version") != 1:
        raise CourseError(msg("course.version", version=repr(document.get("version"))[:40]))
    raw = document.get("chapter")
    if not isinstance(raw, list) or not raw:
        raise CourseError(msg("course.no_chapter"))
    course = Course(tuple(_chapter(item, number) for number, item in enumerate(raw, start=1)))
    seen: set[str] = set()
    for lesson_id in course.order:
        if lesson_id in seen:
            raise CourseError(msg("course.twice", lesson=lesson_id))
        seen.add(lesson_id)
    return course


def read_course(path: str | Path) -> Course:
    """Read and check the manifest at ``path`` (bounded, a regular file); :class:`CourseError` if unusable."""
    try:
        document = read_toml_file(path, DEFAULT_LIMITS.max_lesson_bytes)
    except UnreadableFile as exc:
        raise CourseError(exc.message) from None
    return parse_course(document)


@functools.lru_cache(maxsize=1)
def builtin_course() -> Course:
    """The manifest shipped beside the built-in lessons (read once per process)."""
    return read_course(lessons_dir() / COURSE_FILE)
