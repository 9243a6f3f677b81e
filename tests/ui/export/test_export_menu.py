"""The window's Export menu and its two new docks (Measure, Copy matrix)."""

from __future__ import annotations

import subprocess
import sys

import nbformat
from PySide6.QtWidgets import QDockWidget

from tensorlab.core.engine.player import program_as_lesson
from tensorlab.core.export.program_files import export_script
from tensorlab.core.export.step_errors import program_errors
from tests.ui.conftest import idle


def test_the_view_menu_shows_the_measure_and_copy_matrix_docks(window, qtbot):
    for name in ("measureDock", "copyMatrixDock"):
        dock = window.findChild(QDockWidget, name)
        assert dock is not None and dock.isHidden()
        assert dock.toggleViewAction() in window.view_menu.actions()
        dock.toggleViewAction().trigger()
        qtbot.waitUntil(dock.isVisible)
        # The first time, it floats over the window, large enough for its table and plot, on the screen
        # (the offscreen screen is narrower than this window).
        screen = window.screen().availableGeometry()
        assert dock.isFloating() and dock.width() >= min(window.width() * 0.7, screen.width() - 16)
        assert screen.contains(dock.frameGeometry())
        idle(qtbot, window)
    assert window.copy_matrix.matrix is not None  # shown, so computed in the worker


def test_the_export_menu_offers_script_notebook_and_slides(window):
    menu = window.findChild(type(window.menuBar().actions()[0].menu()), "exportMenu")
    names = [a.objectName() for a in menu.actions()]
    assert names == ["exportScriptAction", "exportNotebookAction", "exportSlidesAction", "exportMapSlidesAction"]
    assert menu.actions()[0].shortcut().toString() == "Ctrl+E"


def test_exported_script_and_notebook_follow_the_program(window, qtbot, tmp_path):
    window.controller.run_to_end()
    idle(qtbot, window)
    assert window.controller.submit("z = x.detach()") is None  # a step of yours is exported too
    idle(qtbot, window)
    state = window.controller.state
    lesson = program_as_lesson(state.lesson, state.program)
    assert lesson.steps[-1].code == "z = x.detach()" and lesson.id.endswith("-mine")
    script, notebook = tmp_path / "s.py", tmp_path / "s.ipynb"
    window.exporter.export("py", script)
    qtbot.waitUntil(script.exists, timeout=30_000)
    codes = [s.code for s in lesson.steps]
    assert script.read_text(encoding="utf-8") == export_script(lesson, program_errors(codes))
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    printed = "".join(r.output + (f"{r.error.type}: {r.error.message}\n" if r.error else "") for r in state.results)
    assert done.returncode == 0 and done.stdout == printed
    window.exporter.export("ipynb", notebook)
    qtbot.waitUntil(notebook.exists, timeout=30_000)
    nbformat.validate(nbformat.read(str(notebook), as_version=4))
    # The live session was not disturbed: stepping on still works from the same state.
    assert window.controller.state.position == len(state.program)


def test_slides_from_the_window_one_png_per_step(window, qtbot, tmp_path):
    window.controller.go_to(2)
    idle(qtbot, window)
    saved = window.exporter.slides(tmp_path / "slides", map_only=True)
    total = len(window.controller.state.program)
    assert [p.name for p in saved] == [f"{window.controller.state.lesson.id}-{n:02d}.png" for n in range(1, total + 1)]
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in saved)
    assert window.controller.state.position == 2  # back where it was


_NO_TORCH = """
import os, sys
os.environ["QT_QPA_PLATFORM"] = "offscreen"
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QDockWidget


def main():
    from tensorlab.ui.window.build import build_window

    window = build_window(QSettings(sys.argv[1], QSettings.Format.IniFormat))
    window.show()
    for name in ("measureDock", "copyMatrixDock"):
        window.findChild(QDockWidget, name).toggleViewAction().trigger()
    window.measure_panel.min_run_time = 0.005
    for size, box in window.measure_panel.size_boxes.items():
        box.setChecked(size == 10)
    window.measure_panel.start()
    window.controller.wait_idle(60000)
    window.exporter.export("ipynb", sys.argv[2])
    window.controller.wait_idle(60000)
    ok = window.measure_panel.result is not None and window.copy_matrix.matrix is not None
    print("torch" in sys.modules, ok, os.path.exists(sys.argv[2]))
    window.close()


if __name__ == "__main__":
    main()
"""


def test_the_window_process_never_imports_torch_for_the_new_docks_and_exports(tmp_path):
    script = tmp_path / "no_torch.py"
    script.write_text(_NO_TORCH, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script), str(tmp_path / "s.ini"), str(tmp_path / "n.ipynb")],
                          capture_output=True, text=True, timeout=300)
    assert done.stdout.split() == ["False", "True", "True"], done.stderr


def test_an_export_that_fails_its_own_check_writes_nothing_and_says_why(window, qtbot, tmp_path, monkeypatch):
    """Issue #15: the export checks what it made before writing; refused, the window says so in its language."""
    from tensorlab.core.export.verify import ExportRefused
    from tensorlab.core.messages.catalogue import msg
    from tensorlab.ui.export import export_actions

    def refused(*args, **kwargs):
        raise ExportRefused(msg("export.refused_subset", detail="import os"))

    monkeypatch.setattr(export_actions, "export_script", refused)
    said: list[str] = []
    monkeypatch.setattr(window.exporter, "_say", said.append)
    script = tmp_path / "s.py"
    window.exporter.export("py", script)
    qtbot.waitUntil(lambda: bool(said), timeout=30_000)
    assert not script.exists()
    assert said[0].startswith("TensorLab did not write the export") and "import os" in said[0]
