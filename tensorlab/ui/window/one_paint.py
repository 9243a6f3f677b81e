"""One paint of the window per state shown (issue #16, item 4).

A state changes several panels at once, and each drawn panel whose ``QGraphicsScene`` changed has the window
painted as soon as that scene has processed its changed items (Qt's graphics view sends the window's pending
paint then, ``dispatchPendingUpdateRequests``): the storage map, each plot of the values panel, then the window's
own pending paint — about four passes a training step, each painting what changed since the pass before, and
each paying the window's background and frames again (``benchmarks/paint_passes.py``).

:class:`OnePaint` holds the window's paints while a state is drawn and until every event posted meanwhile (the
scenes' processing of their items among them) has been handled, then settles what those posted in turn (the
layouts, and the scenes' processing again: a scroll bar that came moves a view's items), and paints the window
once, with everything that changed. What is painted is the same: only the passes are fewer. A paint asked for by
anything else (a resize, a scroll, the map's flash) is held only while a state is being drawn, and never dropped.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from PySide6.QtCore import QCoreApplication, QEvent, QObject
from PySide6.QtWidgets import QGraphicsScene, QGraphicsView, QWidget

__all__ = ["OnePaint"]

# The event that ends a hold: posted when a state has been drawn, so it comes after every event posted meanwhile.
_RELEASE = QEvent.Type(QEvent.registerEventType())

SETTLE_ROUNDS = 2   # layouts then scenes, twice: a layout a scene's processing asked for is settled too
REFRESH_VIEWS = 32  # the window's graphics views are looked up again every so many holds


class OnePaint(QObject):
    """Holds ``window``'s paints while a state is drawn (:meth:`held`), then paints it once."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.window = window
        self._depth = 0          # nested holds (a state drawn while one is drawn)
        self._pending = 0        # releases posted and not yet handled
        self._held = False       # a paint of the window was asked for while held
        self._views: list[QGraphicsView] | None = None   # the window's graphics views (looked up now and then)
        self._releases = 0
        self.enabled = True      # off: every changed scene paints the window as it goes (to compare the two)
        window.installEventFilter(self)

    @property
    def holding(self) -> bool:
        """Whether the window's paints are held now."""
        return self._depth > 0 or self._pending > 0

    @contextmanager
    def held(self) -> Iterator[None]:
        """The window's paints held from now until the events posted inside have been handled."""
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
            self._pending += 1
            QCoreApplication.postEvent(self, QEvent(_RELEASE))

    def event(self, event: QEvent) -> bool:
        if event.type() == _RELEASE:
            if self._pending == 1 and self._depth == 0 and self.enabled:
                self._settle()   # (still held)
            self._pending = max(0, self._pending - 1)
            if not self.holding:
                self._paint()
            return True
        return super().event(event)

    def _settle(self) -> None:
        """What the events before the release posted, handled before the paint: the layouts (a scroll bar that
        came resizes a view), then the scenes' processing of the items they moved (Qt's own queued calls to
        each scene of the window's views), so that the one paint has them too."""
        scenes = self._scenes()
        for _ in range(SETTLE_ROUNDS):
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
            for scene in scenes:
                QCoreApplication.sendPostedEvents(scene, QEvent.Type.MetaCall)

    def _scenes(self) -> list[QGraphicsScene]:
        """The scenes of the window's graphics views, looked up again every few holds (a walk over the window's
        widgets costs ~0.2 ms; a view made since then only paints once more, as before)."""
        self._releases += 1
        if self._views is None or self._releases % REFRESH_VIEWS == 0:
            self._views = self.window.findChildren(QGraphicsView)
        scenes = []
        for view in self._views:
            try:
                scene = view.scene()
            except RuntimeError:   # (a view deleted since)
                self._views = None
                continue
            if scene is not None:
                scenes.append(scene)
        return scenes

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if watched is self.window and event.type() == QEvent.Type.UpdateRequest and self.holding and self.enabled:
            # Qt asks for no other paint of the window until this one is handled: it is sent again on release.
            self._held = True
            return True
        return False

    def _paint(self) -> None:
        """The held paint of the window, now (everything that changed while it was held)."""
        if self._held:
            self._held = False
            QCoreApplication.sendEvent(self.window, QEvent(QEvent.Type.UpdateRequest))
