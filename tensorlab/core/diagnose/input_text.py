"""What a learner pastes or saves, as text: the encodings and decorations a traceback arrives in.

A traceback comes from a terminal, a notebook, a CI log or a PowerShell redirect: UTF-8 (with or
without a byte-order mark), UTF-16 with a byte-order mark (PowerShell's ``>``), CRLF or CR line
ends, ANSI colour escapes (IPython, pytest). :func:`read_input` turns the bytes into plain text
with ``\\n`` line ends and no escape sequences, or refuses them with a
:class:`DiagnoseInputError`: more than :data:`MAX_BYTES`, NUL bytes in the text, or bytes that
are no UTF-8 or UTF-16 (the CLI's exit 2). Every step is one pass over the input.
"""

from __future__ import annotations

import codecs

from tensorlab.core.messages.catalogue import MessageError, msg

__all__ = ["DiagnoseInputError", "read_input", "strip_escapes", "MAX_BYTES"]

MAX_BYTES = 1_000_000   # 1 MB: a traceback is kilobytes; a bigger paste is a log, not an error


class DiagnoseInputError(MessageError):
    """The pasted or saved bytes cannot be read as a traceback (too large, NUL bytes, not UTF-8/UTF-16)."""


def read_input(data: bytes) -> str:
    """``data`` as text: decoded (UTF-8, UTF-8 with BOM, UTF-16 with BOM), line ends ``\\n``, ANSI escapes removed.

    Raises :class:`DiagnoseInputError` for more than :data:`MAX_BYTES` bytes, bytes that decode to no text
    of those encodings, or text holding NUL characters.
    """
    if len(data) > MAX_BYTES:
        raise DiagnoseInputError(msg("diagnose.input_too_large", size=len(data), limit=MAX_BYTES))
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
    elif data.startswith(codecs.BOM_UTF8):
        encoding = "utf-8-sig"
    else:
        encoding = "utf-8"
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise DiagnoseInputError(msg("diagnose.input_undecodable", offset=exc.start)) from None
    if "\x00" in text:
        raise DiagnoseInputError(msg("diagnose.input_nul", offset=text.index("\x00")))
    return strip_escapes(text.replace("\r\n", "\n").replace("\r", "\n"))


def strip_escapes(text: str) -> str:
    """``text`` without ANSI escape sequences (CSI ``ESC [ ... final``, OSC ``ESC ] ... BEL``, ``ESC ( B``, ``ESC x``).

    One pass, no regular expression: an unterminated sequence ends at the end of the text.
    """
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        start = text.find("\x1b", i)
        if start < 0:
            out.append(text[i:])
            break
        out.append(text[i:start])
        j = start + 1
        if j >= n:
            break
        lead = text[j]
        j += 1
        if lead == "[":   # CSI: parameter and intermediate bytes, then one final byte in @..~
            while j < n and not ("@" <= text[j] <= "~"):
                if text[j] == "\n":   # not a sequence after all: keep the line
                    break
                j += 1
            if j < n and text[j] != "\n":
                j += 1
        elif lead == "]":   # OSC: up to BEL or ESC \
            while j < n and text[j] not in "\x07\x1b\n":
                j += 1
            if j < n and text[j] == "\x07":
                j += 1
            elif j + 1 < n and text[j] == "\x1b" and text[j + 1] == "\\":
                j += 2
        elif lead in "()*+-./#%" and j < n:   # a character set designation: one more byte (ESC ( B)
            j += 1
        i = j
    return "".join(out)
