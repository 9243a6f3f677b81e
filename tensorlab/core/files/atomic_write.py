"""Write a file so that a crash at any moment leaves either the old file or the new one.

The text goes to a unique temporary file in the same folder (``mkstemp``: created
exclusively, so a symlink planted at a guessable name is never followed), is
flushed and ``fsync``-ed, then renamed over the target with ``os.replace`` (atomic
on POSIX and Windows), and the folder is ``fsync``-ed so the rename itself survives
a power loss.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

__all__ = ["write_atomic", "write_text_atomic"]


def _fsync_folder(folder: Path) -> None:
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:  # pragma: no cover - Windows cannot open folders
        return
    try:
        os.fsync(descriptor)
    except OSError:  # pragma: no cover - some file systems refuse
        pass
    finally:
        os.close(descriptor)


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically (see the module docstring)."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    descriptor, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _fsync_folder(folder)


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Replace ``path`` with ``text`` (UTF-8) atomically."""
    write_atomic(path, text.encode("utf-8"))
