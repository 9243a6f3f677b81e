"""A panel's bug stays in that panel; unexpected errors cost a dialog; start-up explains itself (issues 6, 9)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox

from tensorlab.ui.widgets.panel_errors import PanelNotice
from tensorlab.ui.window import crash_report, qt_check
from tests.ui.support import open_lesson, run_line

ROOT = Path(__file__).resolve().parents[3]


def _notice(panel):
    return panel.findChild(PanelNotice, "panelNotice")


def test_an_empty_tensor_is_shown_without_errors(window, qtbot, caplog):
    open_lesson(window, qtbot, "scratchpad")
    with caplog.at_level(logging.ERROR, logger="tensorlab"):
        run_line(window, qtbot, "z = torch.zeros(2, 0)")
        window.table.select_name("z")
        window.show_state(window.controller.state)
    assert not caplog.records
    assert window.values_view.info.name == "z"
    assert "no elements" in window.values_view.values_plot.note.text()
    for panel in (window.values_view, window.storage_map, window.table, window.graph_view):
        assert _notice(panel) is None or not _notice(panel).isVisible()


def test_an_exception_in_one_panel_is_logged_and_shown_there_and_the_others_still_update(
        window, qtbot, monkeypatch, caplog):
    from tensorlab.ui.panels import values_view

    def broken(*_args, **_kwargs):
        raise ValueError("a drawing bug")

    open_lesson(window, qtbot, "scratchpad")
    monkeypatch.setattr(values_view, "_numeric", broken)
    with caplog.at_level(logging.ERROR, logger="tensorlab"):
        run_line(window, qtbot, "x = torch.ones(3)")
    notice = _notice(window.values_view)
    assert notice is not None and notice.isVisible()
    assert "ValueError: a drawing bug" in notice.text()
    assert any("a drawing bug" in r.getMessage() or "a drawing bug" in str(r.exc_info) for r in caplog.records)
    # The other panels updated.
    assert window.table.table_model.row_of("x") == 0
    assert any(text.startswith("S0") for text in window.storage_map.texts())
    assert window.code_view.lines == ["▶ x = torch.ones(3)"]
    monkeypatch.undo()
    run_line(window, qtbot, "y = x * 2")
    assert not notice.isVisible()               # the panel works again: the notice goes


@pytest.mark.qt_no_exception_capture
def test_an_unexpected_exception_shows_a_dialog_with_the_log_path_and_the_window_lives(window, qtbot, tmp_path):
    log_path = crash_report.setup_logging(tmp_path / "log")
    saved_hook = sys.excepthook
    reporter = crash_report.install(log_path)
    try:
        def boom():
            raise RuntimeError("something nobody expected")

        QTimer.singleShot(0, boom)
        qtbot.waitUntil(lambda: reporter.dialog is not None and reporter.dialog.isVisible(), timeout=5000)
        assert str(log_path) in reporter.dialog.text()
        assert "something nobody expected" in reporter.dialog.detailedText()
        for handler in logging.getLogger("tensorlab").handlers:
            handler.flush()
        assert "RuntimeError: something nobody expected" in log_path.read_text()
        assert window.isVisible()
        reporter.dialog.close()
    finally:
        sys.excepthook = saved_hook
        for handler in list(logging.getLogger("tensorlab").handlers):
            if isinstance(handler, logging.FileHandler) and Path(handler.baseFilename).parent == log_path.parent:
                logging.getLogger("tensorlab").removeHandler(handler)
                handler.close()
    assert isinstance(reporter.dialog, QMessageBox)


def test_without_a_display_the_app_says_what_is_missing_and_exits_1():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    done = subprocess.run([sys.executable, "-m", "tensorlab"], capture_output=True, text=True, env=env,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 1, done.stderr
    assert "no display" in done.stderr and "tensorlab run" in done.stderr
    assert "Traceback" not in done.stderr and "core dumped" not in done.stderr


def test_missing_x11_libraries_are_named_with_the_package_to_install():
    missing = qt_check.missing_libraries({"libxcb-cursor-not-here.so.0": "libxcb-cursor0", "libc.so.6": "libc6"})
    assert missing == ["libxcb-cursor-not-here.so.0"]
    message = qt_check.explain(["Qt's X11 (xcb) platform plugin needs libraries that are not installed: "
                                "libxcb-cursor.so.0"])
    assert "sudo apt-get install libxcb-cursor0" in message
    assert qt_check.problems({"QT_QPA_PLATFORM": "offscreen"}) == []
    assert "no display" in qt_check.problems({})[0]


def test_the_window_never_imports_torch(tmp_path):
    script = tmp_path / "window_without_torch.py"
    script.write_text(textwrap.dedent(f"""
        import os, sys
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        sys.path.insert(0, {str(ROOT)!r})
        from PySide6.QtCore import QSettings
        from PySide6.QtWidgets import QApplication
        from tensorlab.ui.window.build import build_window

        if __name__ == "__main__":
            settings = QSettings({str(tmp_path / "s.ini")!r}, QSettings.Format.IniFormat)
            window = build_window(settings, data_dir={str(tmp_path / "data")!r})
            window.show()
            window.controller.step_forward()
            window.controller.wait_idle()
            window.set_presentation(True)
            QApplication.processEvents()
            assert window.controller.state.position == 1
            print("torch" in sys.modules)
            window.close()
    """))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=180, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "False"

