"""The text of a tensor's row: one function for the tensors table and the transcript's table.

Torch-free (the window draws these texts): each cell is one line, control and bidi characters
escaped (:func:`tensorlab.core.files.safe_text.visible`); a long gradient is cut with "…"
(the Values panel and ``run --json`` have it whole).
"""

from __future__ import annotations

from tensorlab.core.files.safe_text import visible
from tensorlab.core.messages.catalogue import render
from tensorlab.core.protocol.snapshot import Nested, TensorInfo, to_plain

__all__ = ["COLUMNS", "GRAD_WIDTH", "cell_text", "column_header", "grad_text", "row_texts"]

# What a row shows, in order.
COLUMNS = ("name", "shape", "dtype", "device", "requires_grad", "is_leaf", "grad_fn", "version",
           "storage", "grad")
GRAD_WIDTH = 40
# Columns whose header is a word (the rest are torch's attribute names, code in every language).
_WORD_COLUMNS = frozenset({"name", "shape", "device", "version", "storage", "grad"})


def column_header(column: str, language: str = "en") -> str:
    """The header of ``column`` in ``language``: a word in the catalogue, or the attribute's own name."""
    return render(f"table.column.{column}", None, language) if column in _WORD_COLUMNS else column

# None where torch refuses to say or there is nothing (is_leaf, grad_fn); "-" where there is no
# such thing to read (no version counter, no storage).
_NONE_SAYS_NONE = frozenset({"grad_fn", "is_leaf"})


def cell_text(info: TensorInfo, column: str) -> str:
    """The text of ``column`` in ``info``'s row, as shown."""
    if column == "shape":
        return "[" + ", ".join(map(str, info.shape)) + "]"
    if column == "grad":
        if info.grad is None:
            return "None"
        text = visible(grad_text(info.grad))
        return text if len(text) <= GRAD_WIDTH else text[: GRAD_WIDTH - 1] + "…"
    value = getattr(info, column)
    if value is None:
        return "None" if column in _NONE_SAYS_NONE else "-"
    return visible(str(value))


def row_texts(info: TensorInfo) -> tuple[str, ...]:
    """Every cell of ``info``'s row (kept per TensorInfo: an unchanged tensor shares its object)."""
    entry = _ROW_TEXTS.get(id(info))
    if entry is None or entry[0] is not info:
        if len(_ROW_TEXTS) > 4096:
            _ROW_TEXTS.clear()
        entry = _ROW_TEXTS[id(info)] = (info, tuple(cell_text(info, c) for c in COLUMNS))
    return entry[1]


_ROW_TEXTS: dict[int, tuple[TensorInfo, tuple[str, ...]]] = {}


def grad_text(grad: Nested) -> str:
    """A gradient's values as JSON-like text, ``str`` of its lists (kept per values object: a step that
    changes a parameter's version, not its gradient, shares the gradient's values with the step before)."""
    entry = _GRAD_TEXTS.get(id(grad))
    if entry is None or entry[0] is not grad:
        if len(_GRAD_TEXTS) > 64:   # (each holds its values alive)
            _GRAD_TEXTS.clear()
        entry = _GRAD_TEXTS[id(grad)] = (grad, str(to_plain(grad)))
    return entry[1]


_GRAD_TEXTS: dict[int, tuple[Nested, str]] = {}
