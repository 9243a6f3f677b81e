"""Reading pasted bytes: the encodings and decorations a traceback arrives in, and what is refused (exit 2)."""

from __future__ import annotations

import pytest

from tensorlab.cli.main import main
from tensorlab.core.diagnose import DiagnoseInputError, read_input
from tensorlab.core.diagnose.input_text import MAX_BYTES, strip_escapes
from tensorlab.core.messages.catalogue import MessageError

TEXT = "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nRuntimeError: é 한\n"


@pytest.mark.parametrize("data", [
    TEXT.encode("utf-8"),
    b"\xef\xbb\xbf" + TEXT.encode("utf-8"),
    TEXT.encode("utf-16"),                             # PowerShell's `>`: UTF-16 LE with its BOM
    b"\xfe\xff" + TEXT.encode("utf-16-be"),
    TEXT.replace("\n", "\r\n").encode("utf-8"),
    TEXT.replace("\n", "\r").encode("utf-8"),
    TEXT.replace("\n", "\r\n").encode("utf-16"),
])
def test_every_encoding_and_line_end_reads_as_the_same_text(data):
    assert read_input(data) == TEXT


def test_ansi_escapes_are_removed():
    coloured = "\x1b[0;31mRuntimeError\x1b[0m: \x1b[1mboom\x1b[22m\x1b]8;;http://x\x07link\x1b]8;;\x1b\\ \x1b(B.\n"
    assert read_input(coloured.encode()) == "RuntimeError: boomlink .\n"
    assert strip_escapes("end\x1b") == "end"
    assert strip_escapes("a\x1b[31") == "a"          # unterminated at the end of the text
    assert strip_escapes("a\x1b[3\nb") == "a\nb"     # not a sequence across a line end: the next line is kept


@pytest.mark.parametrize("data, key", [
    (b"RuntimeError: a\x00b", "diagnose.input_nul"),
    (b"\xff\xfeR\x00\x00\x00", "diagnose.input_nul"),   # UTF-16 holding a NUL character
    (b"caf\xe9 latin-1", "diagnose.input_undecodable"),
    (b"\xff\xfe\x00\xd8", "diagnose.input_undecodable"),  # a lone surrogate in UTF-16
    (b"x" * (MAX_BYTES + 1), "diagnose.input_too_large"),
])
def test_unreadable_input_is_refused_with_a_message(data, key):
    with pytest.raises(DiagnoseInputError) as raised:
        read_input(data)
    assert isinstance(raised.value, MessageError) and raised.value.message.key == key
    assert raised.value.render("ko") != raised.value.render("en")


@pytest.mark.parametrize("data", [b"a\x00b", b"caf\xe9", b"x" * (MAX_BYTES + 1)])
def test_the_command_exits_2_for_unreadable_input(tmp_path, capsys, data):
    path = tmp_path / "paste.txt"
    path.write_bytes(data)
    assert main(["diagnose", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("tensorlab: ")


def test_a_missing_file_exits_2(tmp_path, capsys):
    assert main(["diagnose", str(tmp_path / "missing.txt"), "--language", "ko"]) == 2
    assert "읽을 수 없습니다" in capsys.readouterr().err


def test_standard_input_is_read(monkeypatch, capsys):
    import io
    import sys

    paste = b"RuntimeError: grad can be implicitly created only for scalar outputs\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(paste)))
    assert main(["diagnose", "-", "--json", "--no-run"]) == 0
    assert '"type": "RuntimeError"' in capsys.readouterr().out


def test_only_a_regular_file_is_read(capsys):
    assert main(["diagnose", "/dev/zero"]) == 2
    assert "/dev/zero" in capsys.readouterr().err
