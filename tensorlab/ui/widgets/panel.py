"""What a panel is to the window: a widget with one ``render_view(view)`` entry.

The window hands every panel in its registry (:data:`~tensorlab.ui.window.panels.PANELS`) the
same :class:`View` of one player state; a panel whose dock is closed is not rendered, and
renders the view current then when it is shown again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from tensorlab.core.engine.player import PlayerState
from tensorlab.ui.widgets.held_hints import HOLD_NOTHING, Held

__all__ = ["Panel", "View"]


@dataclass(frozen=True)
class View:
    """One player state as the window shows it: the state and the window's own choices about it."""

    state: PlayerState
    selected: str | None = None   # the tensor selected (table row, map band), or None
    ran: bool = False             # reached by running a step (not by going back): panels follow its change
    followed: bool = False        # ``selected`` is the tensor the step changed
    problem: str = ""             # a message to show with this state (Output)
    held: Held = HOLD_NOTHING     # hints held back while the next step's question is open (held_hints)


@runtime_checkable
class Panel(Protocol):
    """A panel of the window: it shows a :class:`View`, and nothing else tells it what to show."""

    def render_view(self, view: View) -> None:
        """Show ``view`` (called with every new state while the panel is shown, and when it is shown)."""
        ...
