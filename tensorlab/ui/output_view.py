"""What the last step printed, warned and raised: torch's real text and what it means."""

from __future__ import annotations

from PySide6.QtWidgets import QTextBrowser, QWidget

from tensorlab.core.explain import Explanation
from tensorlab.core.session import StepResult
from tensorlab.ui.html import escape, inline_code

__all__ = ["OutputView"]


def _explanation(explanation: Explanation | None) -> str:
    if explanation is None:
        return ""
    advice = (f"<p style='margin:4px 0'><b>Instead:</b> {inline_code(explanation.advice)}</p>"
              if explanation.advice else "")
    return (f"<p style='margin:4px 0'><b>In plain words — {inline_code(explanation.title)}.</b> "
            f"{inline_code(explanation.text)}</p>{advice}")


class OutputView(QTextBrowser):
    """The last step's output, warnings and error, as lesson content."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("outputView")
        self.setAccessibleName("Output, warnings and errors of the last step")
        self.setOpenExternalLinks(False)
        self.result: StepResult | None = None

    def show_result(self, result: StepResult | None, problem: str = "") -> None:
        """Render ``result`` (None: before the first step); ``problem`` is a TensorLab message."""
        self.result = result
        parts = []
        if problem:
            parts.append(f"<div style='background:#fff3e0;padding:6px'><b>TensorLab:</b> "
                         f"{escape(problem)}</div>")
        if result is None:
            parts.append("<p style='color:#757575'>Output, warnings and errors of each step appear here.</p>")
            self.setHtml("".join(parts))
            return
        code = escape(result.code).replace("\n", "<br>")
        parts.append(f"<p style='margin:2px 0;color:#616161'>Step {result.index + 1}: "
                     f"<code>{code}</code></p>")
        if result.output:
            parts.append("<pre style='background:#f5f5f5;padding:6px;margin:4px 0'>"
                         f"{escape(result.output.rstrip(chr(10)))}</pre>")
        if result.value is not None:
            parts.append(f"<pre style='color:#455a64;margin:4px 0'>→ {escape(result.value)}</pre>")
        for warning in result.warnings:
            parts.append(
                "<div style='border-left:4px solid #ef6c00;background:#fff8e1;padding:6px;margin:4px 0'>"
                f"<p style='margin:2px 0'><b style='color:#e65100'>⚠ {escape(warning.category)}</b> "
                f"<span style='font-family:monospace'>{escape(warning.message)}</span></p>"
                f"{_explanation(warning.explanation)}</div>")
        if result.error is not None:
            error = result.error
            parts.append(
                "<div style='border-left:4px solid #c62828;background:#ffebee;padding:6px;margin:4px 0'>"
                f"<p style='margin:2px 0'><b style='color:#b71c1c'>torch raised {escape(error.type)}</b></p>"
                f"<p style='margin:2px 0;font-family:monospace'>{escape(error.message)}</p>"
                f"{_explanation(error.explanation)}"
                "<p style='margin:2px 0;color:#616161'>Nothing is lost: the step is part of the lesson, "
                "and the state shown is the state after it.</p></div>")
        if result.ok and not result.output and not result.warnings and result.value is None:
            parts.append("<p style='color:#2e7d32'>✔ Ran without output, warnings or errors.</p>")
        self.setHtml("".join(parts))
