"""A UI monkey test (issue 9): 1,000 seeded random actions through the real widgets, 0 unhandled exceptions.

Every exception that reaches ``sys.excepthook`` (Qt slots and virtual methods end
there) and every panel failure logged by the panel guard counts as a failure.
"""

from __future__ import annotations

import logging
import os
import random
import sys
import traceback

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QComboBox, QDockWidget, QLineEdit, QPushButton

ACTIONS = 1000
SEED = int(os.environ.get("TENSORLAB_MONKEY_SEED", "20240611"))   # another seed explores further
STATEMENTS = [
    "x = torch.ones(4, requires_grad=True)", "y = x.detach()", "z = x.clone()", "w = x.sigmoid()",
    "s = (x * 2).sum()", "s.backward()", "y[0] = 5", "x.grad = None", "v = torch.zeros(2, 0)",
    "c = torch.tensor([1+2j, 3-1j])", "m = torch.arange(6.0).view(2, 3)", "t = m.t()", "e = m[:, 1]",
    "b = torch.tensor([True, False])", "q = torch.full((3,), 12345.678)", "big = torch.zeros(20000)",
    "with torch.no_grad():\n    x[0] = 2", "a, d = torch.ones(4).split(2)", "print(x)", "x.add_(1)",
    "open('/etc/passwd')", "import os", "x = ", "lambda: 1", "y = undefined_name + 1", "",
    "k = torch.ones(10**9)", "r = torch.randn(3, 3) @ torch.randn(3, 3)", "h = x.data", "h.zero_()",
]
TEXTS = ["", "x", "y", "5", "-1", "1:3", "float64", "0", "2", "abc", "1e30", "((", "* 2", "torch", "9" * 30,
         "q", "x[0]", "é", "3, 4"]
KEYS = ["Right", "Right", "Right", "Left", "Space", "Home", "End", "1", "2", "3", "4", "Return", "Escape"]


