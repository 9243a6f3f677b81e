"""The Copy matrix dock: rows from the worker, tooltips in both languages, a click steps through a row."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tensorlab.core.protocol.copy_rows import COLUMNS, OPERATIONS, operation_lines
from tensorlab.core.tools.copy_probe import copy_matrix
from tensorlab.ui.program.controller import LabController
from tensorlab.ui.tools.copy_matrix import CopyMatrixPanel
from tensorlab.ui.widgets import i18n


@pytest.fixture
def panel(qtbot):
    controller = LabController()
    widget = CopyMatrixPanel(controller)
    qtbot.addWidget(widget)
    widget.resize(1200, 600)
    widget.show()  # the first show computes the rows in the worker
    qtbot.waitUntil(lambda: widget.matrix is not None, timeout=30_000)
    qtbot.waitUntil(lambda: not controller.busy, timeout=30_000)
    yield widget
    controller.shutdown()
    i18n.set_language("en")


def _cell(model, row, column, role=Qt.ItemDataRole.DisplayRole):
    return model.data(model.index(row, column), role)


def test_the_table_shows_what_torch_said_for_every_cell(panel):
    direct = {(r.x, r.operation): r for r in copy_matrix().rows}
    assert panel.matrix.rows == tuple(direct.values())  # the worker's rows are plain torch's rows
    for index in range(panel.kind_picker.count()):
        panel.kind_picker.setCurrentIndex(index)
        kind = panel.kind_picker.currentData()
        model = panel.model
        assert model.rowCount() == len(OPERATIONS)
        for row, operation in enumerate(OPERATIONS):
            expected = direct[(kind, operation)]
            assert _cell(model, row, 0) == f"y = {operation}"
            for column, name in enumerate(COLUMNS, start=1):
                value = getattr(expected, name)
                shown = _cell(model, row, column)
                if value is True:
                    assert shown == "yes"
                elif value is False:
                    assert shown == "no"
                elif name == "grad_fn" and value is None and expected.raises is None:
                    assert shown == "None"
                else:
                    assert shown == ("–" if value is None else str(value))


def test_every_cell_has_a_tooltip_in_both_languages(panel):
    model = panel.model
    english = [[_cell(model, r, c, Qt.ItemDataRole.ToolTipRole) for c in range(len(COLUMNS) + 1)]
               for r in range(model.rowCount())]
    headers = [model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
               for c in range(len(COLUMNS) + 1)]
    assert all(tip for row in english for tip in row) and all(headers)
    warned = OPERATIONS.index("torch.tensor(x)")
    assert "detach().clone()" in english[warned][COLUMNS.index("warns") + 1]
    raised = OPERATIONS.index("x.numpy()")
    assert "RuntimeError" in english[raised][COLUMNS.index("raises") + 1]
    i18n.set_language("ko")
    korean = [[_cell(model, r, c, Qt.ItemDataRole.ToolTipRole) for c in range(len(COLUMNS) + 1)]
              for r in range(model.rowCount())]
    for en_row, ko_row in zip(english, korean):
        for en, ko in zip(en_row, ko_row):
            assert ko and ko != en
    assert _cell(model, 0, 1) == "예"
    assert model.headerData(1, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole) == "같은 객체?"


def test_clicking_a_row_puts_it_into_the_scratchpad_to_step_through(qtbot, panel):
    controller = panel.controller
    panel.kind_picker.setCurrentIndex(panel.kind_picker.findData("non-leaf"))
    row = OPERATIONS.index("x.detach()")
    rect = panel.table.visualRect(panel.model.index(row, 0))
    with qtbot.waitSignal(panel.loaded, timeout=60_000):
        qtbot.mouseClick(panel.table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: not controller.busy, timeout=30_000)
    state = controller.state
    lines = operation_lines("x.detach()", "non-leaf")
    assert state.lesson is None  # the scratchpad
    assert [s.code for s in state.program][-len(lines):] == list(lines)
    assert state.position == len(state.program) - len(lines)
    for _ in lines:
        controller.step_forward()
        qtbot.waitUntil(lambda: not controller.busy, timeout=30_000)
    snapshot = controller.state.snapshot
    x, y = snapshot.tensor("x"), snapshot.tensor("y")
    matrix_row = next(r for r in panel.matrix.rows if (r.x, r.operation) == ("non-leaf", "x.detach()"))
    assert (x.storage == y.storage) == matrix_row.shares_storage
    assert y.requires_grad == matrix_row.requires_grad and y.is_leaf == matrix_row.is_leaf
    assert "y = x.detach()" in panel.message.text() or "x.detach()" in panel.message.text()
