"""What the storage map draws: a tensor's band over the cells of the memory it views."""

from __future__ import annotations

from tensorlab.core.session.session import Session
from tensorlab.ui.panels.storage_strips import strip_models


def test_a_storage_that_starts_inside_the_memory_is_drawn_where_its_bytes_are():
    # y's storage object starts 4 bytes into x's memory: its storage_offset (torch's) is 0, its band
    # covers x's cells 1 to 3.
    session = Session()
    session.run("x = torch.arange(4.0)")
    snapshot = session.run("y = torch.from_numpy(x[1:].numpy())").snapshot
    (strip,) = strip_models(snapshot, snapshot)
    bands = {band.name: band.cells for band in strip.bands}
    assert bands == {"x": (0, 1, 2, 3), "y": (1, 2, 3)}
    assert strip.values == (0.0, 1.0, 2.0, 3.0)
    snapshot = session.run("z = torch.view_as_real(torch.from_numpy(x.numpy()[2:]).to(torch.complex64))").snapshot
    assert snapshot.tensor("z").storage != snapshot.tensor("x").storage   # .to() copied: new memory


def test_a_gradient_is_a_band_of_its_own_next_to_its_tensor_with_the_cells_the_step_changed():
    session = Session()
    session.run("x = torch.arange(3.0, requires_grad=True)")
    before = session.run("y = (x * x).sum()").snapshot
    (strip, _) = strip_models(before, before)
    assert strip.grads == ()
    after = session.run("y.backward()").snapshot
    (strip, _) = strip_models(after, before)
    (grad,) = strip.grads
    assert grad.name == "x.grad" and grad.owner == "x" and grad.shape == (3,)
    assert grad.values == (0.0, 2.0, 4.0)   # d(x*x)/dx = 2x, as torch computes it
    assert grad.changed == {0, 1, 2}        # a new gradient: every cell
    again = session.run("x.grad[1] = 7").snapshot
    (strip, _) = strip_models(again, after)
    assert strip.grads[0].values == (0.0, 7.0, 4.0) and strip.grads[0].changed == {1}
    # A 2-d gradient, element by element in order.
    session.run("m = torch.ones(2, 2, requires_grad=True)")
    shown = session.run("(m * 3).sum().backward()").snapshot
    grads = [g for s in strip_models(shown, again) for g in s.grads if g.owner == "m"]
    assert grads[0].values == (3.0, 3.0, 3.0, 3.0)


def _module_snapshot():
    import torch

    from tensorlab.core.observe.inspector import take_snapshot
    torch.manual_seed(0)
    x = torch.ones(2)
    net = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
    return take_snapshot({"x": x, "net": net, "parts": [x * 2], "sd": {"w": x}})


def test_a_modules_parameters_are_one_group_under_its_name():
    from tensorlab.ui.panels.storage_strips import module_groups, module_of
    snapshot = _module_snapshot()
    others = frozenset(o.name for o in snapshot.others)
    assert module_of("net[0].weight", others) == "net" and module_of("net.fc.bias", others) == "net"
    assert module_of("parts[0]", others) is None and module_of("sd['w']", others) is None
    assert module_of("x.grad", frozenset()) is None
    groups = module_groups(strip_models(snapshot, snapshot), snapshot)
    assert [(owner, [s.bands[0].name for s in strips]) for owner, strips in groups] == [
        (None, ["x"]), ("net", ["net[0].weight", "net[0].bias", "net[2].weight", "net[2].bias"]), (None, ["parts[0]"])]


def test_the_map_collapses_a_modules_group_to_its_header_and_opens_it_again(qtbot):
    from tensorlab.ui.panels.storage_map import StorageMapView
    snapshot = _module_snapshot()
    view = StorageMapView()
    qtbot.addWidget(view)
    view.show_snapshot(snapshot, snapshot, follow=False)
    names = {item.data(0) for item in view.band_items()}
    assert {"net[0].weight", "net[2].bias", "x", "parts[0]"} <= names
    headers = view.group_headers()
    assert list(headers) == ["net"] and "net" in headers["net"] and "▾" in headers["net"]
    view.toggle_group("net")
    names = {item.data(0) for item in view.band_items()}
    assert "net[0].weight" not in names and {"x", "parts[0]"} <= names
    assert "▸" in view.group_headers()["net"]
    view.toggle_group("net")
    assert "net[0].weight" in {item.data(0) for item in view.band_items()}


