"""Issue #21, review r21f: a tensor that a statement of an opened file that is not run may have changed in place is
shown with words that say so, the same in the Tensors table, on the storage map and in `run --json`; every other
tensor is shown without them."""

from __future__ import annotations

from PySide6.QtWidgets import QGraphicsSimpleTextItem

from tensorlab.core.lessons.play_through import iter_lesson
from tensorlab.core.lessons.source_import import parse_python
from tensorlab.core.protocol.snapshot import Snapshot
from tensorlab.core.worker.in_process import LocalEngine
from tensorlab.ui.panels.storage_map import StorageMapView
from tensorlab.ui.panels.storage_strips import strip_models
from tensorlab.ui.panels.tensor_table import COLUMNS, TensorTable
from tensorlab.ui.widgets import i18n
from tests.ui.support import hovered_tip

# Line 7 stores nothing TensorLab runs: `lst` is made by a refused statement, so the append and the change through
# it are refused; in Python `lst[0].mul_(2)` doubles `w`. `v` and `u` are never stored anywhere.
FILE = ("import torch\n"
        "import numpy as np\n"
        "w = torch.ones(3)\n"
        "v = torch.zeros(2)\n"
        "lst = list(np.zeros(0))\n"
        "lst.append(w)\n"
        "lst[0].mul_(2)\n"
        "u = v + 1\n")


def _last_snapshots() -> tuple[Snapshot, Snapshot]:
    lesson = parse_python(FILE, "stores.py")
    engine = LocalEngine()
    try:
        results = list(iter_lesson(lesson, engine))
    finally:
        engine.close()
    assert [r.code for r in results] == ["import torch", "w = torch.ones(3)", "v = torch.zeros(2)", "u = v + 1"]
    return results[-1].snapshot, results[-2].snapshot


def test_the_table_says_in_words_that_the_changed_tensor_may_differ_and_only_that_one(qtbot):
    snapshot, previous = _last_snapshots()
    assert snapshot.tensor("w").may_differ == (7, 0)
    assert snapshot.tensor("v").may_differ is None and snapshot.tensor("u").may_differ is None
    table = TensorTable()
    qtbot.addWidget(table)
    table.resize(1200, 300)
    table.show()
    qtbot.waitExposed(table)
    table.set_snapshot(snapshot, previous)
    model = table.table_model
    rows = {name: table.table_model.row_of(name) for name in ("w", "v", "u")}
    assert model.data(model.index(rows["w"], 0)) == "w · may differ (line 7 not run)"
    assert table.shown_name(rows["w"]) == "w · may differ (line 7 not run)"   # drawn whole where there is room
    tip = hovered_tip(table, model.index(rows["w"], 0))
    assert "The statement at line 7 of the file is not run" in tip and "may change this tensor in place" in tip
    for name in ("v", "u"):
        assert model.data(model.index(rows[name], 0)) == name
        assert "may differ" not in table.shown_name(rows[name])
        assert "not run" not in hovered_tip(table, model.index(rows[name], 0))
    # The other cells are the tensor's own, as before (the mark is no value).
    assert model.data(model.index(rows["w"], COLUMNS.index("shape"))) == "[3]"


def test_a_narrow_table_keeps_the_name_and_as_much_of_the_mark_as_fits(qtbot):
    snapshot, previous = _last_snapshots()
    table = TensorTable()
    qtbot.addWidget(table)
    table.resize(420, 300)
    table.show()
    qtbot.waitExposed(table)
    table.set_snapshot(snapshot, previous)
    shown = table.shown_name(table.table_model.row_of("w"))
    assert shown.startswith("w · may"), shown   # the row still says which tensor it is, and that it may differ


def test_the_mark_is_said_in_korean_after_a_language_change(qtbot):
    snapshot, previous = _last_snapshots()
    table = TensorTable()
    qtbot.addWidget(table)
    table.set_snapshot(snapshot, previous)
    i18n.set_language("ko")
    try:
        table.table_model.retranslate()
        row = table.table_model.row_of("w")
        assert table.table_model.data(table.table_model.index(row, 0)) == "w · 다를 수 있음(7번째 줄 실행 안 함)"
        assert "파일의 7번째 줄의 문장은 TensorLab에서 실행하지 않지만" in table.table_model.tool_tip(
            table.table_model.index(row, 0))
    finally:
        i18n.set_language("en")
        table.table_model.retranslate()
    assert table.table_model.data(table.table_model.index(row, 0)) == "w · may differ (line 7 not run)"


