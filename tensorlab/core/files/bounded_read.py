"""Read a user's file safely: a regular file only, and never more than a limit.

A path a user gives may name a FIFO (opening it for reading would wait for a
writer forever), a device such as /dev/zero or /dev/urandom (endless), a folder,
or a file that grows while it is read. The file is opened without blocking, the
open descriptor (not the path, which could be swapped) is checked to be a regular
file, and at most ``limit + 1`` bytes are read whatever its size said.

:func:`read_toml_file` reads a TOML file that way and parses it: whatever goes wrong (the
file, its encoding, the TOML, a value Python refuses such as an integer of 5,000 digits,
nesting deep enough to exhaust the parser) is one :class:`UnreadableFile`, never another
exception, so a caller that sets a bad file aside catches one thing.
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from pathlib import Path
from typing import Any

from tensorlab.core.messages.catalogue import Message, MessageError, msg

__all__ = ["UnreadableFile", "read_regular_file", "read_toml_file", "parse_toml"]

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
    """The file cannot be read: ``message`` says why.

    ``kind`` is "missing", "special", "large", "error" (the system refused) or "invalid" (read, but
    not UTF-8 TOML that Python can hold).

    ``reason`` is the message in English.
    """

    def __init__(self, reason: Message, kind: str = "error") -> None:
        super().__init__(reason)
        self.reason = str(self)
        self.kind = kind


def read_regular_file(path: str | os.PathLike[str], limit: int, follow_symlinks: bool = True) -> bytes:
    """The bytes of the regular file at ``path``; :class:`UnreadableFile` otherwise or above ``limit`` bytes.

    ``follow_symlinks=False`` refuses a symbolic link (for files in TensorLab's own folders, which it
    writes itself and never as links).
    """
    flags = _FLAGS if follow_symlinks else _FLAGS | getattr(os, "O_NOFOLLOW", 0)
    if not follow_symlinks and Path(path).is_symlink():
        # Said as it is (O_NOFOLLOW would only say "too many levels of symbolic links").
        raise UnreadableFile(msg("file.symlink"), "special")
    try:
        descriptor = os.open(Path(path), flags)
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


def parse_toml(data: bytes | str) -> dict[str, Any]:
    """The TOML document in ``data`` (UTF-8 bytes, or text); :class:`UnreadableFile` (kind "invalid") if unusable."""
    try:
        return tomllib.loads(data.decode("utf-8") if isinstance(data, bytes) else data)
    except UnicodeDecodeError as exc:
        raise UnreadableFile(msg("lesson.not_utf8", byte=exc.start), "invalid") from None
    except tomllib.TOMLDecodeError as exc:
        raise UnreadableFile(_toml_error(str(exc)), "invalid") from None
    except RecursionError:
        raise UnreadableFile(msg("lesson.toml_deep"), "invalid") from None
    except MemoryError:
        raise UnreadableFile(msg("lesson.toml_large"), "invalid") from None
    except Exception as exc:  # e.g. ValueError: Python refuses integers of over 4,300 digits
        digits = _LONG_INTEGER.search(str(exc))
        if digits is not None:   # Python's advice (sys.set_int_max_str_digits) is not the reader's to take
            raise UnreadableFile(msg("lesson.toml_long_integer", digits=int(digits.group(2)),
                                     limit=int(digits.group(1))), "invalid") from None
        raise UnreadableFile(msg("lesson.toml_value", detail=str(exc)), "invalid") from None


# tomllib ends its messages with the place: "Invalid value (at line 2, column 9)" (Python 3.11 to 3.13).
_PLACE = re.compile(r"^(?P<what>.*?)\s*\(at line (?P<line>\d+), column (?P<column>\d+)\)$", re.S)
_LONG_INTEGER = re.compile(r"limit \((\d+) digits\) for integer string conversion: value has (\d+) digits")


def _toml_error(text: str) -> Message:
    """tomllib's complaint as a message: the place in the reader's language, tomllib's words quoted."""
    place = _PLACE.match(text)
    if place is None:
        return msg("lesson.toml", detail=text)
    return msg("lesson.toml_at", line=int(place["line"]), column=int(place["column"]), detail=place["what"])


def read_toml_file(path: str | os.PathLike[str], limit: int, follow_symlinks: bool = True) -> dict[str, Any]:
    """The TOML document in the regular file at ``path`` (at most ``limit`` bytes); else :class:`UnreadableFile`."""
    return parse_toml(read_regular_file(path, limit, follow_symlinks))