def test_the_new_tag_and_the_headings_are_whole_in_the_viewport_however_narrow_the_map(qtbot):
    # The heading is pinned at the left while the cells scroll, so a tag past the viewport's right edge was
    # cut ("ne") at any scroll: it goes to the line below when it does not fit after the heading.
    from PySide6.QtWidgets import QApplication

    from tensorlab.ui.panels.storage_map import StorageMapView
    session = Session()
    before = session.run("x = torch.arange(1000.0)").snapshot
    after = session.run("long_name_y = x * 2").snapshot
    view = StorageMapView()
    qtbot.addWidget(view)
    view.show()
    for width in (260, 340, 420, 560, 900):
        view.resize(width, 500)
        QApplication.processEvents()
        view.show_snapshot(after, before, follow=False)
        bar = view.horizontalScrollBar()
        for value in (bar.minimum(), bar.maximum()):
            bar.setValue(value)
            QApplication.processEvents()
            shown = view.mapToScene(view.viewport().rect()).boundingRect()
            tags = [item for item in view.scene().items() if getattr(item, "text", None) and item.text() == "new"]
            assert len(tags) == 1, width
            assert shown.contains(tags[0].sceneBoundingRect()), (width, value, tags[0].sceneBoundingRect(), shown)
            # The headings too ("S1  ·  8000 bytes  ·  2000 × float32  ·  cpu"), wrapped where they would not fit.
            headings = [item for item in view.scene().items()
                        if getattr(item, "text", None) and "bytes" in item.text() and "float32" in item.text()]
            assert len(headings) == 2 and all(shown.contains(h.sceneBoundingRect()) for h in headings), width


def test_one_tensor_under_two_names_is_one_colour_and_says_so_unlike_shared_memory(qapp):
    """relu(inplace=True) returns its input (`s is r`); state_dict() gives another tensor over the memory."""
    import torch

    from tensorlab.ui.panels.storage_strips import sharing_text

    r = torch.sigmoid(torch.ones(2))
    assert torch.nn.ReLU(inplace=True)(r) is r
    session = Session()
    session.run("r = torch.sigmoid(torch.ones(2))")
    session.run("relu = nn.ReLU(inplace=True)")
    snapshot = session.run("s = relu(r)").snapshot
    (strip,) = strip_models(snapshot, snapshot)
    first, second = strip.bands
    assert (first.name, second.name, second.same_as) == ("r", "s", "r")
    assert second.color_index == first.color_index and "s is r" in second.label
    assert sharing_text(strip) == "r is s"
    session.run("model = nn.Linear(2, 1)")
    session.run("alias = model")
    snapshot = session.run("sd = model.state_dict()").snapshot
    strips = {s.storage.id: s for s in strip_models(snapshot, snapshot)}
    weight = strips[snapshot.tensor("model.weight").storage]
    assert sharing_text(weight) == "model.weight is alias.weight, sd['weight']"
    assert {b.name: b.same_as for b in weight.bands} == {"model.weight": None, "alias.weight": "model.weight",
                                                          "sd['weight']": None}


def test_a_new_name_for_a_tensor_the_step_only_read_does_not_mark_its_gradient_changed():
    # Review r16b finding 11: `p` is model.bias itself; printing its gradient writes nothing.
    session = Session()
    for code in ("import torch.nn as nn", "model = nn.Linear(3, 1)", "model(torch.ones(2, 3)).sum().backward()"):
        assert session.run(code).ok, code
    before = session.take_snapshot()
    result = session.run("for p in model.parameters():\n    print(p.grad)")
    assert result.ok and result.snapshot.tensor("p") is not None
    grads = {g.name: g for s in strip_models(result.snapshot, before) for g in s.grads}
    assert grads["p.grad"].changed == frozenset() and grads["model.bias.grad"].changed == frozenset()
    # A step that does write the gradient marks it under every name, the new one too.
    previous = result.snapshot
    after = session.run("model.bias.grad.add_(1)").snapshot
    grads = {g.name: g for s in strip_models(after, previous) for g in s.grads}
    assert grads["p.grad"].changed == {0} and grads["model.bias.grad"].changed == {0}
