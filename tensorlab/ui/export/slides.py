"""One picture per step of a program, numbered for slides: the window, or only the storage map.

``grab_steps`` serves the window's *Export → Slides* on the window already open, and
`tensorlab export ID --png DIR` on the isolated offscreen window
(:func:`tensorlab.ui.window.offscreen.export_slides`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from tensorlab.core.engine.player import PlayerState
from tensorlab.core.files.atomic_write import write_atomic

if TYPE_CHECKING:
    from PySide6.QtGui import QBrush, QColor, QPixmap, QTransform
    from PySide6.QtWidgets import QGraphicsScene, QWidget

__all__ = ["grab_steps", "map_slide", "png_bytes", "slide_name", "SlidesController", "SlidesWindow"]


class SlidesController(Protocol):
    """What the slides use of the window's controller (a ``LabController``)."""

    @property
    def state(self) -> PlayerState: ...

    def go_to(self, position: int, past_crashes: bool = False) -> None: ...
    def wait_idle(self, timeout_ms: int = 30_000) -> bool: ...


class _Grabbed(Protocol):
    def grab(self) -> QPixmap: ...


class _Map(_Grabbed, Protocol):
    """The storage map as the slides draw it: a graphics view."""

    def scene(self) -> QGraphicsScene: ...
    def transform(self) -> QTransform: ...
    def backgroundBrush(self) -> QBrush: ...  # noqa: N802 - Qt's name
    def viewport(self) -> QWidget: ...
    def devicePixelRatioF(self) -> float: ...  # noqa: N802 - Qt's name


class SlidesWindow(Protocol):
    """What the slides use of the window (a ``MainWindow``): its controller, and pictures of it or of its map."""

    @property
    def controller(self) -> SlidesController: ...
    @property
    def storage_map(self) -> _Map: ...

    def grab(self) -> QPixmap: ...


def slide_name(lesson_id: str, number: int, total: int) -> str:
    """`<lesson>-07.png`: numbered so the files sort in step order (step 0 is before the first)."""
    width = max(2, len(str(total)))
    return f"{lesson_id}-{number:0{width}d}.png"


def png_bytes(pixmap: QPixmap) -> bytes:
    """A pixmap as PNG bytes (OSError if Qt cannot encode it)."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not pixmap.save(buffer, "PNG"):
        raise OSError("the screenshot could not be encoded as PNG")
    buffer.close()
    return bytes(data.data())


def map_slide(view: _Map) -> QPixmap:
    """The whole storage map as one picture: every strip uncut, no scroll bars.

    Its scene drawn at the view's scale, at least the size of the map on screen, on the map's own
    background. (:func:`grab_steps` draws the map for pictures first: at its text scale, every strip
    from its start, no "+N more" marks; and gives the slides of one export one size.)
    """
    import math

    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QPainter, QPixmap

    scene = view.scene()
    source = scene.sceneRect()
    scale = view.transform().m11()
    viewport = view.viewport()
    width = max(math.ceil(source.width() * scale), viewport.width())
    height = max(math.ceil(source.height() * scale), viewport.height())
    ratio = view.devicePixelRatioF()
    pixmap = QPixmap(math.ceil(width * ratio), math.ceil(height * ratio))
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(view.backgroundBrush().color())
    painter = QPainter(pixmap)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        target = QRectF(0, 0, source.width() * scale, source.height() * scale)
        scene.render(painter, target, source, Qt.AspectRatioMode.IgnoreAspectRatio)
    finally:
        painter.end()
    return pixmap


def _not_run(state: PlayerState, position: int) -> bool:
    """True when step ``position`` was not run (the run's time limit was reached before it)."""
    results = state.results
    error = results[position - 1].error if len(results) >= position else None
    return error is not None and error.type == "TimeLimit"


def _padded(pixmap: QPixmap, width: int, height: int, color: QColor) -> QPixmap:
    """``pixmap`` at the top left of a picture ``width`` × ``height`` (device pixels) filled with ``color``."""
    from PySide6.QtGui import QPainter, QPixmap

    if pixmap.width() == width and pixmap.height() == height:
        return pixmap
    ratio = pixmap.devicePixelRatio()
    padded = QPixmap(width, height)
    padded.setDevicePixelRatio(ratio)
    padded.fill(color)
    painter = QPainter(padded)
    try:
        painter.drawPixmap(0, 0, pixmap)
    finally:
        painter.end()
    return padded


def grab_steps(window: SlidesWindow, folder: Path, lesson_id: str, map_only: bool = False,
               progress: Callable[[int, int], None] | None = None, deadline: float | None = None) -> list[Path]:
    """Step ``window`` through its program from step 1 to the end and save each state as a PNG.

    Each slide shows the state after its step; a step that stopped the worker shows its error over the state
    before it, and the steps after it are shown as they ran without it.

    Only steps that ran are pictured: the slides stop at the first step the run's time limit kept from
    running (its slide would number a state that never was), and at ``deadline`` (``time.monotonic()``),
    when rendering itself has used up the run's time. Fewer paths than steps: the slides were cut there.

    Map-only slides share one size, the largest a step needs, and one scale (the map's text scale, never
    fitted to the window), so that they page smoothly; they show every strip whole, with no "+N more" marks.

    The window ends at the position it started from. Files are written atomically.
    """
    from PySide6.QtWidgets import QApplication

    controller = window.controller
    start = controller.state.position
    total = len(controller.state.program)
    folder.mkdir(parents=True, exist_ok=True)
    saved: list[Path] = []
    pictures: list[tuple[Path, QPixmap]] = []
    view = window.storage_map
    # The storage map's picture mode (StorageMapView.set_picture): at its text scale, every strip whole, no marks.
    set_picture: Callable[[bool], None] | None = getattr(view, "set_picture", None) if map_only else None
    if set_picture is not None:
        set_picture(True)
    try:
        for position in range(1, total + 1):
            if deadline is not None and time.monotonic() > deadline:
                break
            # A step that stops the worker (a crash, a time limit) is its slide's content, and the next slides
            # go on from the session restarted without it, as `tensorlab run` goes on.
            controller.go_to(position, past_crashes=True)
            controller.wait_idle()
            if _not_run(controller.state, position):
                break
            for _ in range(5):
                QApplication.processEvents()
            picture = map_slide(window.storage_map) if map_only else window.grab()
            path = folder / slide_name(lesson_id, position, total)
            if map_only:
                pictures.append((path, picture))   # written once the largest is known
            else:
                write_atomic(path, png_bytes(picture))
                saved.append(path)
            if progress is not None:
                progress(position, total)
        if pictures:
            width = max(p.width() for _, p in pictures)
            height = max(p.height() for _, p in pictures)
            color = view.backgroundBrush().color()
            for path, picture in pictures:
                write_atomic(path, png_bytes(_padded(picture, width, height, color)))
                saved.append(path)
    finally:
        if set_picture is not None:
            set_picture(False)
        controller.go_to(start)
        controller.wait_idle()
    return saved
