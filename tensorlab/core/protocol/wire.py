"""How results cross from the worker process to the window: pickles of plain data only.

The window never unpickles anything but TensorLab's own data classes and Python's
plain values (:class:`SafeUnpickler`), so even a worker that misbehaved could not
make the window run code. A part of a snapshot (:class:`TensorInfo`,
:class:`StorageInfo`, :class:`OtherInfo`) that did not change between snapshots
is sent once: later messages refer to it by a token (:class:`InfoSender` /
:class:`InfoReceiver`), so a step's message, and what the window keeps of it,
grows with what the step changed, not with the number of names.
"""

from __future__ import annotations

import dataclasses
import enum
import io
import pickle
import weakref
from types import ModuleType
from typing import Any

from tensorlab.core.messages import catalogue
from tensorlab.core.messages.catalogue import MessageError, msg
from tensorlab.core.protocol import copy_rows, explanation, measure_results, results, snapshot
from tensorlab.core.protocol.snapshot import OtherInfo, StorageInfo, TensorInfo

__all__ = ["WIRE_MODULES", "SafeUnpickler", "InfoSender", "InfoReceiver", "WireError"]

# Torch-free modules whose dataclasses may cross the wire (imported here, never by name at run time);
# the catalogue's Message is how TensorLab's own messages cross: a key and its parameters.
_WIRE: tuple[ModuleType, ...] = (snapshot, results, explanation, measure_results, copy_rows, catalogue)
WIRE_MODULES: frozenset[str] = frozenset(module.__name__ for module in _WIRE)
# (module, name) -> the data class or enum a pickle may name (an enum member unpickles as
# ``Enum(value)``: a lookup among its members, nothing else runs)
_CLASSES: dict[tuple[str, str], type] = {
    (module.__name__, name): value
    for module in _WIRE for name, value in vars(module).items()
    if isinstance(value, type) and (dataclasses.is_dataclass(value) or issubclass(value, enum.Enum))
    and value.__module__ == module.__name__
}

# Snapshot parts the inspector reuses while they do not change: each crosses once.
_SHARED: tuple[type, ...] = (TensorInfo, StorageInfo, OtherInfo)
_Part = TensorInfo | StorageInfo | OtherInfo

_BUILTINS = frozenset({"tuple", "list", "dict", "set", "frozenset", "complex", "float", "int", "str",
                       "bytes", "bool", "bytearray"})


class WireError(MessageError):
    """A message from the worker that the window refuses to read (its text from the catalogue)."""


class SafeUnpickler(pickle.Unpickler):
    """Unpickles plain values and TensorLab's data classes, nothing else."""

    def __init__(self, file: io.BytesIO, infos: dict[int, _Part] | None = None) -> None:
        super().__init__(file)
        self.infos = infos if infos is not None else {}

    def find_class(self, module: str, name: str) -> Any:
        if module == "builtins" and name in _BUILTINS:
            return super().find_class(module, name)
        value = _CLASSES.get((module, name))
        if value is not None:
            return value
        raise WireError(msg("wire.refused_class", name=f"{module}.{name}"))

    def persistent_load(self, pid: Any) -> Any:
        if isinstance(pid, tuple) and len(pid) == 2 and pid[0] == "info" and pid[1] in self.infos:
            return self.infos[pid[1]]
        raise WireError(msg("wire.unknown_reference", reference=repr(pid)[:200]))


class _TokenPickler(pickle.Pickler):
    def __init__(self, file: io.BytesIO, sender: InfoSender) -> None:
        super().__init__(file, protocol=5)
        self.sender = sender

    def persistent_id(self, obj: Any) -> Any:
        if type(obj) in _SHARED:
            return ("info", self.sender.token(obj))
        return None


class InfoSender:
    """The worker's side: gives each snapshot part a token and sends each one once."""

    def __init__(self) -> None:
        self._tokens: dict[int, int] = {}
        self._next = 0
        self._fresh: dict[int, _Part] = {}
        self._cleared = False
        # Tokens of parts this process let go of (kept history trimmed): the receiver drops them too,
        # so the window's side keeps no more of the history than the worker does.
        self._dead: list[int] = []
        self._generation = 0

    def token(self, info: _Part) -> int:
        key = id(info)
        token = self._tokens.get(key)
        if token is None:
            token = self._next
            self._next += 1
            self._tokens[key] = token
            self._fresh[token] = info
            try:
                weakref.finalize(info, self._died, key, token, self._generation)
            except TypeError:  # pragma: no cover - dataclasses accept weak references
                pass
        return token

    def _died(self, key: int, token: int, generation: int) -> None:
        if self._tokens.get(key) == token:
            del self._tokens[key]
        if generation == self._generation:
            self._dead.append(token)

    def forget(self) -> None:
        """Send everything afresh from now on; the receiver drops what it kept."""
        self._tokens.clear()
        self._fresh.clear()
        self._dead.clear()
        self._generation += 1
        self._cleared = True

    def dumps(self, message: Any) -> bytes:
        """``message`` as bytes: new snapshot parts first, then the message referring to them."""
        buffer = io.BytesIO()
        _TokenPickler(buffer, self).dump(message)
        fresh, self._fresh = self._fresh, {}
        cleared, self._cleared = self._cleared, False
        dead, self._dead = self._dead, []
        return pickle.dumps((cleared, fresh, buffer.getvalue(), dead), protocol=5)


class InfoReceiver:
    """The window's side: keeps the snapshot parts the worker sent, to resolve its tokens."""

    def __init__(self) -> None:
        # Kept until the worker starts afresh (a reset): it may refer to any of them until then.
        self.infos: dict[int, _Part] = {}

    def clear(self) -> None:
        """Forget every snapshot part (a new worker process)."""
        self.infos = {}

    def loads(self, data: bytes) -> Any:
        """The message in ``data`` (WireError if it holds anything but plain data)."""
        try:
            cleared, fresh, payload, *rest = SafeUnpickler(io.BytesIO(data)).load()
            if cleared:
                self.infos = {}
            for token in rest[0] if rest else ():
                self.infos.pop(token, None)   # the worker let go of it: nothing will name it again
            for token, info in dict(fresh).items():
                if type(info) not in _SHARED or not isinstance(token, int):
                    raise WireError(msg("wire.bad_facts"))
                self.infos[token] = info
            return SafeUnpickler(io.BytesIO(payload), self.infos).load()
        except WireError:
            raise
        except Exception as exc:
            raise WireError(msg("wire.unreadable", detail=str(exc)[:500])) from None
