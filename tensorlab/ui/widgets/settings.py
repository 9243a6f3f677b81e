"""Everything the window remembers between runs, typed, with each key written once.

Every module that reads or writes a setting goes through :class:`Settings`; nothing else calls
``QSettings.value`` or ``setValue``. Values are written as TensorLab 0.1.0 wrote them (booleans as
``"true"``/``"false"``, the memory budget as a decimal string), so a file from that release loads
as it is and a file written now still loads in it (``tests/data/settings-0.1.0.ini``). A value
that cannot be read (a hand-edited file, a type from another format) reads as its default.
"""

from __future__ import annotations

import math
from enum import StrEnum

from PySide6.QtCore import QByteArray, QSettings

from tensorlab.core.protocol.limits import physical_memory

__all__ = ["Key", "LAYOUT_VERSION", "Settings", "SCRATCHPAD"]

SCRATCHPAD = "scratchpad"   # the lesson picker's key (and the remembered lesson) for the scratchpad
LAYOUT_VERSION = 3          # bump when the layouts change, so old saved states are not applied to new docks



MIN_MEMORY_LIMIT = int(0.05 * (1 << 30))   # the smallest budget Preferences offers (0.05 GB)

class Key(StrEnum):
    """Every key TensorLab keeps (the names 0.1.0 wrote)."""

    LANGUAGE = "session/language"
    DEVICE = "session/device"
    LESSON = "session/lesson"
    MEMORY_LIMIT = "session/memory_limit"
    CLASS_VOTE = "narration/class_vote"
    PROJECTOR = "window/presentation"
    GEOMETRY = "window/geometry"
    ZOOM = "view/zoom"


def _layout_key(mode: str) -> str:
    return f"layout/{mode}-v{LAYOUT_VERSION}"


def _placed_key(dock: str, mode: str = "normal") -> str:
    # The normal mode's key is the one 0.1.0 wrote (for both modes then).
    return f"docks/{dock}/placed" if mode == "normal" else f"docks/{dock}/placed-{mode}"


class Settings:
    """Typed access to a :class:`QSettings` (the user's, or an isolated INI file in tests)."""

    def __init__(self, store: QSettings) -> None:
        self.store = store

    # -- typed reads and writes (the only calls of value/setValue) ---------------
    def _text(self, key: str) -> str | None:
        value = self.store.value(key)
        return value if isinstance(value, str) and value else None

    def _flag(self, key: str) -> bool:
        value = self.store.value(key)
        # INI files hold the text "true"; a native store may hand back a bool.
        return value is True or (isinstance(value, str) and value.strip().lower() == "true")

    def _set_flag(self, key: str, on: bool) -> None:
        self.store.setValue(key, "true" if on else "false")

    def _bytes(self, key: str) -> QByteArray | None:
        value = self.store.value(key)
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    # -- the session -------------------------------------------------------------
    @property
    def language(self) -> str | None:
        """The language chosen last (`en`, `ko`), or None."""
        return self._text(Key.LANGUAGE)

    @language.setter
    def language(self, code: str) -> None:
        self.store.setValue(Key.LANGUAGE, code)

    @property
    def device(self) -> str | None:
        """The device the session ran on last (as written; the caller checks it), or None."""
        return self._text(Key.DEVICE)

    @device.setter
    def device(self, name: str) -> None:
        self.store.setValue(Key.DEVICE, name)

    @property
    def lesson(self) -> str | None:
        """The lesson open last (its id, a lesson file's path, or :data:`SCRATCHPAD`), or None."""
        return self._text(Key.LESSON)

    @lesson.setter
    def lesson(self, key: str) -> None:
        self.store.setValue(Key.LESSON, key)

    @property
    def memory_limit(self) -> int | None:
        """The memory budget set in Preferences, in bytes; None when none was set (or it is not a size)."""
        value = self.store.value(Key.MEMORY_LIMIT)
        if isinstance(value, int) and not isinstance(value, bool):
            size: int | None = value
        else:
            text = value.strip() if isinstance(value, str) else ""
            size = int(text) if text.isdigit() and len(text) < 20 else None
        # Only what Preferences can set: from 0.05 GB to this machine's memory (a hand-edited or
        # broken file must not start a worker that cannot run, or one with a budget of a byte).
        ceiling = physical_memory() or 1 << 40
        return size if size is not None and MIN_MEMORY_LIMIT <= size <= ceiling else None

    @memory_limit.setter
    def memory_limit(self, size: int) -> None:
        self.store.setValue(Key.MEMORY_LIMIT, str(int(size)))

    # -- the view ----------------------------------------------------------------
    @property
    def class_vote(self) -> bool:
        """Class vote on (choosing marks a choice; → reveals)."""
        return self._flag(Key.CLASS_VOTE)

    @class_vote.setter
    def class_vote(self, on: bool) -> None:
        self._set_flag(Key.CLASS_VOTE, on)

    @property
    def projector(self) -> bool:
        """Projector mode on."""
        return self._flag(Key.PROJECTOR)

    @projector.setter
    def projector(self, on: bool) -> None:
        self._set_flag(Key.PROJECTOR, on)

    @property
    def zoom(self) -> float | None:
        """The text zoom (1.0 is normal), or None when none was kept (or it is not a number)."""
        value = self.store.value(Key.ZOOM)
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            return None
        try:
            zoom = float(value)
        except ValueError:
            return None
        return zoom if math.isfinite(zoom) and zoom > 0 else None

    @zoom.setter
    def zoom(self, factor: float) -> None:
        self.store.setValue(Key.ZOOM, float(factor))

    @property
    def geometry(self) -> QByteArray | None:
        """The window's geometry (``QWidget.saveGeometry``), or None on a first start."""
        return self._bytes(Key.GEOMETRY)

    @geometry.setter
    def geometry(self, state: QByteArray) -> None:
        self.store.setValue(Key.GEOMETRY, state)

    def layout(self, mode: str) -> QByteArray | None:
        """The dock arrangement saved for ``mode`` ("normal", "projector") at :data:`LAYOUT_VERSION`, or None."""
        return self._bytes(_layout_key(mode))

    def set_layout(self, mode: str, state: QByteArray) -> None:
        """Keep ``mode``'s dock arrangement (``QMainWindow.saveState(LAYOUT_VERSION)``)."""
        self.store.setValue(_layout_key(mode), state)

    def forget_layout(self, mode: str) -> None:
        """View → Reset layout: ``mode`` starts from its default again."""
        self.store.remove(_layout_key(mode))

    def old_layouts(self, mode: str) -> list[str]:
        """The keys of ``mode``'s arrangements saved at another :data:`LAYOUT_VERSION` (never applied)."""
        prefix = f"layout/{mode}-v"
        return [key for key in self.store.allKeys() if key.startswith(prefix) and key != _layout_key(mode)]

    def forget_old_layouts(self, mode: str) -> None:
        """Remove ``mode``'s arrangements of other versions (said once, then gone)."""
        for key in self.old_layouts(mode):
            self.store.remove(key)

    def dock_placed(self, dock: str, mode: str = "normal") -> bool:
        """The dock named ``dock`` (a tool shown on demand) has its place in ``mode``'s saved arrangement."""
        return self._flag(_placed_key(dock, mode))

    def set_dock_placed(self, dock: str, mode: str = "normal", placed: bool = True) -> None:
        """Remember whether ``dock`` has its place in ``mode``'s arrangement (written with that arrangement)."""
        self._set_flag(_placed_key(dock, mode), placed)

    def sync(self) -> None:
        """Write what changed to disk now."""
        self.store.sync()
