"""Small helpers to write the HTML of the text panels safely."""

from __future__ import annotations

import html
import re

__all__ = ["escape", "inline_code"]


def escape(text: str) -> str:
    """``text`` as HTML text."""
    return html.escape(text, quote=False)


_TICKS = re.compile(r"`([^`]+)`")


def inline_code(text: str) -> str:
    """Escape ``text`` and show `backticked` parts as code."""
    return _TICKS.sub(lambda m: f"<code>{m.group(1)}</code>", escape(text))
