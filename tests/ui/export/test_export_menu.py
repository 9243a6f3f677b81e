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
        # The first time, it floats over the window at the size its table and plot ask for (at least
        # 560x420), on the screen (the offscreen screen is narrower than this window).
        screen = window.screen().availableGeometry()
        wanted = dock.widget().sizeHint()
        assert dock.isFloating()
        assert dock.width() >= min(max(560, wanted.width()), screen.width() - 16)
        assert dock.height() >= min(max(420, wanted.height()), screen.height() - 16)
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


def test_map_only_slides_hold_every_strip_uncut_without_scroll_bars(qtbot, tmp_path):
    """At 1024x768 in projector mode the map scrolls; its slide is the whole map, never a view of part of it."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage

    from tensorlab.ui.export.slides import map_slide
    from tensorlab.ui.window.offscreen import isolated_window

    with isolated_window(lesson="views-share-storage", size=(1024, 768), presentation=True) as window:
        window.controller.run_to_end()
        idle(qtbot, window)
        view = window.storage_map
        scale = view.transform().m11()
        scene = view.scene().sceneRect()
        picture = map_slide(view).toImage()
        size = picture.deviceIndependentSize()
        assert size.width() >= scene.width() * scale - 1 and size.height() >= scene.height() * scale - 1
        assert size.width() >= view.viewport().width() and size.height() >= view.viewport().height()
        # Every strip lies inside the picture (the scene's origin at the picture's corner).
        inside = QRectF(0, 0, size.width(), size.height())
        for rect in view.strip_rects.values():
            moved = QRectF((rect.left() - scene.left()) * scale, (rect.top() - scene.top()) * scale,
                           rect.width() * scale, rect.height() * scale)
            assert inside.contains(moved), (moved, inside)
        saved = window.exporter.slides(tmp_path / "slides", map_only=True)
        last = QImage(str(saved[-1]))
        assert last.width() >= picture.width() - 2 and last.height() >= picture.height() - 2


def test_a_scratchpad_export_prints_what_its_steps_showed(window, qtbot, tmp_path):
    """A scratchpad is mostly looks (`x`, `x.grad`): its script prints each value TensorLab showed, as
    the app's Output did, and nothing where it showed nothing (`s.backward()` returns None)."""
    window.open_lesson(None)
    idle(qtbot, window)
    codes = ["x = torch.ones(2, requires_grad=True)", "print(x * 2)", "x  # look at it", "s = (x * 3).sum()",
             "s.backward()", "x.grad", "x.grad.add_(1)", "x.view(3)"]
    for code in codes:
        assert window.controller.submit(code) is None
        idle(qtbot, window)
    results = window.controller.state.results
    script = tmp_path / "pad.py"
    window.exporter.export("py", script)
    qtbot.waitUntil(script.exists, timeout=30_000)
    text = script.read_text(encoding="utf-8")
    assert "print(x)\n" in text and "print(x.grad)\n" in text and "\ns.backward()\n" in text
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    shown = "".join(r.output + (f"{r.value}\n" if r.value is not None and r.error is None else "")
                    + (f"{r.error.type}: {r.error.message}\n" if r.error is not None else "") for r in results)
    assert done.stdout == shown


def test_the_scratchpads_last_step_is_not_the_end_of_a_lesson(window, qtbot):
    window.open_lesson(None)
    idle(qtbot, window)
    assert window.controller.submit("x = torch.ones(2)") is None
    idle(qtbot, window)
    note = window.narration.note.text()
    assert "End of the lesson" not in note and "latest step" in note
    window.controller.go_to(0)
    idle(qtbot, window)
    window.controller.run_to_end()
    idle(qtbot, window)
    assert "End of the lesson" not in window.narration.note.text()