class Monkey:
    """Random actions on a window, each through a real widget (or a real key press)."""

    def __init__(self, window, qtbot, rng: random.Random) -> None:
        self.window, self.qtbot, self.rng = window, qtbot, rng
        self.log: list[str] = []

    def act(self) -> None:
        name, action = self.rng.choice(self.menu())
        self.log.append(name)
        action()

    def menu(self):
        w, rng = self.window, self.rng
        table = [("key", self.key)] * 8 + [("ctrl key", self.ctrl_key)] * 2 + [
            ("button", self.button)] * 5 + [("combo", self.combo)] * 3 + [("type", self.type_text)] * 3 + [
            ("code line", self.code_line)] * 6 + [("code click", self.code_click)] * 2 + [
            ("code delete", self.code_delete)] + [("table", self.table_row)] * 2 + [("map click", self.map_click)] + [
            ("lesson", self.lesson)] + [("dock", self.dock)] + [("choice", self.choice)] * 2 + [
            ("graph", self.graph)]
        if rng.random() < 0.05:
            table += [("resize", self.resize), ("language", self.language), ("vote", w.commands.class_vote.trigger),
                      ("reset layout", w.commands.reset_layout.trigger), ("F5", lambda: self.press("F5"))]
        return table

    def press(self, key: str, modifier=Qt.KeyboardModifier.NoModifier) -> None:
        target = QApplication.focusWidget() or self.window.storage_map
        self.qtbot.keyClick(target, getattr(Qt.Key, f"Key_{key}"), modifier)

    def key(self) -> None:
        self.press(self.rng.choice(KEYS))

    def ctrl_key(self) -> None:
        self.press(self.rng.choice(["Z", "Equal", "Minus", "0", "Return"]), Qt.KeyboardModifier.ControlModifier)

    def button(self) -> None:
        buttons = [b for b in self.window.builders.findChildren(QPushButton) if b.isVisible() and b.isEnabled()]
        if buttons:
            self.qtbot.mouseClick(self.rng.choice(buttons), Qt.MouseButton.LeftButton)

    def combo(self) -> None:
        combos = [c for c in self.window.builders.findChildren(QComboBox) if c.isVisible() and c.count()]
        if combos:
            combo = self.rng.choice(combos)
            combo.setCurrentIndex(self.rng.randrange(combo.count()))
            combo.activated.emit(combo.currentIndex())

    def type_text(self) -> None:
        edits = [e for e in self.window.builders.findChildren(QLineEdit) if e.isVisible()]
        if edits:
            edit = self.rng.choice(edits)
            edit.setFocus()
            edit.selectAll()
            text = self.rng.choice(TEXTS)
            if text.isascii():
                self.qtbot.keyClicks(edit, text)
            else:
                edit.insert(text)    # QTest types ASCII only
            if self.rng.random() < 0.5:
                self.qtbot.keyClick(edit, Qt.Key.Key_Return)

    def code_line(self) -> None:
        edit = self.window.builders.code_line.edit
        edit.setText(self.rng.choice(STATEMENTS))
        edit.setFocus()
        self.qtbot.keyClick(edit, Qt.Key.Key_Return)

    def code_click(self) -> None:
        code = self.window.code_view
        if code.count():
            rect = code.visualItemRect(code.item(self.rng.randrange(code.count())))
            if rect.isValid():
                self.qtbot.mouseClick(code.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())

    def code_delete(self) -> None:
        code = self.window.code_view
        if code.count():
            code.setCurrentRow(self.rng.randrange(code.count()))
            code.setFocus()
            self.qtbot.keyClick(code, Qt.Key.Key_Delete)

    def table_row(self) -> None:
        table = self.window.table
        rows = table.table_model.rowCount()
        if rows:
            table.selectRow(self.rng.randrange(rows))

    def map_click(self) -> None:
        view = self.window.storage_map
        bands = view.band_items()
        if bands:
            point = view.mapFromScene(self.rng.choice(bands).sceneBoundingRect().center())
            self.qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=point)

    def lesson(self) -> None:
        picker = self.window.lesson_picker
        if picker.isEnabled():
            picker.setCurrentIndex(self.rng.randrange(picker.count()))
            picker.activated.emit(picker.currentIndex())

    def dock(self) -> None:
        docks = self.window.findChildren(QDockWidget)
        dock = self.rng.choice(docks)
        dock.toggleViewAction().trigger()
        if self.rng.random() < 0.7 and not dock.isVisible():
            dock.toggleViewAction().trigger()

    def choice(self) -> None:
        buttons = self.window.narration.choice_buttons
        if buttons:
            self.qtbot.mouseClick(self.rng.choice(buttons), Qt.MouseButton.LeftButton)

    def graph(self) -> None:
        view = self.window.graph_view
        if self.rng.random() < 0.5:
            view.fit()
        else:
            view.set_zoom(view.zoom * self.rng.choice([0.5, 0.8, 1.25, 2.0]))
            view.centerOn(QPoint(self.rng.randrange(400), self.rng.randrange(400)))

    def resize(self) -> None:
        self.window.resize(*self.rng.choice([(1024, 768), (1280, 720), (1920, 1080), (900, 600)]))

    def language(self) -> None:
        picker = self.window.language_picker
        picker.setCurrentIndex(self.rng.randrange(picker.count()))
        picker.activated.emit(picker.currentIndex())


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.mark.qt_no_exception_capture
def test_a_thousand_random_actions_raise_nothing(window, qtbot):
    from tensorlab.ui.widgets import i18n

    unhandled: list[str] = []
    saved_hook = sys.excepthook
    sys.excepthook = lambda kind, value, tb: unhandled.append("".join(traceback.format_exception(kind, value, tb)))
    errors = _Errors()
    logging.getLogger("tensorlab").addHandler(errors)
    monkey = Monkey(window, qtbot, random.Random(SEED))
    try:
        window.activateWindow()
        for number in range(ACTIONS):
            monkey.act()
            QApplication.processEvents()
            if monkey.rng.random() < 0.6:
                window.controller.wait_idle(20_000)
            if unhandled or errors.records:
                pytest.fail(f"after action {number} (the last: {monkey.log[-15:]}):\n" + "\n".join(
                    unhandled + [f"{r.getMessage()}\n{r.exc_text or ''}" for r in errors.records]), pytrace=False)
        window.controller.wait_idle(30_000)
    finally:
        sys.excepthook = saved_hook
        logging.getLogger("tensorlab").removeHandler(errors)
        i18n.set_language("en")
    assert not unhandled
    assert window.isVisible() and not window.controller.busy
