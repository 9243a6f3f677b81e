"""The offscreen renderer (`export --png`, `--screenshot`): private settings, `run`'s limits, trimmed history."""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path

from tensorlab.core.lessons.lesson import parse_lesson
from tensorlab.core.protocol.limits import DEFAULT_LIMITS
from tensorlab.ui.window.offscreen import isolated_window


def test_settings_live_in_a_fresh_private_folder_never_at_a_predictable_name(tmp_path, monkeypatch, qtbot):
    """A name planted in TMPDIR (a symlink to a folder of the attacker's) is never followed or written."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for name in ("tensorlab-render", "settings.ini", "tensorlab-render-settings.ini", "tensorlab.ini"):
        (tmp_path / name).symlink_to(elsewhere)
    with isolated_window(lesson="assignment-is-not-a-copy") as window:
        folder = Path(window.settings.store.fileName()).parent
        assert folder.parent == tmp_path and not folder.is_symlink()
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700 and folder.stat().st_uid == os.getuid()
        window.settings.store.sync()
    assert not folder.exists()
    assert list(elsewhere.iterdir()) == []


def _long_lesson():
    steps = "".join('[[step]]\ncode = "x.add_(1)"\n' for _ in range(12))
    return parse_lesson('[lesson]\nid = "long"\ntitle = "Long"\n[[step]]\ncode = "x = torch.zeros(10000)"\n'
                        + steps)


def test_stepping_back_in_a_trimmed_history_shows_the_right_values(qtbot):
    # A 16 MB budget keeps 1 MB of history: the last two steps whole, the values of the others dropped.
    small = DEFAULT_LIMITS.with_memory(16 * 1024**2)
    with isolated_window(limits=small, memory_limit=16 * 1024**2) as window:
        controller = window.controller
        said = []
        window.statusBar().messageChanged.connect(said.append)
        controller.load_lesson(_long_lesson())
        controller.run_to_end()
        controller.wait_idle()
        assert controller.state.trimmed > 0 and controller.state.whole
        # The window says so, once, and it is the last word of the run (after its "Ready").
        qtbot.waitUntil(lambda: bool(said) and said[-1].startswith("a long run: to stay within the memory budget"))
        assert sum(1 for text in said if text.startswith("a long run")) == 1
        shown = []
        controller.stateChanged.connect(lambda state: shown.append(state))
        controller.go_to(3)
        controller.wait_idle()
        # Never a state without its values on screen: the worker re-read them by replay first.
        assert shown and all(state.whole for state in shown)
        state = controller.state
        assert state.position == 3 and state.snapshot.tensor("x").values == (2.0,) * 10000
        assert state.previous_snapshot.tensor("x").values == (1.0,) * 10000
        assert json.dumps(state.snapshot.tensor("x").values[:2]) == "[2.0, 2.0]"


def test_a_screenshot_does_not_print_the_offscreen_platforms_size_hint_note(tmp_path):
    """Run as a user runs it (pytest-qt would catch Qt's messages here): stderr says only "saved"."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-m", "tensorlab", "--lesson", "views-share-storage", "--step", "1",
                           "--screenshot", str(tmp_path / "a.png"), "--size", "800x600"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "propagateSizeHints" not in done.stderr and (tmp_path / "a.png").stat().st_size > 0


def test_export_png_and_map_only_slides_print_no_qt_platform_noise(tmp_path):
    """`tensorlab export ID --png DIR` (both kinds, projector too), run as a user runs it: no Qt note."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    for flags in (["--map-only"], ["--presentation", "--size", "1024x768"]):
        folder = tmp_path / "-".join(flags)
        done = subprocess.run([sys.executable, "-m", "tensorlab.cli", "export", "views-share-storage", "--png",
                               str(folder), *flags], capture_output=True, text=True, env=env, timeout=180)
        assert done.returncode == 0, done.stderr
        assert "propagateSizeHints" not in done.stderr + done.stdout and "qt.qpa" not in done.stderr, done.stderr
        assert sorted(folder.glob("*.png"))
