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

__all__ = ["UnreadableFile", "read_regular_file"]

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)

_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
          | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


class UnreadableFile(ValueError):
    """The file cannot be read: ``reason`` says why, ``kind`` is "missing", "special", "large" or "error"."""

    def __init__(self, reason: str, kind: str = "error") -> None:
        super().__init__(reason)
        self.reason = reason
        self.kind = kind


def read_regular_file(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file at ``path``; :class:`UnreadableFile` otherwise or above ``limit`` bytes."""
    try:
        descriptor = os.open(Path(path), _FLAGS)
    except FileNotFoundError as exc:
        raise UnreadableFile(f"cannot read the file: {exc.strerror or exc}", "missing") from None
    except OSError as exc:
        raise UnreadableFile(f"cannot read the file: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            kind = next((what for test, what in _KINDS if test(mode)), "a special file")
            raise UnreadableFile(f"this is {kind}, not a lesson file: only regular files are read", "special")
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
        raise UnreadableFile(f"cannot read the file: {exc.strerror or exc}") from None
    finally:
        os.close(descriptor)
    data = b"".join(chunks)
    if len(data) > limit:
        raise UnreadableFile(f"the file is larger than {limit:,} bytes", "large")
    return data
