"""Read a user's file safely: a regular file only, and never more than a limit.

A path a user gives may name a FIFO (opening it for reading would wait for a
writer forever), a device such as /dev/zero or /dev/urandom (endless), a folder,
or a file that grows while it is read. The file is opened without blocking, the
open descriptor (not the path, which could be swapped) is checked to be a regular
file, and at most ``limit + 1`` bytes are read whatever its size said.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tensorlab.core.messages.catalogue import Message, MessageError, msg

__all__ = ["UnreadableFile", "read_regular_file"]

_KINDS = (
    (stat.S_ISDIR, "file.kind.folder"),
    (stat.S_ISFIFO, "file.kind.fifo"),
    (stat.S_ISCHR, "file.kind.device"),
    (stat.S_ISBLK, "file.kind.device"),
    (stat.S_ISSOCK, "file.kind.socket"),
)

_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
          | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


class UnreadableFile(MessageError, ValueError):
    """The file cannot be read: ``message`` says why, ``kind`` is "missing", "special", "large" or "error".

    ``reason`` is the message in English.
    """

    def __init__(self, reason: Message, kind: str = "error") -> None:
        super().__init__(reason)
        self.reason = str(self)
        self.kind = kind


def read_regular_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file at ``path``; :class:`UnreadableFile` otherwise or above ``limit`` bytes."""
    try:
        descriptor = os.open(Path(path), _FLAGS)
    except FileNotFoundError as exc:
        raise UnreadableFile(msg("file.cannot_read", detail=exc.strerror or str(exc)), "missing") from None
    except OSError as exc:
        raise UnreadableFile(msg("file.cannot_read", detail=exc.strerror or str(exc))) from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            kind = next((key for test, key in _KINDS if test(mode)), "file.kind.special")
            raise UnreadableFile(msg("file.special", kind=msg(kind)), "special")
        chunks: list[bytes] = []
        remaining = limit + 1
        while remaining > 0:
            try:
                chunk = os.read(descriptor, min(remaining, 1 << 16))
            except BlockingIOError:  # pragma: no cover - regular files never block
                break
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
    except OSError as exc:
        raise UnreadableFile(msg("file.cannot_read", detail=exc.strerror or str(exc))) from None
    finally:
        os.close(descriptor)
    data = b"".join(chunks)
    if len(data) > limit:
        raise UnreadableFile(msg("file.too_large", limit=limit), "large")
    return data
