"""One picture per step of a program, numbered for slides: the window, or only the storage map.

``grab_steps`` serves the window's *Export → Slides* on the window already open, and
`tensorlab export ID --png DIR` on the isolated offscreen window
(:func:`tensorlab.ui.window.offscreen.export_slides`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from tensorlab.core.engine.player import PlayerState
from tensorlab.core.files.atomic_write import write_atomic

if TYPE_CHECKING:
    from PySide6.QtGui import QPixmap

__all__ = ["grab_steps", "png_bytes", "slide_name", "SlidesController", "SlidesWindow"]


class SlidesController(Protocol):
    """What the slides use of the window's controller (a ``LabController``)."""

    @property
    def state(self) -> PlayerState: ...

    def go_to(self, position: int, past_crashes: bool = False) -> None: ...
    def wait_idle(self, timeout_ms: int = 30_000) -> bool: ...


class _Grabbed(Protocol):
    def grab(self) -> QPixmap: ...


class SlidesWindow(Protocol):
    """What the slides use of the window (a ``MainWindow``): its controller, and pictures of it or of its map."""

    @property
    def controller(self) -> SlidesController: ...
    @property
    def storage_map(self) -> _Grabbed: ...

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


def grab_steps(window: SlidesWindow, folder: Path, lesson_id: str, map_only: bool = False,
               progress: Callable[[int, int], None] | None = None) -> list[Path]:
    """Step ``window`` through its program from step 1 to the end and save each state as a PNG.

    Each slide shows the state after its step; a step that stopped the worker shows its error over the state
    before it, and the steps after it are shown as they ran without it.

    The window ends at the position it started from. Files are written atomically.
    """
    from PySide6.QtWidgets import QApplication

    controller = window.controller
    start = controller.state.position
    total = len(controller.state.program)
    folder.mkdir(parents=True, exist_ok=True)
    saved: list[Path] = []
    try:
        for position in range(1, total + 1):
            # A step that stops the worker (a crash, a time limit) is its slide's content, and the next slides
            # go on from the session restarted without it, as `tensorlab run` goes on.
            controller.go_to(position, past_crashes=True)
            controller.wait_idle()
            for _ in range(5):
                QApplication.processEvents()
            widget: _Grabbed = window.storage_map if map_only else window
            path = folder / slide_name(lesson_id, position, total)
            write_atomic(path, png_bytes(widget.grab()))
            saved.append(path)
            if progress is not None:
                progress(position, total)
    finally:
        controller.go_to(start)
        controller.wait_idle()
    return saved
