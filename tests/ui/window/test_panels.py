"""The panel registry: one list the window, its layouts and its text zoom read; closed panels wait."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QApplication, QDockWidget, QLabel, QMainWindow

from tensorlab.ui.widgets.i18n import Texts
from tensorlab.ui.widgets.panel import Panel, View
from tensorlab.ui.widgets.text_zoom import base_px, px
from tensorlab.ui.window import panels as registry
from tensorlab.ui.window.offscreen import isolated_window
from tests.ui.conftest import idle
from tests.ui.support import go


class ProbePanel(QLabel):
    """A throwaway panel: it keeps every view it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("probePanel")
        self.views: list[View] = []

    def render_view(self, view: View) -> None:
        self.views.append(view)
        self.setText(f"step {view.state.position}")


PROBE = registry.PanelEntry("probe", lambda _: ProbePanel(), "probeDock", "Probe", normal=("bottom", 3),
                            projector=("right_tabs", 5), projector_scale=1.5)


def test_a_panel_added_to_the_list_gets_a_dock_a_place_in_both_layouts_its_zoom_and_every_state(qtbot, monkeypatch):
    monkeypatch.setattr(registry, "PANELS", [*registry.PANELS, PROBE])
    with isolated_window(lesson="inplace-on-a-leaf", size=(1280, 720)) as window:
        qtbot.addWidget(window)
        dock = window.findChild(QDockWidget, "probeDock")
        probe = dock.widget()
        assert isinstance(probe, ProbePanel) and isinstance(probe, Panel)
        assert dock in window.docks and dock.windowTitle() == "Probe"
        assert dock.toggleViewAction() in window.view_menu.actions()
        # Normal mode: last of the bottom row, after the Output.
        output = window.findChild(QDockWidget, "outputDock")
        assert window.dockWidgetArea(dock) == Qt.DockWidgetArea.BottomDockWidgetArea
        assert dock.isVisible() and dock.x() > output.x()
        # It renders every state, from the first.
        assert probe.views and probe.views[-1].state.position == 0
        go(window, qtbot, 2)
        assert probe.text() == "step 2" and probe.views[-1].state is window.controller.state
        # Its text follows the zoom, and its own projector factor.
        assert QFontInfo(probe.font()).pixelSize() == px(base_px())
        window.commands.zoom_in.trigger()
        assert QFontInfo(probe.font()).pixelSize() == px(base_px(), 1.1)
        window.commands.zoom_reset.trigger()
        window.set_presentation(True)
        QApplication.processEvents()
        assert QFontInfo(probe.font()).pixelSize() == px(base_px(), 1.5)
        # Projector mode: a tab behind the narration, on the right.
        narration = window.findChild(QDockWidget, "narrationDock")
        assert window.dockWidgetArea(dock) == Qt.DockWidgetArea.RightDockWidgetArea
        assert dock in window.tabifiedDockWidgets(narration)


def test_a_closed_panel_renders_nothing_until_it_is_shown_and_then_shows_the_current_state(window, qtbot):
    code_dock = window.findChild(QDockWidget, "codeDock")
    go(window, qtbot, 1)
    assert window.code_view.position == 1
    code_dock.toggleViewAction().trigger()          # View → Code: closed
    assert code_dock.isHidden()
    calls = []
    original = window.code_view.render_view
    window.code_view.render_view = lambda view: (calls.append(view.state.position), original(view))
    qtbot.keyClick(window.storage_map, Qt.Key.Key_Right)
    idle(qtbot, window)
    qtbot.keyClick(window.storage_map, Qt.Key.Key_Right)
    idle(qtbot, window)
    assert window.controller.state.position == 3
    assert calls == [] and window.code_view.position == 1      # closed: not rendered
    assert window.narration.isVisible()                          # the panels shown went on
    code_dock.toggleViewAction().trigger()          # View → Code: shown again
    assert not code_dock.isHidden()
    assert calls == [3] and window.code_view.position == 3      # at once, the state current now
    qtbot.keyClick(window.storage_map, Qt.Key.Key_Left)
    idle(qtbot, window)
    assert calls == [3, 2] and window.code_view.position == 2   # shown: every state again