def test_the_map_s_band_label_says_the_same_for_the_changed_tensor_only(qtbot):
    snapshot, previous = _last_snapshots()
    bands = {band.name: band for strip in strip_models(snapshot, previous) for band in strip.bands}
    assert bands["w"].label.startswith("may differ (line 7 not run) · [3] stride")
    assert not any("may differ" in bands[name].label for name in ("v", "u"))
    view = StorageMapView()
    qtbot.addWidget(view)
    view.resize(900, 600)
    view.show()
    qtbot.waitExposed(view)
    view.show_snapshot(snapshot, previous)
    texts = [item.text() for item in view.scene().items() if isinstance(item, QGraphicsSimpleTextItem)]
    assert any("may differ (line 7 not run)" in text for text in texts), texts
    tips = {item.text(): item.toolTip() for item in view.scene().items() if isinstance(item, QGraphicsSimpleTextItem)}
    assert tips["w"].startswith("may differ (line 7 not run)") and "may differ" not in tips["v"]


def test_nothing_is_marked_in_a_file_where_every_statement_runs():
    lesson = parse_python("import torch\nw = torch.ones(3)\nlst = [w]\nlst[0].mul_(2)\nprint(w)\n", "all.py")
    engine = LocalEngine()
    try:
        results = list(iter_lesson(lesson, engine))
    finally:
        engine.close()
    assert all(t.may_differ is None for r in results for t in r.snapshot.tensors)


# -- review r21f: a 300,000-line statement of a file is shown cut, as the Narration cuts it ------------------------

def test_a_very_long_statement_is_echoed_in_the_output_by_its_first_lines_only(qtbot):
    from tensorlab.core.protocol.results import StepResult
    from tensorlab.ui.panels.output_view import OutputView

    code = "y = [1,\n" + "1,\n" * 300_000 + "]"
    view = OutputView()
    qtbot.addWidget(view)
    view.show_result(StepResult(2, code, None, (), "", None, Snapshot()))
    shown = view.toPlainText()
    assert shown.count("1,") == 12 and "… 299,990 more lines (not shown)" in shown   # `y = [1,` and 11 more
    i18n.set_language("ko")
    try:
        view.show_result(StepResult(2, code, None, (), "", None, Snapshot()))
        assert "… 299,990줄이 더 있습니다(표시하지 않습니다)" in view.toPlainText()
    finally:
        i18n.set_language("en")


def test_a_short_statement_is_shown_whole():
    from tensorlab.core.lessons.source_import import shown_code

    code = "\n".join(f"x{n} = 1" for n in range(14))
    assert shown_code(code) == code                               # 14 lines: whole (two more than 12)
    longer = code + "\nx14 = 1"
    assert shown_code(longer) == "\n".join(longer.split("\n")[:12]) + "\n… 3 more lines (not shown)"


def test_a_long_name_in_a_narrow_cell_keeps_the_marks_words(qapp):
    # Review r21g 7: at 1024x768 `model.weight · may differ (line 11 not run)` was drawn `m…weight`, the mark gone.
    from PySide6.QtGui import QFont, QFontMetricsF

    from tensorlab.ui.panels.tensor_table import marked_name

    font = QFont()
    font.setPixelSize(13)
    metrics = QFontMetricsF(font)
    mark = "may differ (line 11 not run)"
    width = metrics.horizontalAdvance("m…weight · may differ")
    shown = marked_name("model.weight", mark, metrics, width, ["model.bias", "x"])
    assert shown.endswith(" · may differ") and shown.startswith("m") and "weight" in shown, shown
    assert metrics.horizontalAdvance(shown) <= width
    wide = metrics.horizontalAdvance("model.weight · " + mark)
    assert marked_name("model.weight", mark, metrics, wide, ["model.bias"]) == "model.weight · " + mark
