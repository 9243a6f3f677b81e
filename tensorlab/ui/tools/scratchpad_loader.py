"""Put a few statements into the scratchpad so the class can step through them.

Uses only the controller's public actions, one after another as each finishes:
open the scratchpad (the steps you added there are kept), go to its end, add
each statement, then go back to just before the first one added, so → runs
them one at a time.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject, Signal

from tensorlab.ui.tools.tool_controller import ToolController

__all__ = ["ScratchpadLoader"]


class ScratchpadLoader(QObject):
    """Loads statements into the scratchpad; ``finished(ok, message)`` when done."""

    finished = Signal(bool, str)

    def __init__(self, controller: ToolController, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self._lines: list[str] = []
        self._stage = ""
        self._start = 0
        controller.busyChanged.connect(self._busy_changed)

    @property
    def loading(self) -> bool:
        """True while statements are being added."""
        return bool(self._stage)

    def load(self, lines: Sequence[str]) -> bool:
        """Start loading ``lines`` (False while an earlier load is still going on)."""
        if self._stage or not lines:
            return False
        self._lines = list(lines)
        self._stage = "open"
        self.controller.load_lesson(None)
        return True

    def _busy_changed(self, busy: bool) -> None:
        if busy or not self._stage:
            return
        controller = self.controller
        state = controller.state
        if self._stage == "open":
            self._stage = "end"
            if state.position < len(state.program):
                controller.go_to(len(state.program))
                return
        if self._stage == "end":
            self._start = state.position
            self._stage = "add"
        if self._stage == "add":
            if self._lines:
                reason = controller.submit(self._lines.pop(0))
                if reason is not None:
                    self._stage = ""
                    self.finished.emit(False, reason)
                return
            self._stage = "rewind"
            controller.go_to(self._start)
            return
        if self._stage == "rewind":
            self._stage = ""
            self.finished.emit(True, "")
