"""Issue #16 in the window: a loop typed into the code line is one step (its body shown with it, its
iterations counted), and the tensors inside a tuple are rows of the table, bands of the map."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLineEdit

from tests.ui.conftest import idle


def _run_line(window, qtbot, code: str) -> None:
    line = window.findChild(QLineEdit, "codeLine")
    line.setText(code)
    qtbot.keyClick(line, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    idle(qtbot, window)


def test_a_loop_is_one_step_and_parts_are_rows(window, qtbot):
    picker = window.findChild(QComboBox, "lessonPicker")
    picker.setCurrentIndex(picker.findData("scratchpad"))
    picker.activated.emit(picker.currentIndex())
    idle(qtbot, window)
    steps = len(window.code_view.lines)
    _run_line(window, qtbot, "w = torch.arange(4.0)")
    _run_line(window, qtbot, "for i in range(3): w.add_(1); print(i)")
    assert len(window.code_view.lines) == steps + 2
    assert "for i in range(3): w.add_(1); print(i)" in window.code_view.lines[-1]
    text = window.output_view.toPlainText()
    assert "The loop ran 3 iterations to their end." in text and "0\n1\n2" in text
    _run_line(window, qtbot, "parts = w.unbind()")
    model = window.table.table_model
    names = [model.data(model.index(r, 0)) for r in range(model.rowCount())]
    assert names[-4:] == ["parts[0]", "parts[1]", "parts[2]", "parts[3]"]
    bands = {item.data(0) for item in window.storage_map.band_items()}
    assert {"w", "parts[0]", "parts[3]"} <= bands
    strips = [strip for strip in window.storage_map.strips if any(b.name == "parts[0]" for b in strip.bands)]
    assert len(strips) == 1 and {b.name for b in strips[0].bands} >= {"w", "parts[0]"}
    assert "parts[0]" in window.findChild(QLineEdit, "codeLine").candidates("par")
