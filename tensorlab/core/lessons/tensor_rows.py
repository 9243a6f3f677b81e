"""The text of a tensor's row: one function for the tensors table and the transcript's table.

Torch-free (the window draws these texts): each cell is one line, control and bidi characters
escaped (:func:`tensorlab.core.files.safe_text.visible`); a long gradient is cut with "…"
(the Values panel and ``run --json`` have it whole).
"""

from __future__ import annotations

from collections.abc import Iterator

from tensorlab.core.files.safe_text import visible
from tensorlab.core.messages.catalogue import render
from tensorlab.core.protocol.snapshot import Nested, Snapshot, TensorInfo, to_plain

__all__ = ["COLUMNS", "GRAD_WIDTH", "cell_text", "column_header", "grad_head", "grad_text", "name_text", "row_texts",
           "same_tensor"]

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
        # Only the start is read: a 32 x 32 gradient's whole text (thousands of characters, every step
        # after backward()) is made where it is shown whole (the cell's tooltip, on hover).
        text = visible(grad_head(info.grad, GRAD_WIDTH))
        return text if len(text) <= GRAD_WIDTH else text[: GRAD_WIDTH - 1] + "…"
    value = getattr(info, column)
    if value is None and column == "is_leaf":
        # is_leaf is always True or False where torch answers: None means it raised (a split/unbind
        # output whose base changed in place), shown as the grad_fn column shows the same refusal.
        return "Invalid"
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


def grad_head(grad: Nested, width: int) -> str:
    """The start of :func:`grad_text`: all of it when it is at most ``width`` characters, else its first
    ``width + 1`` or more (enough to tell that it is cut), made without writing the rest."""
    if not isinstance(grad, tuple):
        return str(grad)   # a 0-d gradient's one value (``str``, as str(to_plain(...)) writes it)
    parts: list[str] = []
    length = 0
    for part in _text_parts(grad):
        parts.append(part)
        length += len(part)
        if length > width:
            break
    return "".join(parts)


def _text_parts(values: Nested) -> Iterator[str]:
    """``str(to_plain(values))`` piece by piece, in order: a list's brackets and commas, each value's ``repr``
    (what ``str`` of a list writes for its items)."""
    if not isinstance(values, tuple):
        yield repr(values)
        return
    yield "["
    for index, value in enumerate(values):
        if index:
            yield ", "
        yield from _text_parts(value)
    yield "]"


def same_tensor(snapshot: Snapshot) -> dict[str, str]:
    """Each row that is the same Python tensor object as an earlier row, mapped to that row's name.

    ``alias = online`` makes ``alias.weight`` the very object ``online.weight`` is (``is`` gives True), and
    ``s = relu(r)`` with ``inplace=True`` returns ``r`` itself; ``sd['weight']`` of a state_dict is another
    tensor over the same memory and is not listed. The inspector numbers objects (``object_id``, 0 where
    not known), so this compares identity, not memory.
    """
    first: dict[int, str] = {}
    same: dict[str, str] = {}
    for info in snapshot.tensors:
        if not info.object_id:
            continue
        earlier = first.setdefault(info.object_id, info.name)
        if earlier != info.name:
            same[info.name] = earlier
    return same


def name_text(name: str, same_as: str | None) -> str:
    """The name cell of a row: ``alias.weight is online.weight`` for the same object under a second name
    (a Python expression that is True, code in every language), else the name."""
    return name if same_as is None else visible(f"{name} is {same_as}")
