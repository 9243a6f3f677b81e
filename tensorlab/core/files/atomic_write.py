"""Write a file so that a crash at any moment leaves either the old file or the new one.

The text goes to a unique temporary file in the same folder (``mkstemp``: created
exclusively, so a symlink planted at a guessable name is never followed), is
flushed and ``fsync``-ed, then renamed over the target with ``os.replace`` (atomic
on POSIX and Windows), and the folder is ``fsync``-ed so the rename itself survives
a power loss. The file gets the permissions a plain ``open(path, "w")`` would give it: an existing
target's own, else what the umask leaves of ``0o666`` (``mkstemp`` creates its file ``0o600``, and an
exported script or picture a classmate cannot read is a surprise).

A process killed between creating the temporary file and the rename (``kill -9``, a power
loss) leaves that temporary behind. :func:`remove_stray_temporaries` removes such leftovers of
the targets a caller names: only regular files whose name is exactly TensorLab's temporary
pattern (:data:`TEMPORARY_NAME`), in that one folder, never through a symbolic link.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

__all__ = ["write_atomic", "write_text_atomic", "remove_stray_temporaries", "TEMPORARY_NAME"]

# The temporary names write_atomic makes: mkstemp's prefix ".<target>." and suffix ".tmp" around its
# random part (8 characters of [a-z0-9_], tempfile._RandomNameSequence). A test holds the two together.
_PREFIX, _SUFFIX = ".{name}.", ".tmp"
TEMPORARY_NAME = re.compile(r"\.(?P<target>[^/\x00]+)\.[a-z0-9_]{8}\.tmp")


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


def _umask() -> int:
    """The process's umask: from ``/proc`` where Linux says it (reading it by ``os.umask`` sets it for a moment,
    for every thread), else set and put back at once."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    umask = os.umask(0o077)
    os.umask(umask)
    return umask


def _mode_for(target: Path) -> int | None:
    """The permission bits ``open(target, "w")`` would leave: the target's own, else ``0o666`` less the umask."""
    if not hasattr(os, "fchmod"):   # pragma: no cover - Windows: no POSIX modes to give
        return None
    try:
        info = target.stat()
    except OSError:
        return 0o666 & ~_umask()
    return stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else None


def write_atomic(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically (see the module docstring)."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    mode = _mode_for(target)
    descriptor, temporary = tempfile.mkstemp(prefix=_PREFIX.format(name=target.name), suffix=_SUFFIX, dir=folder)
    try:
        with os.fdopen(descriptor, "wb") as file:
            if mode is not None:
                with contextlib.suppress(OSError):   # a file system without modes keeps its own
                    os.fchmod(file.fileno(), mode)
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


def remove_stray_temporaries(folder: str | os.PathLike[str], belongs: Callable[[str], bool]) -> list[str]:
    """Remove the temporaries a killed :func:`write_atomic` left in ``folder``; the names removed.

    Only a directory entry whose name is exactly :data:`TEMPORARY_NAME` for a target that
    ``belongs(target_name)`` accepts, and that is a regular file itself (``lstat``: a symbolic
    link, a folder or a FIFO of that name stays as it is), is removed; nothing below ``folder``
    is looked at. The folder is opened once and every check and removal is made relative to it,
    so a folder swapped for a link meanwhile is not followed. Call it while no save of those
    targets can be running (TensorLab's steps file: under its lock), or a save in progress loses
    its temporary. A folder that cannot be read removes nothing (no error: it is a clean-up).
    """
    removed: list[str] = []
    if not {os.stat, os.unlink} <= os.supports_dir_fd or os.scandir not in os.supports_fd:  # pragma: no cover
        return _remove_by_path(Path(folder), belongs)   # Windows: no dir_fd (and no links to plant)
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        descriptor = os.open(folder, flags)
    except OSError:
        return removed
    try:
        with os.scandir(descriptor) as entries:
            names = [entry.name for entry in entries]
        for name in names:
            match = TEMPORARY_NAME.fullmatch(name)
            if match is None or not belongs(match["target"]):
                continue
            try:
                info = os.stat(name, dir_fd=descriptor, follow_symlinks=False)
                if not stat.S_ISREG(info.st_mode):
                    continue
                os.unlink(name, dir_fd=descriptor)
            except OSError:
                continue   # gone meanwhile, or not ours to remove: leave it
            removed.append(name)
    finally:
        os.close(descriptor)
    return removed


def _remove_by_path(folder: Path, belongs: Callable[[str], bool]) -> list[str]:  # pragma: no cover - Windows
    removed: list[str] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        match = TEMPORARY_NAME.fullmatch(entry.name)
        if match is None or not belongs(match["target"]) or not entry.is_file(follow_symlinks=False):
            continue
        with contextlib.suppress(OSError):
            os.unlink(entry.path)
            removed.append(entry.name)
    return removed
