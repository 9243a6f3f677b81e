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

from tensorlab.core.diagnose.families import FAMILIES, normal_node, read_family
from tensorlab.core.diagnose.lesson_index import index_path
from tensorlab.core.files.atomic_write import write_text_atomic
from tensorlab.core.lessons.lesson import Lesson, builtin_lessons
from tensorlab.core.session.fresh_run import run_fresh

__all__ = ["lesson_families", "lesson_raises", "build_index", "index_text", "main"]


def lesson_families(lesson: Lesson) -> set[str]:
    """The diagnosed families that ``lesson``'s own run raises (its errors and its warnings)."""
    return set(lesson_raises(lesson))


def lesson_raises(lesson: Lesson) -> dict[str, set[str]]:
    """The diagnosed families that ``lesson``'s own run raises, each with the nodes its messages name (their
    kinds: "Split", "Relu"; empty for a family whose message names none)."""
    found: dict[str, set[str]] = {}
    for result in run_fresh(lesson.statements):
        raised = [(w.category, w.message) for w in result.warnings]
        if result.error is not None and result.error.origin == "torch":
            raised.append((result.error.type, result.error.message))
        for type_name, message in raised:
            family = read_family(message, type_name)
            if family is not None:
                nodes = found.setdefault(family.name, set())
                if "node" in family.facts:
                    nodes.add(normal_node(str(family.facts["node"])))
    return found


def build_index(lessons: Sequence[Lesson] | None = None) -> dict[str, Any]:
    """The index document: ``{"families": {family: [lesson ids]}, "nodes": {family: {lesson id: [nodes]}}}``,
    every diagnosed family listed (``nodes``: the nodes each lesson's messages of that family name, where they
    name one: a pasted error of another node is told which one the lesson shows)."""
    lessons = builtin_lessons() if lessons is None else lessons
    families: dict[str, list[str]] = {family: [] for family in FAMILIES}
    nodes: dict[str, dict[str, list[str]]] = {}
    for lesson in lessons:
        for family, named in sorted(lesson_raises(lesson).items()):
            families[family].append(lesson.id)
            if named:
                nodes.setdefault(family, {})[lesson.id] = sorted(named)
    return {"about": "made by `python -m tensorlab.core.tools.error_index --write`: the built-in lessons whose "
                     "run raises each error and warning `tensorlab diagnose` explains",
            "families": families, "nodes": nodes}


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
