"""A panel that fails to draw one state says so in itself; the other panels go on.

Decorate a panel's update methods with :func:`contained`: an exception is caught
there, logged (with its traceback) to the ``tensorlab.ui`` logger, and shown as a
small notice at the top of that panel, until the same update succeeds again.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QLabel, QWidget

from tensorlab.ui.widgets.i18n import tr

__all__ = ["contained", "PanelNotice", "notice_of"]

log = logging.getLogger("tensorlab.ui")
F = TypeVar("F", bound=Callable[..., Any])
_NOTICE = "panelNotice"


class PanelNotice(QLabel):
    """A small amber note over the top of a panel; it follows the panel's width."""

    def __init__(self, panel: QWidget) -> None:
        super().__init__(panel)
        self.setObjectName(_NOTICE)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setStyleSheet("background:#fff3e0; color:#8a3c00; border:1px solid #ef6c00; padding:3px;")
        self.failures: dict[str, str] = {}     # update method -> what went wrong
        self.hide()
        panel.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Resize and self.isVisible():
            self._place()
        return False

    def _place(self) -> None:
        panel = self.parentWidget()
        assert panel is not None  # the notice is made on its panel
        self.setFixedWidth(max(60, panel.width() - 8))
        self.adjustSize()
        self.move(4, 4)
        self.raise_()

    def failed(self, method: str, exc: BaseException) -> None:
        """Record that ``method`` raised ``exc`` and show it."""
        self.failures[method] = f"{type(exc).__name__}: {exc}"[:300]
        self._show()

    def succeeded(self, method: str) -> None:
        """``method`` ran without raising: forget its failure."""
        if self.failures.pop(method, None) is not None:
            self._show()

    def _show(self) -> None:
        if not self.failures:
            self.hide()
            return
        self.setText(tr("This panel could not show this state ({error}). The other panels are not "
                        "affected; the details are in the log.").format(error=next(iter(self.failures.values()))))
        self.show()
        self._place()


def notice_of(panel: QWidget) -> PanelNotice:
    """The notice of ``panel`` (made on first use)."""
    notice = panel.findChild(PanelNotice, _NOTICE, Qt.FindChildOption.FindDirectChildrenOnly)
    return notice if notice is not None else PanelNotice(panel)


def contained(method: F) -> F:
    """Run a panel's update; an exception is logged and shown in that panel instead of spreading."""

    @functools.wraps(method)
    def wrapper(self: QWidget, *args: Any, **kwargs: Any) -> Any:
        try:
            result = method(self, *args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - a panel's bug must not stop the others
            log.exception("%s.%s failed", type(self).__name__, method.__name__)
            try:
                notice_of(self).failed(method.__name__, exc)
            except Exception:  # noqa: BLE001 - the notice itself failed: the log has it
                log.exception("the notice of %s could not be shown", type(self).__name__)
            return None
        notice = self.findChild(PanelNotice, _NOTICE, Qt.FindChildOption.FindDirectChildrenOnly)
        if notice is not None:
            notice.succeeded(method.__name__)
        return result

    return wrapper  # type: ignore[return-value]
