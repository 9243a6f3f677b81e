"""The tensors table's cells: texts, colours and highlights, compared with plain torch."""

from __future__ import annotations

import tomli_w
import torch
from PySide6.QtCore import Qt

from tensorlab.core.lessons.lesson import parse_lesson
from tensorlab.core.worker.in_process import run_lesson
from tensorlab.ui.panels.tensor_table import COLUMNS, TensorTable
from tensorlab.ui.widgets.palette import CHANGED, tensor_color
from tests.ui.support import hovered_tip


def test_a_step_highlights_the_cells_it_changed_and_names_keep_their_colour(qtbot):
    lesson = parse_lesson(tomli_w.dumps({"lesson": {"id": "t", "title": "t"}, "step": [
        {"code": "a = torch.ones(3)"}, {"code": "b = a.view(3)"}, {"code": "a.add_(1)"}]}))
    results = run_lesson(lesson)
    table = TensorTable()
    qtbot.addWidget(table)
    table.set_snapshot(results[2].snapshot, results[1].snapshot)
    model = table.table_model
    a = torch.ones(3)
    b = a.view(3)
    a.add_(1)
    version = COLUMNS.index("version")
    for row, tensor in enumerate((a, b)):
        assert model.data(model.index(row, version)) == str(tensor._version)
        assert model.data(model.index(row, version), Qt.ItemDataRole.BackgroundRole).color() == CHANGED
        assert model.data(model.index(row, 0), Qt.ItemDataRole.ForegroundRole).color() == tensor_color(row)
        assert model.data(model.index(row, 0), Qt.ItemDataRole.FontRole).bold()
        assert model.data(model.index(row, COLUMNS.index("dtype")), Qt.ItemDataRole.BackgroundRole) is None
    assert "version" in model.data(model.index(0, version), Qt.ItemDataRole.ToolTipRole)


def test_hovering_a_gradient_cell_shows_every_value_of_the_gradient_it_shows_now(qtbot):
    """The cell is cut at 40 characters; its tooltip, written on hover, has the whole gradient of the state shown
    (two gradients that begin alike: the second step's tooltip is the second one's)."""
    lesson = parse_lesson(tomli_w.dumps({"lesson": {"id": "t", "title": "t"}, "step": [
        {"code": "w = torch.ones(40, requires_grad=True)"}, {"code": "w.sum().backward()"},
        {"code": "w[20:].sum().backward()"}]}))
    results = run_lesson(lesson)
    w = torch.ones(40, requires_grad=True)
    w.sum().backward()
    first = str(w.grad.tolist())
    w[20:].sum().backward()
    second = str(w.grad.tolist())
    assert first[:39] == second[:39] and first != second   # the same cut text, other values
    table = TensorTable()
    qtbot.addWidget(table)
    table.resize(900, 300)
    table.show()
    qtbot.waitExposed(table)
    model = table.table_model
    table.set_snapshot(results[1].snapshot, results[0].snapshot)
    grad = model.index(0, COLUMNS.index("grad"))
    assert model.data(grad) == first[:39] + "…"
    tip = hovered_tip(table, grad)
    assert tip.startswith("grad: ") and first in tip
    table.set_snapshot(results[2].snapshot, results[1].snapshot)
    assert model.data(grad) == second[:39] + "…"
    tip = hovered_tip(table, grad)
    assert second in tip and first not in tip
    assert "shape" in hovered_tip(table, model.index(0, COLUMNS.index("shape")))   # the other cells as before


def test_korean_headers_are_korean_words_or_the_attributes_own_names(qapp):
    from tensorlab.ui.panels.tensor_table import header_text
    from tensorlab.ui.widgets import i18n

    i18n.set_language("ko")
    try:
        headers = {column: header_text(column) for column in COLUMNS}
    finally:
        i18n.set_language("en")
    assert headers["requires_grad"].replace("\n", "") == "requires_grad"      # not "req. grad"
    assert headers["is_leaf"].replace("\n", "") == "is_leaf"
    for column, text in headers.items():
        flat = text.replace("\n", "")
        assert flat in (column, "." + column) or not any("a" <= ch <= "z" for ch in flat), (column, text)
    assert header_text("requires_grad") == "req.\ngrad"                        # English keeps its compact one


