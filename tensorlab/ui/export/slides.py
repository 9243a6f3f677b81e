"""One screenshot per step of a lesson, numbered for slides (`tensorlab export ID --png DIR`).

Uses the app's own offscreen window (:func:`tensorlab.ui.window.build.build_window`, as
``--screenshot`` does): the window, or only the storage map, at a chosen size
and language, in projector mode if asked. ``grab_steps`` also serves the
window's *Export → Slides* on the window already open.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tensorlab.core.files.atomic_write import write_atomic
from tensorlab.core.lessons.lesson import Lesson

__all__ = ["export_slides", "grab_steps", "slide_name"]


def slide_name(lesson_id: str, number: int, total: int) -> str:
    """`<lesson>-07.png`: numbered so the files sort in step order (step 0 is before the first)."""
    width = max(2, len(str(total)))
    return f"{lesson_id}-{number:0{width}d}.png"


def _png_bytes(pixmap: Any) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice

    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    if not pixmap.save(buffer, "PNG"):
        raise OSError("the screenshot could not be encoded as PNG")
    buffer.close()
    return bytes(data.data())


def grab_steps(window: Any, folder: Path, lesson_id: str, map_only: bool = False,
               progress: Callable[[int, int], None] | None = None) -> list[Path]:
    """Step ``window`` through its program from step 1 to the end and save each state as a PNG.

    The window ends at the position it started from. Files are written atomically.
    """
    from PySide6.QtWidgets import QApplication

    controller = window.controller
    start = controller.state.position
    total = len(controller.state.program)
    folder.mkdir(parents=True, exist_ok=True)
    saved = []
    try:
        for position in range(1, total + 1):
            controller.go_to(position)
            controller.wait_idle()
            for _ in range(5):
                QApplication.processEvents()
            widget = window.storage_map if map_only else window
            path = folder / slide_name(lesson_id, position, total)
            write_atomic(path, _png_bytes(widget.grab()))
            saved.append(path)
            if progress is not None:
                progress(position, total)
    finally:
        controller.go_to(start)
        controller.wait_idle()
    return saved


def export_slides(lesson: Lesson, folder: Path, size: str = "1280x720", language: str = "en",
                  presentation: bool = False, map_only: bool = False, device: str = "cpu") -> list[Path]:
    """Render ``lesson`` offscreen, one PNG per step, into ``folder``; the paths written."""
    if "QT_QPA_PLATFORM" not in os.environ and not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    try:
        width, height = (int(v) for v in size.lower().split("x"))
    except ValueError:
        raise ValueError(f"--size must be WIDTHxHEIGHT, like 1280x720, not {size!r}") from None
    if not (200 <= width <= 8000 and 200 <= height <= 8000):
        raise ValueError(f"--size {size} is outside 200x200 to 8000x8000")
    from PySide6.QtCore import QSettings

    from tensorlab.ui.window.build import build_window

    scratch = Path(os.environ.get("TMPDIR", "/tmp")) / f"tensorlab-slides-{os.getpid()}.ini"
    settings = QSettings(str(scratch), QSettings.Format.IniFormat)
    from tensorlab.ui.widgets.i18n import current_language, set_language
    from tensorlab.ui.window.main_window import SCRATCHPAD

    language_before = current_language()

    # Start on the (empty) scratchpad, then open exactly this lesson (a file or a built-in one).
    window = build_window(settings, lesson=SCRATCHPAD, device=device, language=language)
    try:
        window.controller.load_lesson(lesson)
        window.controller.wait_idle()
        window.set_presentation(presentation)
        window.resize(width, height)
        window.show()
        window.apply_default_layout()
        return grab_steps(window, folder, lesson.id, map_only)
    finally:
        window.controller.shutdown()
        window.close()
        scratch.unlink(missing_ok=True)
        set_language(language_before)  # this process may go on showing other windows
