"""The window's panels, in one list: what each is, where its dock goes, how its text grows.

:data:`PANELS` is the registry the window, its layouts (:mod:`~tensorlab.ui.window.layouts`) and
its text zoom read. A panel with a ``render_view(view)`` method (:class:`~tensorlab.ui.widgets.panel.Panel`)
is given every state while it is shown; a panel whose dock is closed, or behind another dock's tab
while the window is on screen, is skipped, and renders the state current then as soon as it is shown
again (its tab raised): a state costs only the panels one can see.

Adding a panel: write it (a widget with ``render_view(view)``, in its own module) and add one
:class:`PanelEntry` here. Its dock, its place in both layouts, its View-menu entry and its text
zoom follow from the entry.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Literal, TypeGuard, TypeVar

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

from tensorlab.ui.builders.builders_panel import BuildersPanel
from tensorlab.ui.panels.code_view import CodeView
from tensorlab.ui.panels.graph_view import GraphView
from tensorlab.ui.panels.narration import NarrationPanel
from tensorlab.ui.panels.output_view import OutputView
from tensorlab.ui.panels.storage_map import StorageMapView
from tensorlab.ui.panels.tensor_table import TensorTable
from tensorlab.ui.panels.values_view import ValuesView
from tensorlab.ui.program.controller import LabController
from tensorlab.ui.tools.copy_matrix import CopyMatrixPanel
from tensorlab.ui.tools.diagnose_panel import DiagnosePanel
from tensorlab.ui.tools.measure_panel import MeasurePanel
from tensorlab.ui.widgets.i18n import QT_TR_NOOP, Marked, Texts
from tensorlab.ui.widgets.lean_style import use_lean_style
from tensorlab.ui.widgets.panel import Panel, View
from tensorlab.ui.widgets.text_zoom import PROJECTOR_DEFAULT

__all__ = ["Group", "Place", "PanelEntry", "PANELS", "PanelSet"]

Group = Literal["left", "right", "right_tabs", "bottom"]
Place = tuple[Group, int]   # a layout group, and the order in it (smaller first)
W = TypeVar("W", bound=QWidget)


@dataclass(frozen=True)
class PanelEntry:
    """One panel of the window."""

    key: str                                   # its name in the window (``window.panels.widgets[key]``)
    make: Callable[[LabController], QWidget]   # builds it (tools take the controller)
    dock: str | None                           # its dock's object name; None: the window's central widget
    title: Marked | None = None                # the dock's title (translated; None: no dock)
    normal: Place | None = None                # where it goes in the normal layout
    projector: Place | None = None             # ... and in projector mode (None: a tab of the right area)
    projector_scale: float = PROJECTOR_DEFAULT  # how much its text grows in projector mode
    zoom: bool = True                          # Ctrl+= / Ctrl+- apply to it
    on_demand: bool = False                    # hidden until chosen in View (a tool)
    selection: bool = False                    # rendered again when the selected tensor changes


PANELS: list[PanelEntry] = [
    PanelEntry("storage_map", lambda _: StorageMapView(), None, projector_scale=1.6),
    PanelEntry("builders", lambda _: BuildersPanel(), "buildDock", QT_TR_NOOP("Build"),
               normal=("left", 0), projector=("right_tabs", 4)),
    PanelEntry("table", lambda _: TensorTable(), "tensorsDock", QT_TR_NOOP("Tensors"),
               normal=("right", 0), projector=("right_tabs", 1)),
    PanelEntry("values_view", lambda _: ValuesView(), "valuesDock", QT_TR_NOOP("Values and gradient"),
               normal=("right_tabs", 0), projector=("right_tabs", 2), selection=True),
    PanelEntry("graph_view", lambda _: GraphView(), "graphDock", QT_TR_NOOP("Autograd graph"),
               normal=("right_tabs", 1), projector=("right_tabs", 3), selection=True),
    PanelEntry("narration", lambda _: NarrationPanel(), "narrationDock", QT_TR_NOOP("Narration"),
               normal=("bottom", 0), projector=("right_tabs", 0), projector_scale=1.6),
    PanelEntry("code_view", lambda _: CodeView(), "codeDock", QT_TR_NOOP("Code"),
               normal=("bottom", 1), projector=("bottom", 0), projector_scale=2.0),
    PanelEntry("output_view", lambda _: OutputView(), "outputDock", QT_TR_NOOP("Output"),
               normal=("bottom", 2), projector=("bottom", 1), projector_scale=1.4),
    # The tools: hidden until chosen in View (see tools/lab_docks.py for where they first appear).
    PanelEntry("measure_panel", MeasurePanel, "measureDock", QT_TR_NOOP("Measure"), on_demand=True),
    PanelEntry("copy_matrix", CopyMatrixPanel, "copyMatrixDock", QT_TR_NOOP("Copy matrix"), on_demand=True),
    # Issue 20: paste an error of your own (Help → Diagnose an error…, Ctrl+Shift+D).
    PanelEntry("diagnose_panel", DiagnosePanel, "diagnoseDock", QT_TR_NOOP("Diagnose"), on_demand=True),
]


class PanelSet:
    """The panels of one window, made from the registry: their widgets, their docks, what they show."""

    def __init__(self, window: QMainWindow, i18n: Texts, controller: LabController,
                 entries: Iterable[PanelEntry] | None = None) -> None:
        self.window = window
        self.entries = list(PANELS if entries is None else entries)
        keys = [e.key for e in self.entries]
        docks = [e.dock for e in self.entries if e.dock is not None]
        if len(set(keys)) != len(keys) or len(set(docks)) != len(docks) or keys.count("storage_map") != 1:
            raise ValueError("every panel needs its own key and dock, and there is one central storage map")
        self.widgets: dict[str, QWidget] = {}
        self.docks: dict[str, QDockWidget] = {}   # by dock name, in the registry's order
        self.view: View | None = None             # what the panels show (the last state, the selection)
        self.stale: set[str] = set()              # panels out of sight when a view came: rendered when shown
        self._panel_kinds: dict[int, bool] = {}   # id of a panel's widget -> whether it renders views
        for entry in self.entries:
            widget = entry.make(controller)
            self.widgets[entry.key] = widget
            if entry.dock is None:
                window.setCentralWidget(widget)
                continue
            dock = QDockWidget(window)
            dock.setObjectName(entry.dock)
            if entry.title is not None:
                i18n.bind(dock.setWindowTitle, entry.title)
            dock.setWidget(widget)
            dock.setProperty("onDemand", entry.on_demand)   # the layouts keep it hidden until chosen in View
            window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
            use_lean_style(dock)
            dock.visibilityChanged.connect(self._when_shown(entry.key))
            self.docks[entry.dock] = dock

    def get(self, key: str, kind: type[W]) -> W:
        """The panel ``key``, as the ``kind`` the window knows it to be."""
        widget = self.widgets[key]
        if not isinstance(widget, kind):
            raise TypeError(f"the panel {key!r} is a {type(widget).__name__}, not a {kind.__name__}")
        return widget

    def dock_of(self, key: str) -> QDockWidget | None:
        """The dock holding panel ``key`` (None for the central widget)."""
        entry = next(e for e in self.entries if e.key == key)
        return None if entry.dock is None else self.docks[entry.dock]

    def closed(self, key: str) -> bool:
        """Panel ``key``'s dock is closed (View unchecks it): it renders nothing until shown."""
        dock = self.dock_of(key)
        return dock is not None and dock.isHidden()

    def out_of_sight(self, key: str) -> bool:
        """Panel ``key`` cannot be seen now: its dock is closed, or behind another dock's tab while the window
        is on screen (before it is shown every open panel renders, so the first paint has them all)."""
        dock = self.dock_of(key)
        if dock is None:
            return False
        if dock.isHidden():
            return True
        # Qt keeps a dock behind another's tab "visible", moved out of the window: nothing of it is on screen.
        return (self.window.isVisible() and not self.window.isMinimized()
                and bool(self.window.tabifiedDockWidgets(dock)) and dock.visibleRegion().isEmpty())

    def render(self, view: View, selection_only: bool = False, keys: Collection[str] | None = None) -> None:
        """Hand ``view`` to every panel shown (``selection_only``: to those that show the selected tensor;
        ``keys``: only to these panels)."""
        self.view = view
        for entry in self.entries:
            if (selection_only and not entry.selection) or (keys is not None and entry.key not in keys):
                continue
            widget = self.widgets[entry.key]
            if not self._is_panel(widget):
                continue
            if self.out_of_sight(entry.key):
                self.stale.add(entry.key)
            else:
                self.stale.discard(entry.key)
                widget.render_view(view)

    def _is_panel(self, widget: QWidget) -> TypeGuard[Panel]:
        """Whether ``widget`` renders views (kept per widget: a check against a runtime Protocol walks its members,
        ~0.1 ms, and a state asks it of every panel)."""
        known = self._panel_kinds.get(id(widget))
        if known is None:
            known = self._panel_kinds[id(widget)] = isinstance(widget, Panel)
        return known

    def _when_shown(self, key: str) -> Callable[[bool], None]:
        """What renders panel ``key`` when its dock is shown, if a state came while it was closed."""

        def shown(visible: bool) -> None:
            # Qt says "visible" when a dock's tab is raised or it is opened (before it has moved it into the
            # window): it renders what came meanwhile.
            widget = self.widgets[key]
            if key in self.stale and visible and not self.closed(key) and self.view is not None \
                    and isinstance(widget, Panel):
                self.stale.discard(key)
                widget.render_view(self.view)

        return shown

    def layout(self, projector: bool) -> dict[Group, list[str]]:
        """Each layout group's dock names, in order, for one mode (docks with no place join the right tabs)."""
        groups: dict[Group, list[tuple[int, int, str]]] = {"left": [], "right": [], "right_tabs": [], "bottom": []}
        for index, entry in enumerate(self.entries):
            if entry.dock is None or entry.on_demand:
                continue
            place = entry.projector if projector else entry.normal
            group, order = place if place is not None else ("right_tabs", 1_000)
            groups[group].append((order, index, entry.dock))
        return {group: [name for *_, name in sorted(names)] for group, names in groups.items()}

    def scaled(self) -> list[tuple[QWidget, float]]:
        """The panels the text zoom applies to, each with its projector factor."""
        return [(self.widgets[e.key], e.projector_scale) for e in self.entries if e.zoom]
