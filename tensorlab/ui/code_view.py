"""The program so far: every step's code, the current line marked."""

from __future__ import annotations

from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import QTextBrowser, QWidget

from tensorlab.core.player import PlayerState
from tensorlab.ui.html import escape
from tensorlab.ui.i18n import Texts, tr

__all__ = ["CodeView"]


class CodeView(QTextBrowser):
    """The program as code; click a line to go to the state after it."""

    positionRequested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("codeView")
        self.i18n = Texts(self)
        self.i18n.bind(self.setAccessibleName, "Code of the program so far")
        self.setOpenLinks(False)
        self.anchorClicked.connect(self._clicked)
        self.lines: list[str] = []

    def show_state(self, state: PlayerState) -> None:
        """Render the program of ``state`` with the last line run marked."""
        rows = []
        self.lines = []
        for i, step in enumerate(state.program):
            ran = i < state.position
            current = i == state.position - 1
            result = state.results[i] if ran else None
            failed = result is not None and not result.ok
            marker = ("▶" if current else "") + ("✗" if failed else "")
            origin = f" <span style='color:#6a1b9a'>({escape(tr('yours'))})</span>" if step.origin == "user" else ""
            color = "#000" if ran else "#9e9e9e"
            weight = "bold" if current else "normal"
            background = "#fff3c4" if current else "transparent"
            mark_color = "#c62828" if failed else "#f57f17"
            code = escape(step.code).replace("\n", "<br>").replace("    ", "&nbsp;&nbsp;&nbsp;&nbsp;")
            rows.append(
                f"<tr style='background:{background}'>"
                f"<td style='color:{mark_color};padding-right:6px'><b>{marker}</b></td>"
                f"<td style='color:#9e9e9e;padding-right:8px'><a href='step:{i + 1}' "
                f"style='color:#9e9e9e;text-decoration:none'>{i + 1}</a></td>"
                f"<td style='color:{color};font-weight:{weight};font-family:monospace'>{code}{origin}</td></tr>"
            )
            self.lines.append(("▶ " if current else "") + step.code)
        if not rows:
            self.setHtml(f"<p style='color:#757575'>{escape(tr('No steps yet.'))}</p>")
            return
        self.setHtml("<table cellspacing='0' cellpadding='2'>" + "".join(rows) + "</table>")
        if state.position:
            self.scrollToAnchor(f"step:{state.position}")

    def _clicked(self, url: QUrl) -> None:
        text = url.toString()
        if text.startswith("step:"):
            self.positionRequested.emit(int(text.split(":", 1)[1]))
