"""The `tensorlab` launcher: the window's options, a headless command handed on, and clear refusals."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tensorlab.gui import launch


def _tensorlab(*words: str, tmp_path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), XDG_STATE_HOME=str(tmp_path / "state"))
    return subprocess.run([sys.executable, "-m", "tensorlab", *words], capture_output=True, text=True, env=env,
                          timeout=300)


def test_help_names_the_window_options_and_every_command(capsys):
    assert launch.main(["help"]) == 0
    shown = capsys.readouterr().out
    assert "--screenshot" in shown and all(command in shown for command in launch.HEADLESS)


@pytest.mark.parametrize("words, says", [
    (["bogus"], "no command `bogus`"),
    (["--device", "cpu", "run", "assignment-is-not-a-copy"], "is an option of the window, not of `run`"),
    (["--language", "ko", "run", "assignment-is-not-a-copy"], "창의 옵션이지 `run`의 옵션이 아닙니다"),
    (["--step", "-3"], "--step must be 0"),
])
def test_what_the_launcher_refuses_it_says_and_exits_2(words, says, capsys):
    assert launch.main(words) == 2
    assert says in capsys.readouterr().err


def test_a_screenshot_past_the_end_of_the_lesson_is_refused(tmp_path):
    done = _tensorlab("--lesson", "assignment-is-not-a-copy", "--step", "99", "--screenshot", str(tmp_path / "x.png"),
                      tmp_path=tmp_path)
    assert done.returncode == 2 and "--step 99 is outside this lesson" in done.stderr
    assert not (tmp_path / "x.png").exists()


def test_an_export_with_a_bad_size_is_refused_before_it_writes_anything(tmp_path):
    script = tmp_path / "out.py"
    done = _tensorlab("export", "assignment-is-not-a-copy", "--py", str(script), "--png", str(tmp_path / "png"),
                      "--size", "12", tmp_path=tmp_path)
    assert done.returncode == 2 and "--size must be WIDTHxHEIGHT" in done.stderr
    assert not script.exists() and not (tmp_path / "png").exists()
