"""Where the docks go: the normal layout and the projector layout, each remembered.

Each panel's place in both modes is in the panel registry (:data:`~tensorlab.ui.window.panels.PANELS`).
Normal: builders left; tensors, values and graph right; narration, code and output
below. Projector (for a class): the storage map is the main area, the narration
(with its question) large on the right, code and output large below; builders,
table, values and graph are tabs behind the narration, one click away. Whatever the
user changes in a mode (a dock moved, closed, resized) is saved for that mode;
View → Reset layout puts the mode's default back. A panel with no place in a mode
joins the tabs of the right area.

A tool shown on demand (Measure, Copy matrix) is *placed* in a mode once it has been shown there;
whether it is placed is saved with the mode's arrangement, never apart from it (a flag saved alone
left the tool docked in the narrow right column after a session that did not quit cleanly). An
arrangement saved for other docks (another :data:`LAYOUT_VERSION`, a dock renamed) is not applied:
the mode starts from its default and the status bar says why.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QByteArray, QSize, Qt, QTimer
from PySide6.QtWidgets import QAbstractScrollArea, QDockWidget, QMainWindow, QStyle, QTabBar, QToolBar

from tensorlab.core.messages.catalogue import msg
from tensorlab.ui.panels.narration import NarrationPanel
from tensorlab.ui.panels.tensor_table import TensorTable
from tensorlab.ui.widgets.i18n import current_language
from tensorlab.ui.widgets.settings import LAYOUT_VERSION, Settings
from tensorlab.ui.window.panels import Group, PanelSet

__all__ = ["LayoutModes", "SIZES", "ZOOM_LINES"]

LEFT, RIGHT, BOTTOM = (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea,
                       Qt.DockWidgetArea.BottomDockWidgetArea)

# Each mode's area sizes, as fractions of the window (normal: the map keeps at least 30% of a 1280x720
# window; the right column's top, the tensors table, is sized for TABLE_ROWS rows instead).
SIZES: dict[str, dict[str, float]] = {
    # (The right column wide enough for the table's ten columns with `net[0].weight` whole at 1280x720 under X, the
    # builders' narrower: a question never widens a column now, so each has its width from the start.)
    "normal": {"left": 0.14, "right": 0.34, "bottom": 0.22, "right_top": 0.26},
    "projector": {"right": 0.33, "bottom": 0.3},
}
PROJECTOR_NARROW_RIGHT = 0.42  # projector mode, a window under 1200 px wide: the narration's column
TABLE_ROWS = ((900, 12), (0, 6))   # (window height at least, rows the tensors table shows without scrolling)
NARRATION_MAX = {"normal": 0.5, "projector": 0.5}
MAP_SHARE = 0.30       # normal mode: the map's viewport keeps this share of the client area when a note is long
MAP_MIN_HEIGHT = 150   # ... and never less than this height, even for a question that needs more (a large zoom)
# Dock tabs: a tighter padding than the style's, so that the right column's five fit (drawn as the style draws them:
# the chosen one light and joined to its panel, the others shaded).
TAB_STYLE = ("QTabBar::tab { padding: 5px 5px; border: 1px solid palette(mid); background: palette(button);"
             " margin-right: 1px; border-bottom-left-radius: 3px; border-bottom-right-radius: 3px; }"
             " QTabBar::tab:selected { background: palette(base); border-top-color: palette(base); }"
             " QTabBar::tab:!selected { margin-bottom: 2px; }")
# The zoom a window offers: the narration's text no larger than the window's height over this many lines, so that
# a question and its four choices fit the narration at every zoom offered (normal: a bottom dock of at most half
# the window; projector: the right column, narrower); measured on the lessons' longest questions, en and ko.
ZOOM_LINES = {"normal": 36.0, "projector": 29.0}   # how tall the narration's bottom dock may grow for a question
# The bottom row (normal mode): the narration takes 56% of the window's width, for good (a question once widened it,
# and the code and output jumped sideways with every question); the code and the output share the rest.
BOTTOM_SHARES = (2.8, 1.2, 1.0)
# The groups placed side by side or stacked: (group, area, orientation of a group's docks).
_PLACED: tuple[tuple[Group, Qt.DockWidgetArea, Qt.Orientation], ...] = (
    ("left", LEFT, Qt.Orientation.Vertical),
    ("right", RIGHT, Qt.Orientation.Vertical),
    ("bottom", BOTTOM, Qt.Orientation.Horizontal),
)


class LayoutModes:
    """Switches a window between its normal and projector layouts, remembering each."""

    def __init__(self, window: QMainWindow, panels: PanelSet, settings: Settings) -> None:
        self.window = window
        self.panels = panels
        self.settings = settings
        self.projector = False
        # The narration dock's height before a question made it grow: it goes back once the question is gone.
        self.narration_rest: int | None = None
        self.table_widened = 0          # pixels the tensors table's dock took from the map for a zoom
        self.placed: set[str] = set()   # the tools (on-demand docks) placed in this mode's arrangement
        self.reset_notice = ""          # why a saved arrangement was not applied (shown once)
        self._notice_pending = False
        self.ready = False              # the window has shown its first state (a notice is said at once)

    @property
    def mode(self) -> str:
        """"projector" or "normal"."""
        return "projector" if self.projector else "normal"

    def saved(self) -> bool:
        """This mode has an arrangement of the user's (else its default, sized once the window has its size)."""
        return self.settings.layout(self.mode) is not None

    def _docks(self) -> dict[str, QDockWidget]:
        return dict(self.panels.docks)

    def _tools(self) -> list[str]:
        return [name for name, dock in self.panels.docks.items() if dock.property("onDemand")]

    def remember(self) -> None:
        """Save the current mode's dock arrangement, and with it which tools have their place in it."""
        self.settings.set_layout(self.mode, self.window.saveState(LAYOUT_VERSION))
        for name in self._tools():
            self.settings.set_dock_placed(name, self.mode, name in self.placed)

    def place_tool(self, name: str) -> None:
        """Tool ``name`` was given its place in this mode: saved at once, with the arrangement it is in."""
        self.placed.add(name)
        self.remember()
        self.settings.sync()

    def fits(self, state: QByteArray) -> bool:
        """A saved arrangement names every dock this window lays out (one saved before a dock was renamed does
        not); a tool added since need not be in it (hidden until chosen, it is placed when first shown)."""
        data = bytes(state.data())
        return all(name.encode("utf-16-be") in data for name, dock in self.panels.docks.items()
                   if not dock.property("onDemand"))

    def switch(self, projector: bool) -> None:
        """Save this mode's arrangement, then show the other mode's (saved, or its default)."""
        if projector == self.projector:
            return
        self.remember()
        self.projector = projector
        self.restore()

    def _corners(self) -> None:
        # Projector: the right column (narration and its question) takes the whole height;
        # code and output sit under the map only.
        right_corner = RIGHT if self.projector else BOTTOM
        self.window.setCorner(Qt.Corner.BottomRightCorner, right_corner)
        self.window.setCorner(Qt.Corner.BottomLeftCorner, BOTTOM)

    def restore(self) -> None:
        """The saved arrangement of the current mode, or its default."""
        self._corners()
        saved = self.settings.layout(self.mode)
        if saved is not None and not self.fits(saved):
            self.settings.forget_layout(self.mode)
            saved = None
            self._reset_said()
        elif saved is None and self.settings.old_layouts(self.mode):
            self._reset_said()
        self.settings.forget_old_layouts(self.mode)
        # Known before the state is applied: a tool it shows is where the state put it, not placed anew.
        self.placed = {name for name in self._tools() if self.settings.dock_placed(name, self.mode)}
        if saved is None or not self.window.restoreState(saved, LAYOUT_VERSION):
            self.apply_default()
        QTimer.singleShot(0, self.unelide_tabs)

    def _reset_said(self) -> None:
        """The status bar says that this mode's saved arrangement was for other panels, and was reset."""
        self.reset_notice = msg("window.layout_reset").render(current_language())
        self._notice_pending = True
        if self.ready:
            self.say_reset_notice()

    def say_reset_notice(self) -> None:
        """The window has shown its first state: a reset is said now (said while the lesson loaded, the
        busy indicator's "Ready" would have replaced it at once)."""
        self.ready = True
        if self._notice_pending:
            self._notice_pending = False
            text = self.reset_notice
            QTimer.singleShot(0, self.window, lambda: self.window.statusBar().showMessage(text, 20000))

    def reset(self) -> None:
        """View → Reset layout: this mode's default, and forget what was saved for it."""
        self.settings.forget_layout(self.mode)
        for name in self._tools():
            self.settings.set_dock_placed(name, self.mode, False)
        self.apply_default()

    def apply_default(self) -> None:
        """Place every dock where the current mode's layout says."""
        layout = self.panels.layout(self.projector)
        self._corners()
        self.placed = set()   # every tool hidden again: placed anew the first time it is shown
        window, docks = self.window, self._docks()
        for dock in docks.values():
            window.removeDockWidget(dock)
        placed: dict[str, list[QDockWidget]] = {}
        for group, area, orientation in _PLACED:
            row = [docks[n] for n in layout[group] if n in docks]
            for i, dock in enumerate(row):
                if i == 0:
                    window.addDockWidget(area, dock)
                else:
                    window.splitDockWidget(row[i - 1], dock, orientation)
            placed[group] = row
        tabs = [docks[n] for n in layout["right_tabs"] if n in docks]
        on_demand = [dock for dock in docks.values() if dock.property("onDemand")]
        for dock in on_demand:  # tools shown only when chosen in View (Measure, Copy matrix)
            window.addDockWidget(RIGHT, dock)
        first: QDockWidget | None = None
        for dock in tabs:
            if first is None:
                if placed["right"]:
                    window.splitDockWidget(placed["right"][-1], dock, Qt.Orientation.Vertical)
                else:
                    window.addDockWidget(RIGHT, dock)
                first = dock
            else:
                window.tabifyDockWidget(first, dock)
        for dock in docks.values():
            dock.setVisible(dock not in on_demand)
        if first is not None:
            first.raise_()
        self.apply_sizes()
        QTimer.singleShot(0, self.unelide_tabs)

    def unelide_tabs(self) -> None:
        """Dock tabs show their whole titles (with scroll arrows when they do not fit), never "N…"."""
        for bar in self.window.findChildren(QTabBar):
            bar.setElideMode(Qt.TextElideMode.ElideNone)
            bar.setUsesScrollButtons(True)
            # The right column's five tabs whole at 1024x768 and 1280x720 (the style's padding hid "Autograd
            # graph" behind the scroll arrows there, issue #17).
            bar.setStyleSheet(TAB_STYLE)

    def apply_sizes(self) -> None:
        """Dock sizes in proportion to the window (call again once the window has its real size)."""
        layout = self.panels.layout(self.projector)
        sizes, docks, window = SIZES[self.mode], self._docks(), self.window
        width, height = max(window.width(), 800), max(window.height(), 500)
        if not self.projector and width < 1200:
            # A narrow window: the tensors table needs the room more than the map does.
            sizes = dict(sizes, left=0.18, right=0.41)
        elif self.projector and width < 1200:
            # A narrow window in projector mode: the narration's column has, from the start, the width a question
            # and its four choices need at the large size (it once widened for each question, and the map, code
            # and output jumped sideways with it).
            sizes = dict(sizes, right=PROJECTOR_NARROW_RIGHT)

        def first(*groups: Group) -> QDockWidget | None:
            return next((docks[n] for g in groups for n in layout[g] if n in docks), None)

        wanted = [(first("left"), sizes.get("left")), (first("right", "right_tabs"), sizes.get("right"))]
        horizontal = [(d, f) for d, f in wanted if d is not None and f]
        if horizontal:
            window.resizeDocks([d for d, _ in horizontal], [int(width * f) for _, f in horizontal],
                               Qt.Orientation.Horizontal)
        bottom = first("bottom")
        if bottom is not None:
            window.resizeDocks([bottom], [int(height * sizes["bottom"])], Qt.Orientation.Vertical)
        self.table_widened = 0   # the sizes of this mode, afresh
        self.fit_table()
        self.narration_rest = None
        # The bottom row: narration (or code) a little wider than the rest.
        row = [docks[n] for n in layout["bottom"] if n in docks]
        if len(row) > 1:
            # Projector: the code (first there) wider still, so that a 20-character statement at its
            # large size stays on one line at 1024x768; normal mode: the narration wider than the rest.
            shares = ([1.8] + [1.0] * (len(row) - 1) if self.projector else
                      [BOTTOM_SHARES[min(i, len(BOTTOM_SHARES) - 1)] for i in range(len(row))])
            # The bottom area spans the window's whole width.
            window.resizeDocks(row, [int(width * s / sum(shares)) for s in shares], Qt.Orientation.Horizontal)

    def fit_table(self, widen: bool = True) -> None:
        """Normal mode: the right column's top (the tensors table) tall enough for its rows (6, or 12 in a
        window at least 900 px tall), again after the narration's dock grew under it (the panel below it,
        values, gives up the height). ``widen``: zoomed in, the table's column may take the pixels it lacks
        from the map (not after the narration's dock changed: no question moves a dock sideways)."""
        layout = self.panels.layout(self.projector)
        sizes, docks, window = SIZES[self.mode], self._docks(), self.window
        if "right_top" not in sizes:
            return
        height = max(window.height(), 500)
        top = next((docks[n] for n in layout["right"] if n in docks), None)
        if top is None or not top.isVisible() or top.isFloating():
            return
        wanted_top = int(height * sizes["right_top"])
        table = self.panels.widgets.get("table")
        if isinstance(table, TensorTable) and top.widget() is table:
            rows = next(n for at_least, n in TABLE_ROWS if height >= at_least)
            chrome = top.height() - table.height() if top.height() > table.height() else 24
            wanted_top = min(table.height_for_rows(rows) + chrome, int(height * 0.5))
        if abs(top.height() - wanted_top) > 2:
            window.resizeDocks([top], [wanted_top], Qt.Orientation.Vertical)
        if not isinstance(table, TensorTable) or top.widget() is not table:
            return
        if table.scale <= 1 and self.table_widened:
            # The zoom is back: so is the map's width the table took.
            window.resizeDocks([top], [max(1, top.width() - self.table_widened)], Qt.Orientation.Horizontal)
            self.table_widened = 0
        elif widen and table.missing_width > 0 and table.scale > 1:
            # Zoomed in (Ctrl+= at 1024x768) and written as small as it may, the table still lacks a few pixels: its
            # column takes them from the map, rather than cut a value to "MulBac…" (half the window at most), and
            # gives them back with the zoom. Unzoomed, the column keeps the layout's width (a new tensor's long
            # name widened it and the map, code and output moved sideways from step to step).
            wider = min(top.width() + table.missing_width + 2, int(window.width() * 0.5))
            if wider > top.width():
                window.resizeDocks([top], [wider], Qt.Orientation.Horizontal)
                if table.scale > 1:   # given back with the zoom (what it asked: the docks move a moment later)
                    self.table_widened += wider - top.width()

    def _fit_table_height(self) -> None:
        """The table's rows again after the narration's dock changed height, its column's width as it is."""
        self.fit_table(widen=False)

    def fit_narration(self, narration: NarrationPanel, attempt: int = 0) -> None:
        """Grow the narration's bottom dock until its question and choices show without scrolling.

        Only a question grows it, only taller (up to the map's share), and the next step takes it back to its
        height before. Its width, and a side dock's (projector mode), is the layout's: a question never moves
        the docks sideways (the map, code and output jumped as questions came and went). What does not fit
        scrolls, whole lines at the top.
        """
        window, dock = self.window, narration.parentWidget()
        if not isinstance(dock, QDockWidget) or dock.isFloating() or not dock.isVisible():
            return
        needed, shown = narration.needed_height(), narration.height()
        area = window.dockWidgetArea(dock)
        if (narration.revealed or narration.pending_vote) and attempt == 0:
            # The answer revealed (or only marked, in a class vote): the dock keeps the size it had for the
            # question (a taller or wider dock took the map's share, and wider reflowed the choices under the
            # teacher's pointer); the verdict below the choices scrolls into view instead.
            narration.ensure_question_visible()
            QTimer.singleShot(0, narration.ensure_question_visible)   # once the new text is laid out
            return
        before = dock.size()
        rest = self.narration_rest
        asking = not narration.question.isHidden()
        if area == BOTTOM and rest is not None and dock.height() > rest and attempt == 0 \
                and (not asking or needed <= shown):
            # The question is gone (the next step, End): the dock goes back to its height before it, whatever the
            # text now shown (the kept answer and the note scroll, lines whole): the stage does not move from
            # step to step. Still asking in less room (a shorter question next): back as far as it allows.
            back = rest if not asking else max(rest, dock.height() - (shown - needed) + 12)
            if back < dock.height():
                window.resizeDocks([dock], [back], Qt.Orientation.Vertical)
                QTimer.singleShot(0, self._fit_table_height)
                if back <= rest:
                    self.narration_rest = None
        if area == BOTTOM and not self.projector and asking and needed > shown and attempt < 3:
            # Taller than the map's share allows (grown for an earlier text, or the map narrowed since) while the
            # note scrolls anyway: back to the share, or to what the question itself needs; never below the
            # height it had before a question grew it (the row of docks under the table stays where it was).
            floor = self.narration_rest if self.narration_rest is not None else dock.height()
            most = max(self._map_share_cap(dock), dock.height() + narration.question_height() - shown + 4, floor)
            if dock.height() > most + 2:
                window.resizeDocks([dock], [most], Qt.Orientation.Vertical)
                QTimer.singleShot(0, self._fit_table_height)
                QTimer.singleShot(0, lambda: self._refit(narration, attempt + 1, before))
                return
        if needed > shown and area == BOTTOM and asking:
            # Only a question grows the dock (a long note scrolls in the room the layout gave it).
            # A little slack (a border settles a moment later; the looks never change a font now).
            taller = min(dock.height() + needed - shown + 4, int(window.height() * NARRATION_MAX[self.mode]))
            # The map keeps its share: a long note scrolls inside the dock (its scroll bar shows) rather than
            # take the map's height; only the question and its choices, which the class must see whole, may
            # take more (Ctrl+= at 1024x768), down to the map's minimum.
            question = dock.height() + narration.question_height() - shown + 4
            taller = min(taller, max(self._map_share_cap(dock), question))
            taller = min(taller, dock.height() + self._map_spare())
            if taller > dock.height():
                if self.narration_rest is None:
                    self.narration_rest = dock.height()
                window.resizeDocks([dock], [taller], Qt.Orientation.Vertical)
                # The table keeps its rows: the values panel gives up height.
                QTimer.singleShot(0, self._fit_table_height)
        if needed > shown and attempt < 3:
            # Check again once the docks have their new sizes (text rewraps at a new width).
            QTimer.singleShot(0, lambda: self._refit(narration, attempt + 1, before))
            return
        if needed <= shown:
            narration.ensure_question_visible()   # all of it shows: at once, not in a second paint
        else:
            QTimer.singleShot(0, narration.ensure_question_visible)

    def _client_area(self) -> int:
        """The window's client area: less its menu bar, tool bars and status bar (what the map's share is of)."""
        window = self.window
        height = window.height() - window.menuBar().height() - window.statusBar().height()
        height -= sum(bar.height() for bar in window.findChildren(QToolBar) if bar.isVisible() and not bar.isFloating())
        return window.width() * max(height, 1)

    def _map_viewport(self) -> QSize:
        central = self.window.centralWidget()
        viewport = central.viewport() if isinstance(central, QAbstractScrollArea) else central
        return viewport.size() if viewport is not None else QSize(0, 0)

    def _map_share_cap(self, dock: QDockWidget) -> int:
        """The bottom dock's tallest height at which the map's viewport keeps MAP_SHARE of the client area."""
        viewport = self._map_viewport()
        width = viewport.width()
        central = self.window.centralWidget()
        if isinstance(central, QAbstractScrollArea) and not central.verticalScrollBar().isVisible():
            # A shorter map scrolls: its scroll bar, which comes a moment later, narrows it (at 1203x636 the
            # share measured 29.1% for a dock grown to a cap reckoned on the wider viewport).
            width -= central.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, central)
        # (With a margin: a narrower map once the table fits its rows takes a few pixels more a moment later.)
        keep = math.ceil((MAP_SHARE + 0.015) * self._client_area() / max(width, 1)) + 2
        # Lower than the dock's height when the map is already under its share (a dock grown for an earlier
        # text, or reckoned before the map's scroll bar came): the dock goes back to it.
        return dock.height() + viewport.height() - keep

    def _map_spare(self) -> int:
        """How much height the map can give up and keep its minimum (MAP_MIN_HEIGHT of viewport)."""
        return max(0, self._map_viewport().height() - MAP_MIN_HEIGHT)

    def _refit(self, narration: NarrationPanel, attempt: int, before: QSize) -> None:
        dock = narration.parentWidget()
        assert dock is not None  # fit_narration refits only a narration in a dock
        if dock.size() == before:
            narration.ensure_question_visible()   # the dock cannot grow further: scroll to the question
        else:
            self.fit_narration(narration, attempt)
