"""Text sizes: one zoom for every panel (Ctrl+= / Ctrl+- / Ctrl+0), larger in projector mode.

Sizes are pixel sizes, so what a test measures is what the screen shows: no text is
ever drawn below :data:`MIN_PX` (a scene is never shrunk below 1:1 to fit either).
A panel's text scale is the zoom times its projector factor (each panel's factor is in the
window's panel registry, :data:`~tensorlab.ui.window.panels.PANELS`); panels implement
``set_text_scale(scale)`` and take their sizes from :func:`px`.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QFont, QFontInfo
from PySide6.QtWidgets import QApplication, QWidget

from tensorlab.ui.widgets.settings import Settings

__all__ = ["MIN_PX", "BASE_PX", "ZOOM_STEPS", "PROJECTOR_DEFAULT", "px", "pixel_font", "mono_font",
           "panel_scale", "TextZoom"]

MIN_PX = 11             # nothing is drawn smaller, at any zoom
BASE_PX = 12            # the body text of the panels at zoom 1 (at least the system's own size)
ZOOM_STEPS = (0.9, 1.0, 1.1, 1.25, 1.4, 1.6, 1.8, 2.0, 2.4, 3.0)

# Projector mode: each panel's text grows by its factor (the registry's; this one where it names none).
PROJECTOR_DEFAULT = 1.25


def base_px() -> int:
    """The body text size: :data:`BASE_PX`, or the system's font where it is larger."""
    app = QApplication.instance()
    system = QFontInfo(app.font()).pixelSize() if isinstance(app, QApplication) else BASE_PX
    return max(BASE_PX, system)


def px(size: float, scale: float = 1.0) -> int:
    """``size`` pixels at ``scale``, never below :data:`MIN_PX`."""
    return max(MIN_PX, round(size * scale))


def pixel_font(size: float, scale: float = 1.0, bold: bool = False, base: QFont | None = None) -> QFont:
    """The application's font (or ``base``) at ``size`` × ``scale`` pixels."""
    if base is not None:
        font = QFont(base)
        font.setPixelSize(px(size, scale))
        font.setBold(bold)
        return font
    key = ("app", QApplication.font().key(), px(size, scale), bold)
    kept = _FONTS.get(key)
    if kept is None:
        kept = QFont(QApplication.font())
        kept.setPixelSize(px(size, scale))
        kept.setBold(bold)
        _FONTS[key] = kept
    return QFont(kept)


def mono_font(size: float, scale: float = 1.0, bold: bool = False) -> QFont:
    """A monospace font for code and numbers."""
    key = ("mono", px(size, scale), bold)
    font = _FONTS.get(key)
    if font is None:
        font = QFont("DejaVu Sans Mono")
        font.setStyleHint(QFont.StyleHint.Monospace)
        font.setPixelSize(px(size, scale))
        font.setBold(bold)
        _FONTS[key] = font
    return QFont(font)


# Fonts made once per size (a panel redrawn asks for the same few again and again).
_FONTS: dict[tuple[object, ...], QFont] = {}


def panel_scale(projector_factor: float, zoom: float, projector: bool) -> float:
    """The text scale of a panel whose text grows by ``projector_factor`` in projector mode."""
    return zoom * (projector_factor if projector else 1.0)


def apply_scale(widget: QWidget, scale: float) -> None:
    """Give ``widget`` its text scale: its own ``set_text_scale``, or a plain font size."""
    setter: Callable[[float], object] | None = getattr(widget, "set_text_scale", None)
    if setter is not None:
        setter(scale)
    else:
        widget.setFont(pixel_font(base_px(), scale))
    # A widget with a style sheet keeps the font it had when it was polished: set it again.
    for child in widget.findChildren(QWidget):
        parent = child.parentWidget()
        if child.styleSheet() and parent is not None:  # a child found below ``widget`` has a parent
            child.setFont(parent.font())


class TextZoom(QObject):
    """The zoom level shared by every panel, remembered in the settings."""

    changed = Signal(float)

    def __init__(self, settings: Settings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        saved = settings.zoom or 1.0
        self.factor = min(ZOOM_STEPS, key=lambda z: abs(z - saved))   # the zoom chosen (and remembered)
        self.limit = ZOOM_STEPS[-1]   # the largest the window's size allows (see set_limit)

    @property
    def effective(self) -> float:
        """The zoom the panels are drawn at: the one chosen, no larger than the window allows."""
        return min(self.factor, self.limit)

    def set_limit(self, limit: float) -> None:
        """The largest zoom the window offers at its size (never below the normal size): a zoom chosen on a
        larger screen is kept, and drawn at this one."""
        limit = max((z for z in ZOOM_STEPS if z <= limit), default=1.0)
        limit = max(limit, 1.0)
        if limit != self.limit:
            before = self.effective
            self.limit = limit
            if self.effective != before:
                self.changed.emit(self.effective)

    def _set(self, factor: float) -> None:
        if factor != self.factor:
            before = self.effective
            self.factor = factor
            self.settings.zoom = factor
            if self.effective != before:
                self.changed.emit(self.effective)

    def zoom_in(self) -> bool:
        """One step larger, as far as the window's size allows; False where it is already as large as that."""
        if self.factor >= self.limit:
            return False
        self._set(next((z for z in ZOOM_STEPS if z > self.factor), ZOOM_STEPS[-1]))
        return True

    def zoom_out(self) -> bool:
        """One step smaller (text stays at least 11 px); False where it is already the smallest."""
        if self.effective <= ZOOM_STEPS[0]:
            return False
        self._set(next((z for z in reversed(ZOOM_STEPS) if z < self.effective), ZOOM_STEPS[0]))
        return True

    def reset(self) -> None:
        """Back to the normal size."""
        self._set(1.0)
