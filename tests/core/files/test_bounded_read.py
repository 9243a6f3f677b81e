"""The one bounded reader: a TOML file's every failure is one UnreadableFile."""

from __future__ import annotations

import sys

import pytest

from tensorlab.core.files.bounded_read import UnreadableFile, parse_toml, read_regular_file, read_toml_file

FAILURES = {
    "a 5,000-digit integer": ("n = " + "9" * 5000).encode(),
    "deep nesting": ("x = " + "[" * 100_000 + "]" * 100_000).encode(),
    "not UTF-8": b"a = '\xff'",
    "not TOML": b"a = [",
}


@pytest.mark.parametrize("data", FAILURES.values(), ids=FAILURES.keys())
def test_every_way_a_toml_file_fails_is_one_unreadable_file(data):
    with pytest.raises(UnreadableFile) as caught:
        parse_toml(data)
    assert caught.value.kind == "invalid" and caught.value.reason


def test_a_toml_file_is_read_and_parsed(tmp_path):
    (tmp_path / "a.toml").write_text('a = 1\n[b]\nc = "d"\n')
    assert read_toml_file(tmp_path / "a.toml", 100) == {"a": 1, "b": {"c": "d"}}
    with pytest.raises(UnreadableFile) as caught:
        read_toml_file(tmp_path / "a.toml", 5)
    assert caught.value.kind == "large"
    with pytest.raises(UnreadableFile) as caught:
        read_toml_file(tmp_path / "missing.toml", 100)
    assert caught.value.kind == "missing"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX links")
def test_a_link_is_followed_unless_refused(tmp_path):
    (tmp_path / "real").write_bytes(b"x")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert read_regular_file(tmp_path / "link", 10) == b"x"
    with pytest.raises(UnreadableFile):
        read_regular_file(tmp_path / "link", 10, follow_symlinks=False)


def test_toml_errors_give_the_place_in_the_readers_language():
    """tomllib's place ("at line 2, column 9") is said in the message's language; its words stay quoted."""


    with pytest.raises(UnreadableFile) as caught:
        parse_toml('id = "x"\ntitle = \n')
    assert str(caught.value) == "this is not valid TOML (line 2, column 9): Invalid value"
    assert caught.value.render("ko") == "올바른 TOML이 아닙니다(2번째 줄 9번째 글자): “Invalid value”"


def test_a_5000_digit_integer_is_named_without_pythons_advice():


    with pytest.raises(UnreadableFile) as caught:
        parse_toml("a = " + "1" * 5000)
    assert "set_int_max_str_digits" not in str(caught.value) + caught.value.render("ko")
    assert "5,000" in str(caught.value) and "5,000자리" in caught.value.render("ko")
