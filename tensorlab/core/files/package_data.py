"""Where TensorLab's shipped resources (lessons, translations) are: the `tensorlab/resources/` package."""

from __future__ import annotations

from pathlib import Path

__all__ = ["resources_dir", "lessons_dir"]

# The resources are package data beside the code, in a source tree and in an installed wheel alike.
_RESOURCES = Path(__file__).resolve().parents[2] / "resources"


def resources_dir() -> Path:
    """The `tensorlab/resources/` folder (lessons, translations)."""
    return _RESOURCES


def lessons_dir() -> Path:
    """The folder of built-in lesson files."""
    return resources_dir() / "lessons"
