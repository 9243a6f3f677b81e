"""Making the index of which built-in lessons raise which errors and warnings (for ``tensorlab diagnose``).

Every built-in lesson is run in a fresh, seeded session (:func:`~tensorlab.core.session.fresh_run.run_fresh`,
torch's random state kept); each error and warning its steps raise is read as one of the diagnosed
families (:func:`tensorlab.core.diagnose.families.read_family`), and the index lists, for each family,
the lessons that raise it, in the course's order. The shipped file is
``tensorlab/resources/diagnose/lesson-errors.json``; make it again after adding or changing a lesson:

    python -m tensorlab.core.tools.error_index --write

(without ``--write`` it prints the index; a test makes it again and compares it with the shipped one).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from tensorlab.core.diagnose.families import FAMILIES, read_family
from tensorlab.core.diagnose.lesson_index import index_path
from tensorlab.core.files.atomic_write import write_text_atomic
from tensorlab.core.lessons.lesson import Lesson, builtin_lessons
from tensorlab.core.session.fresh_run import run_fresh

__all__ = ["lesson_families", "build_index", "index_text", "main"]


def lesson_families(lesson: Lesson) -> set[str]:
    """The diagnosed families that ``lesson``'s own run raises (its errors and its warnings)."""
    found: set[str] = set()
    for result in run_fresh(lesson.statements):
        raised = [(w.category, w.message) for w in result.warnings]
        if result.error is not None and result.error.origin == "torch":
            raised.append((result.error.type, result.error.message))
        for type_name, message in raised:
            family = read_family(message, type_name)
            if family is not None:
                found.add(family.name)
    return found


def build_index(lessons: Sequence[Lesson] | None = None) -> dict[str, Any]:
    """The index document: ``{"families": {family: [lesson ids]}}``, every diagnosed family listed."""
    lessons = builtin_lessons() if lessons is None else lessons
    families: dict[str, list[str]] = {family: [] for family in FAMILIES}
    for lesson in lessons:
        for family in sorted(lesson_families(lesson)):
            families[family].append(lesson.id)
    return {"about": "made by `python -m tensorlab.core.tools.error_index --write`: the built-in lessons whose "
                     "run raises each error and warning `tensorlab diagnose` explains",
            "families": families}


def index_text(index: dict[str, Any]) -> str:
    """The index as the shipped file writes it."""
    return json.dumps(index, indent=1, ensure_ascii=False) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Print the index, or (``--write``) write it into the package's resources."""
    parser = argparse.ArgumentParser(prog="python -m tensorlab.core.tools.error_index",
                                     description="the index of which built-in lessons raise which errors")
    parser.add_argument("--write", action="store_true", help=f"write {index_path()}")
    args = parser.parse_args(argv)
    text = index_text(build_index())
    if args.write:
        index_path().parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(index_path(), text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
