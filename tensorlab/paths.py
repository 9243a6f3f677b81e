"""Where TensorLab's shipped resources (lessons, translations, icons) are."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["resources_dir", "lessons_dir"]


def resources_dir() -> Path:
    """The `resources/` folder: inside an installed wheel, or beside the source tree."""
    try:
        installed = resources.files("tensorlab.resources")
        path = Path(str(installed))
        if (path / "lessons").is_dir():
            return path
    except (ModuleNotFoundError, TypeError):
        pass
    return Path(__file__).resolve().parent.parent / "resources"


def lessons_dir() -> Path:
    """The folder of built-in lesson files."""
    return resources_dir() / "lessons"
