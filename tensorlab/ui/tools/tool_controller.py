"""What the lab tools (Measure, Copy matrix, the scratchpad loader) use of the window's controller.

The tools sit beside ``tensorlab.ui.program``, where :class:`~tensorlab.ui.program.controller.LabController`
lives, and may not import it; this Protocol says what they need, and mypy checks the controller
against it where the window hands it over.
"""

from __future__ import annotations

from typing import Any, Protocol

from PySide6.QtCore import SignalInstance

from tensorlab.core.engine.player import PlayerState
from tensorlab.core.lessons.lesson import Lesson

__all__ = ["ToolController"]


class ToolController(Protocol):
    """The controller's state, signals and actions the tools use."""

    @property
    def state(self) -> PlayerState: ...
    @property
    def busyChanged(self) -> SignalInstance: ...  # noqa: N802 - the controller's signals
    @property
    def stateChanged(self) -> SignalInstance: ...  # noqa: N802
    @property
    def jobFinished(self) -> SignalInstance: ...  # noqa: N802
    @property
    def jobProgress(self) -> SignalInstance: ...  # noqa: N802

    def run_job(self, name: str, params: dict[str, Any]) -> None: ...
    def cancel(self) -> None: ...
    def load_lesson(self, lesson: Lesson | None) -> None: ...
    def go_to(self, position: int) -> None: ...
    def submit(self, code: str) -> str | None: ...
