"""Answers the screen settles before a question is asked, beyond equal values (issue 18).

:mod:`tensorlab.core.checks.lesson_checks` already finds a checked value that a panel shows before
the asked step. A question can give its answer away in two more ways, both read here from the
check's syntax tree, the asked step's statement and the snapshots before and after it:

- **Apart on the map**: the step writes in place into a tensor (its version goes up), and an item of
  the check reads another tensor (its values or its version) that the storage map drew on a
  different storage before the step. The map already says the write cannot reach it (``i[0] = 100``
  asked with ``(x, i)`` after ``i = x[[1, 3]]`` put ``i`` on a strip of its own).
- **Settled before**: an item compares identities (``a is x``) of names the step does not bind, or
  reads the layout (``data_ptr()``, ``stride()``, ``storage_offset()``, ``is_contiguous()``,
  ``shape``, ...) of tensors the step neither reads, binds nor changes. Its answer was fixed by an
  earlier step, whose storage map and table show it (``w.data_ptr() == m.data_ptr()`` asked after
  ``r = t.reshape(6)``): the question belongs to that step.

Either finding is about one item of a tuple check (or one argument of a ``print`` step asked with
``check = "output"``; print binds and changes nothing, so what it prints of identities and layouts
was settled before it): a question whose every other item is new still gives that part away.
The check's values, facts and notes are not looked at here.

This module imports no torch: it reads syntax trees and snapshots.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from tensorlab.core.messages.catalogue import Message, msg
from tensorlab.core.protocol.snapshot import Snapshot

__all__ = ["settled_item", "apart_on_the_map", "items", "written", "LAYOUT_CALLS", "LAYOUT_FIELDS"]

# What a layout item may read: calls and attributes that change only when the tensor itself is changed
# in place (t_(), resize_(), set_(), as_strided_()), which a step must name the tensor to do.
LAYOUT_CALLS = frozenset({"data_ptr", "stride", "storage_offset", "is_contiguous", "size", "dim", "numel",
                          "element_size", "untyped_storage", "nbytes"})
LAYOUT_FIELDS = frozenset({"shape", "dtype", "device", "ndim", "_base", "is_cuda", "layout"})
# The fields of a tensor that a write into memory it shares can change (values, and the version counter).
_WRITTEN_FIELDS = frozenset({"data", "_version"})


def _listed(names: Iterable[str]) -> str:
    """Names as a message lists them: in code quotes, in order."""
    return ", ".join(f"`{n}`" for n in sorted(names))


def items(node: ast.expr) -> tuple[ast.expr, ...]:
    """The items a check reads: the elements of a tuple check, else the check itself."""
    return tuple(node.elts) if isinstance(node, ast.Tuple) else (node,)


def _identity_names(node: ast.expr) -> set[str] | None:
    """The names of an identity comparison (``a is x``, ``a is not None``), or None if ``node`` is none."""
    if not (isinstance(node, ast.Compare) and node.ops and all(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops)):
        return None
    names: set[str] = set()
    for operand in (node.left, *node.comparators):
        if isinstance(operand, ast.Name):
            names.add(operand.id)
        elif not isinstance(operand, ast.Constant):
            return None
    return names or None


def _layout_names(node: ast.expr) -> set[str] | None:
    """The tensor names ``node`` reads if it reads nothing but their layout (None otherwise).

    A layout read is a call of :data:`LAYOUT_CALLS` or an attribute of :data:`LAYOUT_FIELDS` on a
    name, possibly compared (``==``, ``!=``, ``is``) with another layout read or a constant.
    """
    if isinstance(node, ast.Constant):
        return set()
    if isinstance(node, ast.Compare) and all(isinstance(op, (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)) for op in node.ops):
        names: set[str] = set()
        for operand in (node.left, *node.comparators):
            part = _layout_names(operand)
            if part is None:
                return None
            names |= part
        return names
    if isinstance(node, ast.Call) and not node.args and not node.keywords:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in LAYOUT_CALLS:
            inner = func.value
            # x.untyped_storage().data_ptr(): a layout read of a layout read
            if isinstance(inner, ast.Name):
                return {inner.id}
            return _layout_names(inner) if isinstance(inner, ast.Call) else None
        return None
    if isinstance(node, ast.Attribute) and node.attr in LAYOUT_FIELDS and isinstance(node.value, ast.Name):
        return {node.value.id}
    return None


def settled_item(item: ast.expr, uses: Iterable[str], defines: Iterable[str], before: Snapshot,
                 after: Snapshot) -> Message | None:
    """Why ``item`` of a check was settled before the asked step (None if the step may change it).

    ``uses``/``defines``: the names the step's statement reads and binds.
    """
    bound = set(defines)
    identity = _identity_names(item)
    if identity is not None:
        if identity & bound or not all(before.tensor(n) is not None for n in identity):
            return None
        return msg("check.settled_before", item=ast.unparse(item), names=_listed(identity))
    layout = _layout_names(item)
    if not layout:
        return None
    touched = bound | set(uses)
    for name in layout:
        old, new = before.tensor(name), after.tensor(name)
        if name in touched or old is None or new is None or old != new:
            return None
    return msg("check.settled_before", item=ast.unparse(item), names=_listed(layout))


def _read_tensor(item: ast.expr) -> str | None:
    """The tensor whose values or version ``item`` reads (``x``, ``x._version``, ``x.data``), or None."""
    if isinstance(item, ast.Name):
        return item.id
    if isinstance(item, ast.Attribute) and item.attr in _WRITTEN_FIELDS and isinstance(item.value, ast.Name):
        return item.value.id
    return None


def written(before: Snapshot, after: Snapshot) -> tuple[str, ...]:
    """The tensors the step wrote into in place: there before and after, their version gone up."""
    found = []
    for new in after.tensors:
        old = before.tensor(new.name)
        if old is not None and old.version is not None and new.version is not None and new.version > old.version \
                and old.storage is not None and old.storage == new.storage:
            found.append(new.name)
    return tuple(found)


def apart_on_the_map(item: ast.expr, defines: Iterable[str], before: Snapshot, after: Snapshot) -> Message | None:
    """Why the storage map answers ``item`` before the step (None if it does not): see the module docstring.

    ``defines``: the names the step binds (a name it binds anew is not the tensor the map drew).
    """
    name = _read_tensor(item)
    targets = written(before, after)
    if name is None or not targets or name in targets or name in set(defines):
        return None
    old = before.tensor(name)
    if old is None or old.storage is None or after.tensor(name) is None:
        return None
    for target in targets:
        storage = before.tensor(target)
        if storage is None or storage.storage is None or storage.storage == old.storage:
            return None
    return msg("check.apart_on_the_map", name=name, written=_listed(targets))
