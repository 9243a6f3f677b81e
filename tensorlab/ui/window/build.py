"""The desktop application: QApplication, settings, the window, screenshots, main()."""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import sys
import tempfile
from pathlib import Path

from tensorlab.core.protocol.devices import DeviceError, canonical_device
from tensorlab.core.lessons.lesson import LessonError, builtin_lessons, find_lesson

__all__ = ["build_window", "main"]


def _application():
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance()
    if app is None:
        app = QApplication(sys.argv[:1])
        app.setApplicationName("TensorLab")
        app.setOrganizationName("TensorLab")
    return app


def _fit_screen(window, first_start: bool) -> None:  # noqa: ANN001 - a MainWindow
    """A first start fills most of the screen's available area, title bar included; later ones stay on it."""
    screen = window.screen().availableGeometry()
    frame, side = 40, 16   # a title bar and borders, before the window manager says how large they are
    geometry = window.geometry()
    if first_start or geometry.width() + side > screen.width() or geometry.height() + frame > screen.height():
        width = min(screen.width() - side, max(int(screen.width() * 0.94), min(1024, screen.width())))
        height = min(screen.height() - frame, max(int(screen.height() * 0.94) - frame, 480))
        window.resize(width, height)
        window.move(screen.left() + (screen.width() - width - side) // 2,
                    screen.top() + max(0, (screen.height() - height - frame) // 2))


def build_window(settings=None, *, lesson: str | None = None, device: str | None = None,
                 language: str | None = None, wait: bool = True, data_dir: str | Path | None = None,
                 limits=None, memory_limit: int | None = None):
    """The main window, first (or remembered) lesson loading, without entering the event loop.

    ``settings`` is a QSettings (tests pass an isolated one); by default the user's.
    ``data_dir``: where the steps you added are kept (default: the user data folder).
    ``wait``: return once the worker has loaded the lesson (tools, tests); the app
    itself shows the window at once and lets the worker catch up. ``limits`` and
    ``memory_limit`` (bytes) bound the session (default: the settings, else 2 GB
    or a quarter of memory).
    """
    _application()
    from PySide6.QtCore import QSettings

    from tensorlab.ui.program.controller import LabController
    from tensorlab.ui.widgets.i18n import set_language
    from tensorlab.ui.window.main_window import SCRATCHPAD, MainWindow

    if settings is None:
        settings = QSettings("TensorLab", "TensorLab")
    # The language first, so that every text is made in it.
    set_language(language or str(settings.value("session/language", "en")))
    lessons = builtin_lessons()
    wanted_device = device or str(settings.value("session/device", "cpu"))
    try:
        wanted_device = canonical_device(wanted_device)
    except DeviceError:
        wanted_device = "cpu"  # a remembered device that makes no sense: fall back, never crash
    from tensorlab.core.protocol.limits import DEFAULT_LIMITS
    from tensorlab.ui.window.preferences import remembered_memory_limit

    if memory_limit is None:
        memory_limit = remembered_memory_limit(settings)
    controller = LabController(device=wanted_device, limits=limits or DEFAULT_LIMITS, memory_limit=memory_limit)
    window = MainWindow(controller, lessons, settings, data_dir=Path(data_dir) if data_dir is not None else None)
    first_start = settings.value("window/geometry") is None
    window.restore_settings()
    _fit_screen(window, first_start)
    chosen = None
    key = lesson or str(settings.value("session/lesson", lessons[0].id if lessons else SCRATCHPAD))
    if key != SCRATCHPAD:
        try:
            chosen = find_lesson(key)
        except LessonError:
            chosen = lessons[0] if lessons else None
        if chosen is not None and chosen.id not in {l.id for l in window.lessons}:
            window.lessons.append(chosen)
            window.fill_lessons()
    window.open_lesson(chosen)
    if wait:
        controller.wait_idle()
    # What start-up made lives as long as the window: kept out of the collector's full passes, which
    # would otherwise walk it all again (a 20 ms pause in the middle of a step).
    gc.freeze()
    return window


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise SystemExit(f"tensorlab: --size must be WIDTHxHEIGHT, like 1280x720, not {text!r}") from None
    return width, height


def screenshot(path: str, lesson: str | None, step: int | None, size: str, device: str | None,
               presentation: bool = False, language: str | None = None) -> int:
    """Render the window offscreen at ``size``, at ``step`` of ``lesson``, to a PNG."""
    if "QT_QPA_PLATFORM" not in os.environ and not os.environ.get("DISPLAY"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    width, height = _size(size)
    folder = Path(tempfile.mkdtemp(prefix="tensorlab-shot-"))
    settings = QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat)
    # A scratch folder for settings and saved steps: a screenshot shows the lesson as shipped.
    window = build_window(settings, lesson=lesson, device=device, language=language, data_dir=folder)
    window.resize(width, height)
    window.set_presentation(presentation)
    window.show()
    QApplication.processEvents()
    window.apply_default_layout()
    if step is not None:
        window.controller.go_to(step)
        window.controller.wait_idle()
    from PySide6.QtCore import QDeadlineTimer

    deadline = QDeadlineTimer(1400)   # the map's flash of what changed fades out first
    while not deadline.hasExpired():
        QApplication.processEvents()
    ok = window.grab().save(path)
    window.controller.shutdown()
    shutil.rmtree(folder, ignore_errors=True)
    if not ok:
        print(f"tensorlab: could not write {path}", file=sys.stderr)
        return 2
    print(f"saved {path}")
    return 0


def main(args: argparse.Namespace | None = None) -> int:
    """Open the desktop app (or render a screenshot) and return the exit status."""
    if args is None:
        from tensorlab.cli.main import main as cli_main

        return cli_main()
    from tensorlab.ui.window import qt_check

    found = [] if os.environ.get("QT_QPA_PLATFORM") == "offscreen" else qt_check.problems()
    if found and args.screenshot:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"   # a screenshot needs no screen
    elif found:
        sys.stderr.write(qt_check.explain(found))
        return 1
    qt_check.no_core_dumps()
    from tensorlab.core.engine.process_engine import prestart

    # Torch loads in the fork server while Qt loads and the window builds itself here.
    prestart()
    device = args.device
    if device is not None:
        try:
            device = canonical_device(device)
        except DeviceError as exc:
            print(f"tensorlab: {exc}", file=sys.stderr)
            return 2
    if args.lesson is not None and args.lesson != "scratchpad":
        try:
            find_lesson(args.lesson)
        except LessonError as exc:
            print(f"tensorlab: {exc}", file=sys.stderr)
            return 2
    memory_limit = None
    if getattr(args, "memory_limit", None):
        from tensorlab.core.protocol.limits import parse_size

        try:
            memory_limit = parse_size(args.memory_limit)
        except ValueError as exc:
            print(f"tensorlab: {exc}", file=sys.stderr)
            return 2
    if args.screenshot:
        return screenshot(args.screenshot, args.lesson, args.step, args.size, device, args.presentation,
                          args.language)
    app = _application()
    from tensorlab.ui.window import crash_report

    crash_report.install(crash_report.setup_logging())
    window = build_window(lesson=args.lesson, device=device, language=args.language, wait=False,
                          memory_limit=memory_limit)
    if args.presentation:
        window.set_presentation(True)
    if args.step is not None:
        window.controller.go_to(args.step)
    window.show()
    return app.exec()
