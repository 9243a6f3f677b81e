"""The one offscreen renderer: a window isolated in a private temporary folder, for pictures.

``tensorlab --screenshot``, ``tensorlab export ID --png``, tests and benchmarks render through
:func:`isolated_window`: its settings and its user data (the steps you added) live in a folder
that only this process can read (``tempfile.mkdtemp``, mode 0700) and that is removed after,
so a render never reads or writes the user's data folder or settings, and shows a lesson as
shipped. Sizes are read by one function, :func:`window_size`.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from tensorlab.core.files.atomic_write import write_atomic
from tensorlab.core.lessons.lesson import Lesson
from tensorlab.core.messages.catalogue import MessageError, msg
from tensorlab.core.protocol.limits import RUN_SECONDS, STEP_SECONDS, Limits
from tensorlab.ui.export.slides import grab_steps, png_bytes
from tensorlab.ui.window.build import build_window

if TYPE_CHECKING:
    from tensorlab.ui.window.main_window import MainWindow

__all__ = ["window_size", "isolated_window", "settle", "screenshot", "export_slides"]

MIN_SIDE, MAX_SIDE = 200, 8000
SETTLE_MS = 80   # the window's deferred layout work (zero-delay timers, some chained) is done by then


class PictureError(MessageError, ValueError):
    """A picture cannot be made as asked (its size, its step): the message says why."""


def window_size(text: str) -> tuple[int, int]:
    """``"1280x720"`` as (1280, 720); :class:`PictureError` (a ValueError) with a sentence for anything else."""
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise PictureError(msg("picture.size_format", text=text)) from None
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise PictureError(msg("picture.size_range", text=text, low=MIN_SIDE, high=MAX_SIDE))
    return width, height


def _offscreen_without_display() -> None:
    if "QT_QPA_PLATFORM" not in os.environ and not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"


# What the offscreen platform says of every window it cannot size by hints: true, and not the user's
# concern (it is printed before "saved …" on every picture).
_OFFSCREEN_NOISE = "This plugin does not support propagateSizeHints()"


@contextmanager
def _without_offscreen_noise() -> Iterator[None]:
    """Qt's messages as usual, less the offscreen platform's note about size hints."""
    from PySide6.QtCore import QMessageLogContext, QtMsgType, qInstallMessageHandler

    def handler(kind: QtMsgType, context: QMessageLogContext, text: str) -> None:
        # Qt writes the note in its default category (a plain qWarning), so it is told by its text; the
        # platform plugin's own category (`qt.qpa.*`: fonts, screens, input of a window nobody sees) says
        # nothing a picture's user can act on either.
        category = str(getattr(context, "category", "") or "")
        if text == _OFFSCREEN_NOISE or category.startswith("qt.qpa"):
            return
        if previous is not None:
            previous(kind, context, text)
        else:
            sys.stderr.write(text + "\n")

    previous = qInstallMessageHandler(handler)
    try:
        yield
    finally:
        qInstallMessageHandler(previous)


@contextmanager
def isolated_window(*, lesson: str | None = None, device: str | None = None, language: str | None = None,
                    size: tuple[int, int] = (1280, 720), presentation: bool = False,
                    limits: Limits | None = None, memory_limit: int | None = None,
                    flashes: bool = False, time_limit: float | None = None,
                    run_time_limit: float | None = None) -> Iterator[MainWindow]:
    """A shown window at ``size`` whose settings and user data live in a private temporary folder.

    The map flashes what a step changed only with ``flashes`` (a picture shows the state, not the
    animation; tests and benchmarks of the window as a user sees it keep it). ``time_limit`` and
    ``run_time_limit`` bound each step and everything its worker runs. On exit the worker
    stops, the window closes, the folder is removed and the language of this process is what it was.
    """
    _offscreen_without_display()
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from tensorlab.ui.widgets.i18n import current_language, set_language

    folder = Path(tempfile.mkdtemp(prefix="tensorlab-render-"))
    language_before = current_language()
    window: MainWindow | None = None
    try:
        settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
        window = build_window(settings, lesson=lesson, device=device, language=language,
                              data_dir=folder / "data", limits=limits, memory_limit=memory_limit,
                              time_limit=time_limit, run_time_limit=run_time_limit)
        window.storage_map.flashes = flashes
        window.resize(*size)
        window.set_presentation(presentation)
        window.show()
        QApplication.processEvents()
        window.apply_default_layout()
        yield window
    finally:
        if window is not None:
            window.controller.shutdown()
            window.close()
        shutil.rmtree(folder, ignore_errors=True)
        set_language(language_before)


def settle(milliseconds: int = SETTLE_MS) -> None:
    """Let the window finish its deferred layout work before a picture is taken."""
    from PySide6.QtCore import QDeadlineTimer
    from PySide6.QtWidgets import QApplication

    deadline = QDeadlineTimer(milliseconds)
    while not deadline.hasExpired():
        QApplication.processEvents()


def screenshot(path: str, lesson: str | None, step: int | None, size: str, device: str | None,
               presentation: bool = False, language: str | None = None,
               memory_limit: int | None = None, step_time_limit: float | None = STEP_SECONDS,
               time_limit: float | None = RUN_SECONDS) -> None:
    """Render the window at ``step`` of ``lesson`` to the PNG ``path`` (OSError if it cannot be written).

    Its worker runs under `tensorlab run`'s default limits: a step that runs too long or a lesson
    that would run past ``time_limit`` cannot keep a screenshot from ending.
    """
    _offscreen_without_display()
    with _without_offscreen_noise(), isolated_window(
            lesson=lesson, device=device, language=language, size=window_size(size), presentation=presentation,
            memory_limit=memory_limit, time_limit=step_time_limit, run_time_limit=time_limit) as window:
        if step is not None:
            total = len(window.controller.state.program)
            if not 0 <= step <= total:
                raise PictureError(msg("picture.step_range", step=step, total=total))
            # Past a step that stops the worker, as the slides go (its error is content; later steps run).
            window.controller.go_to(step, past_crashes=True)
            window.controller.wait_idle()
        settle()
        write_atomic(Path(path), png_bytes(window.grab()))


def export_slides(lesson: Lesson, folder: Path, size: str = "1280x720", language: str = "en",
                  presentation: bool = False, map_only: bool = False, device: str = "cpu",
                  memory_limit: int | None = None, step_time_limit: float | None = None,
                  time_limit: float | None = None) -> list[Path]:
    """Render ``lesson`` offscreen, one PNG per step, into ``folder``; the paths written.

    The window is isolated (:func:`isolated_window`): the slides show the lesson as shipped,
    without the steps a user added to it in the window. Its worker runs under `tensorlab run`'s
    limits: ``memory_limit`` (bytes; None: the default budget, not the user's Preferences),
    ``step_time_limit`` per step and ``time_limit`` for everything, rendering included: the slides stop
    at the first step not run, or when the time is up (fewer paths than steps: cut there).
    """
    import time

    from tensorlab.core.protocol.limits import session_memory_limit
    from tensorlab.ui.window.settings import SCRATCHPAD

    # The run's time covers rendering too: past it no more slides are made (the run then ends within its
    # time limit plus the slide, or the one step, in hand).
    deadline = None if time_limit is None else time.monotonic() + time_limit
    _offscreen_without_display()
    with _without_offscreen_noise(), isolated_window(
            lesson=SCRATCHPAD, device=device, language=language, size=window_size(size), presentation=presentation,
            memory_limit=memory_limit or session_memory_limit(), time_limit=step_time_limit,
            run_time_limit=time_limit) as window:
        # The picker names the lesson the slides show (a lesson file is not in the built-in list: without
        # this entry the picker read "Scratchpad"); a file with a built-in's id shows its own title.
        window.lessons[:] = [known for known in window.lessons if known.id != lesson.id] + [lesson]
        window.fill_lessons()
        window.controller.load_lesson(lesson)
        window.controller.wait_idle()
        window.apply_default_layout()
        return grab_steps(window, folder, lesson.id, map_only, deadline=deadline)
