"""Which built-in lessons raise which errors and warnings: the shipped index, read without torch.

The index (``tensorlab/resources/diagnose/lesson-errors.json``) is made by running every built-in
lesson (``python -m tensorlab.core.tools.error_index``, which needs torch); a test makes it again and
compares. A lesson qualifies for a family when its own run raises an error or warning of that family.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from pathlib import Path

from tensorlab.core.files.package_data import resources_dir

__all__ = ["index_path", "load_index", "lessons_for", "lesson_nodes"]


def index_path() -> Path:
    """Where the shipped index is."""
    return resources_dir() / "diagnose" / "lesson-errors.json"


@functools.cache
def load_index() -> Mapping[str, tuple[str, ...]]:
    """family -> ids of the lessons whose run raises it (course order); empty if the index is missing or bad."""
    try:
        data = json.loads(index_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    families = data.get("families", {}) if isinstance(data, dict) else {}
    if not isinstance(families, dict):
        return {}
    return {str(family): tuple(str(lesson) for lesson in lessons)
            for family, lessons in families.items() if isinstance(lessons, list)}


def lessons_for(family: str) -> tuple[str, ...]:
    """The ids of the built-in lessons whose run raises ``family``."""
    return load_index().get(family, ())


@functools.cache
def _load_nodes() -> Mapping[str, Mapping[str, tuple[str, ...]]]:
    try:
        data = json.loads(index_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    nodes = data.get("nodes", {}) if isinstance(data, dict) else {}
    if not isinstance(nodes, dict):
        return {}
    return {str(family): {str(lesson): tuple(str(node) for node in named) for lesson, named in lessons.items()
                          if isinstance(named, list)}
            for family, lessons in nodes.items() if isinstance(lessons, dict)}


def lesson_nodes(family: str) -> tuple[str, ...]:
    """The nodes (their kinds, "Split") that the lessons raising ``family`` name in its messages, in order, once
    each; empty where the lessons' messages name none."""
    named = _load_nodes().get(family, {})
    return tuple(dict.fromkeys(node for lesson in lessons_for(family) for node in named.get(lesson, ())))