def test_a_second_name_of_one_tensor_says_so_and_takes_its_colour(qtbot):
    """`alias = online`: alias.weight is online.weight (one object); sd['weight'] only shares the memory."""
    lesson = parse_lesson(tomli_w.dumps({"lesson": {"id": "t", "title": "t"}, "step": [
        {"code": "online = nn.Linear(2, 1, bias=False)"}, {"code": "alias = online"},
        {"code": "sd = online.state_dict()"}]}))
    results = run_lesson(lesson)
    online = torch.nn.Linear(2, 1, bias=False)
    alias, sd = online, online.state_dict()
    assert alias.weight is online.weight and sd["weight"] is not online.weight
    table = TensorTable()
    qtbot.addWidget(table)
    table.set_snapshot(results[1].snapshot, results[0].snapshot)
    table.set_snapshot(results[2].snapshot, results[1].snapshot)
    model = table.table_model
    names = [model.data(model.index(row, 0)) for row in range(model.rowCount())]
    assert names == ["online.weight", "alias.weight is online.weight", "sd['weight']"]
    colors = [model.data(model.index(row, 0), Qt.ItemDataRole.ForegroundRole).color() for row in range(3)]
    assert colors == [tensor_color(0), tensor_color(0), tensor_color(2)]
    # Selecting the row still names the tensor itself.
    assert model.row_of("alias.weight") == 1


def test_a_new_name_for_a_tensor_the_step_only_read_highlights_only_its_name(qtbot):
    # Review r16b finding 11: `p` is model.bias itself, and printing its gradient writes nothing.
    lesson = parse_lesson(tomli_w.dumps({"lesson": {"id": "t", "title": "t"}, "step": [
        {"code": "import torch.nn as nn"}, {"code": "model = nn.Linear(3, 1)"},
        {"code": "model(torch.ones(2, 3)).sum().backward()"},
        {"code": "for p in model.parameters():\n    print(p.grad)"}]}))
    results = run_lesson(lesson)
    assert all(r.ok for r in results)
    table = TensorTable()
    qtbot.addWidget(table)
    table.set_snapshot(results[3].snapshot, results[2].snapshot)
    changed = table.table_model.changed
    assert ("p", "name") in changed
    assert not {(name, column) for name, column in changed if column != "name"}
    assert not any(name == "model.bias" for name, _ in changed)


def test_a_cut_name_keeps_its_last_part_whole(qapp):
    # Review r16b finding 9 (issue 17): Qt's right eliding cut model.weight and model.bias to the same `mod…`.
    from PySide6.QtGui import QFont, QFontMetricsF

    from tensorlab.ui.panels.tensor_table import elide_name, last_part

    font = QFont()
    font.setBold(True)
    font.setPixelSize(13)
    metrics = QFontMetricsF(font)
    names = ["model.weight", "model.bias", "sd['weight']", "sd['bias']", "p is model.bias", "encoder.0.weight"]
    assert [last_part(n) for n in names] == ["weight", "bias", "['weight']", "['bias']", "bias", "weight"]
    for name in names:
        assert elide_name(name, metrics, metrics.horizontalAdvance(name)) == name     # fits: whole
        width = metrics.horizontalAdvance(name[:1] + "…" + last_part(name))
        if width >= metrics.horizontalAdvance(name):
            continue   # `sd['bias']`: its shortest cut is no narrower than the name
        cut = elide_name(name, metrics, width)
        assert cut.endswith(last_part(name)) and cut.startswith(name[0]) and "…" in cut, (name, cut)
        assert metrics.horizontalAdvance(cut) <= width
    # Too narrow for the last part: the end of the name, never wider than the cell.
    assert elide_name("model.weight", metrics, 30).startswith("…")
    assert metrics.horizontalAdvance(elide_name("model.weight", metrics, 30)) <= 30