def test_a_panel_behind_another_docks_tab_waits_and_shows_the_current_state_when_its_tab_is_raised(window, qtbot):
    """Thonny's rule: a state costs only the panels one can see; a tab raised shows the state current then."""
    graph_dock = window.findChild(QDockWidget, "graphDock")
    values_dock = window.findChild(QDockWidget, "valuesDock")
    assert graph_dock in window.tabifiedDockWidgets(values_dock)
    window.show_panel("valuesDock")                 # the graph behind the Values tab
    calls = []
    original = window.graph_view.render_view
    window.graph_view.render_view = lambda view: (calls.append(view.state.position), original(view))
    go(window, qtbot, 1)
    go(window, qtbot, 2)
    assert calls == [] and "graph_view" in window.panels.stale
    assert window.values_view.info is not None      # the tab in front went on
    window.show_panel("graphDock")                  # its tab raised: at once, the state current now
    assert calls == [2] and "graph_view" not in window.panels.stale
    go(window, qtbot, 3)
    assert calls == [2, 3]                           # in front: every state again
    values = window.values_view.render_view
    shown = []
    window.values_view.render_view = lambda view: (shown.append(view.state.position), values(view))
    go(window, qtbot, 2)
    assert shown == []                               # Values is behind the graph's tab now
    window.show_panel("valuesDock")
    assert shown == [2]


def test_a_closed_graph_panel_shows_the_tensor_selected_meanwhile_when_shown(window, qtbot):
    go(window, qtbot, len(window.controller.state.program))
    names = [t.name for t in window.controller.state.snapshot.tensors]
    assert len(names) >= 2
    graph_dock = window.findChild(QDockWidget, "graphDock")
    window.show_panel("graphDock")
    window.table.select_name(names[0])
    assert window.graph_view.info is not None and window.graph_view.info.name == names[0]
    graph_dock.toggleViewAction().trigger()
    window.table.select_name(names[1])
    # (the values dock comes back from behind the closed graph's tab a moment later, and renders then)
    qtbot.waitUntil(lambda: window.values_view.info is not None and window.values_view.info.name == names[1])
    assert window.graph_view.info.name == names[0]               # closed: still the old one
    graph_dock.toggleViewAction().trigger()
    window.show_panel("graphDock")   # (opened again behind another dock's tab: brought forward, as shown)
    qtbot.waitUntil(lambda: window.graph_view.info is not None and window.graph_view.info.name == names[1])


def test_the_registry_describes_every_dock_of_the_window_and_a_place_in_each_mode(window):
    entries = registry.PANELS
    assert [e.dock for e in entries if e.dock is not None] == [d.objectName() for d in window.docks]
    assert [e.key for e in entries if e.dock is None] == ["storage_map"]
    assert window.centralWidget() is window.storage_map
    for entry in entries:
        if entry.dock is None or entry.on_demand:
            continue
        for place in (entry.normal, entry.projector):
            assert place is not None and place[0] in ("left", "right", "right_tabs", "bottom"), entry
    for mode in (False, True):
        layout = window.panels.layout(mode)
        placed = [name for names in layout.values() for name in names]
        assert len(placed) == len(set(placed))
        assert set(placed) == {e.dock for e in entries if e.dock is not None and not e.on_demand}


def test_two_panels_with_one_key_or_dock_name_are_refused(qtbot):
    window = QMainWindow()
    qtbot.addWidget(window)
    central = registry.PANELS[0]
    for twin in (registry.PanelEntry("twin", lambda _: ProbePanel(), "probeDock", "Twin"),
                 registry.PanelEntry("probe", lambda _: ProbePanel(), "twinDock", "Twin")):
        with pytest.raises(ValueError, match="its own key and dock"):
            registry.PanelSet(window, Texts(window), None, [central, PROBE, twin])  # type: ignore[arg-type]
    registry.PanelSet(window, Texts(window), None, [central, PROBE])  # type: ignore[arg-type]
