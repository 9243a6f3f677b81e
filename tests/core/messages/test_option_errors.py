"""Options refused in the command line's own language: argparse's words quoted, exit 2, the usage first."""

from __future__ import annotations

import pytest

from tensorlab.cli.main import main
from tensorlab.core.messages.option_errors import language_asked

from .korean_only import latin_words


@pytest.mark.parametrize("argv", [["check", "x.toml", "--language", "ko", "--bogus"],
                                  ["measure", "--language=ko", "--requires-grad", "maybe"],
                                  ["run", "x.toml", "--step-time-limit", "abc", "--language", "ko"]])
def test_a_refused_option_is_said_in_korean_when_the_line_asks_for_korean(argv, capsys):
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert "옵션을 쓸 수 없습니다" in last
    assert latin_words(last.partition(":")[2]) == []   # argparse's own words are quoted


def test_without_korean_argparse_speaks_as_it_always_did(capsys):
    with pytest.raises(SystemExit):
        main(["run", "x.toml", "--bogus"])
    assert capsys.readouterr().err.strip().splitlines()[-1] == "tensorlab: error: unrecognized arguments: --bogus"


def test_the_language_is_found_anywhere_on_the_line():
    assert language_asked(["run", "--language", "ko"]) == "ko"
    assert language_asked(["--language=ko", "run"]) == "ko"
    assert language_asked(["run", "--language", "fr"]) == "en"
    assert language_asked(["run", "--language"]) == "en"


@pytest.mark.parametrize("text", ["nan", "-1", "0", "inf", "1e400", "abc", "9999999"])
def test_a_time_limit_that_is_no_limit_is_refused(text, capsys):
    """`nan` would run without a limit and `-1` stop every step at once: both are refused, exit 2."""
    with pytest.raises(SystemExit) as exited:
        main(["run", "views-share-storage", "--time-limit", text])
    assert exited.value.code == 2
    assert f"`{text}` is not a time limit" in capsys.readouterr().err


def test_a_time_limit_in_seconds_is_taken():
    from tensorlab.core.messages.option_errors import seconds

    assert seconds("2.5") == 2.5 and seconds("600") == 600.0