def test_two_names_that_end_alike_never_look_the_same_when_cut(qtbot):
    # Issue 17 (round 2): at 1024x768 the table cut net[0].weight and net[1].weight to the same `n…weight`.
    lesson = parse_lesson(tomli_w.dumps({"lesson": {"id": "t", "title": "t"}, "step": [
        {"code": "net = torch.nn.Sequential(torch.nn.Linear(2, 2, bias=False), torch.nn.Linear(2, 1, bias=False))"},
        {"code": "loss = net(torch.ones(1, 2)).sum()"}]}))
    results = run_lesson(lesson)
    table = TensorTable()
    qtbot.addWidget(table)
    table.resize(300, 200)
    table.show()
    qtbot.waitExposed(table)
    table.set_snapshot(results[1].snapshot, results[0].snapshot)
    names = [t.name for t in results[1].snapshot.tensors]
    assert {"net[0].weight", "net[1].weight"} <= set(names)
    # (Too narrow for every short column whole, the table scrolls sideways, its names cut to what tells them
    # apart; at 340 px they are drawn whole.)
    for width in (240, 300):
        table.resize(width, 200)
        qtbot.wait(10)
        shown = [table.shown_name(row) for row in range(len(names))]
        assert any(s != n for s, n in zip(shown, names, strict=True)), (width, shown)   # some names are cut
        assert len(set(shown)) == len(shown), (width, shown)
        for name, text in zip(names, shown, strict=True):
            if name.startswith("net["):
                assert name[3:6] in text, (name, text)   # `[0]` / `[1]`: the part that tells them apart


def test_a_cut_name_keeps_the_end_that_tells_it_from_the_others(qapp):
    from PySide6.QtGui import QFont, QFontMetricsF

    from tensorlab.ui.panels.tensor_table import distinguishing_part, elide_name

    font = QFont()
    font.setBold(True)
    font.setPixelSize(13)
    metrics = QFontMetricsF(font)
    names = ["net[0].weight", "net[1].weight", "model.bias", "p is model.bias", "sd['weight']"]
    assert [distinguishing_part(n, names) for n in names] == ["[0].weight", "[1].weight", "bias", "bias",
                                                              "['weight']"]
    cuts = [elide_name(n, metrics, metrics.horizontalAdvance(n) - 1, names) for n in names]
    assert len(set(cuts)) == len(cuts), cuts
    assert cuts[0].endswith("[0].weight") and cuts[1].endswith("[1].weight"), cuts


def test_a_cut_grad_fn_keeps_its_operation_and_none_stays_whole(qtbot):
    # Issue 17 (round 2): at 1280x720 the grad_fn column gave its width to the names and showed "No…" / "Su…".
    from tensorlab.ui.panels.tensor_table import grad_fn_head

    assert grad_fn_head("SumBackward0") == "Sum…" and grad_fn_head("AccumulateGrad") == "Accumulate…"
    assert grad_fn_head("None") == "None"
    lesson = parse_lesson(tomli_w.dumps({"lesson": {"id": "t", "title": "t"}, "step": [
        {"code": "net = torch.nn.Sequential(torch.nn.Linear(2, 2, bias=False), torch.nn.Linear(2, 1, bias=False))"},
        {"code": "x = torch.ones(1, 2)"},
        {"code": "loss = net(x).sum()"}]}))
    results = run_lesson(lesson)
    table = TensorTable()
    qtbot.addWidget(table)
    table.show()
    table.set_snapshot(results[2].snapshot, results[1].snapshot)
    column = COLUMNS.index("grad_fn")
    for width in (480, 430, 420):
        table.resize(width, 200)
        qtbot.wait(10)
        names = [t.name for t in results[2].snapshot.tensors]
        for row in range(len(names)):
            text = table.table_model.index(row, column).data()
            shown = table.shown_cell(row, column)
            assert shown == text or shown.startswith(grad_fn_head(text).rstrip("…")), (width, text, shown)
        assert len({table.shown_name(row) for row in range(len(names))}) == len(names)


def test_a_cut_alias_row_keeps_its_own_name_first(qapp):
    # Review r18aa 7: at 1280x720 the alias rows `m is r` and `p is v` were cut from the left to `…s r` / `…s v`,
    # losing the row's own name at the very steps whose question is about m and p.
    from PySide6.QtGui import QFont, QFontMetricsF

    from tensorlab.ui.panels.tensor_table import elide_name

    font = QFont()
    font.setBold(True)
    font.setPixelSize(13)
    metrics = QFontMetricsF(font)
    for name, own in (("m is r", "m"), ("p is v", "p"), ("alias.weight is online.weight", "alias.weight")):
        for cut_by in (1, 8, 20):
            width = metrics.horizontalAdvance(name) - cut_by
            cut = elide_name(name, metrics, width, ["x", "y"])
            assert cut.startswith(own[0]) and ("…" in cut or cut == own), (name, cut)
            assert metrics.horizontalAdvance(cut) <= width, (name, cut)
    assert elide_name("m is r", metrics, 1.0) in ("…", "")   # never wider than the cell
