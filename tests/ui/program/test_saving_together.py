"""Two TensorLab processes on one data folder (issue 15, class 7): a save takes the folder's lock, re-reads
the file and merges in only its own changes, so neither erases the other's steps; a lock left by a process
killed with ``kill -9`` is taken over; a lock held too long is said (English and Korean) and the steps stay
in memory; a save killed midway leaves a whole file, and its temporary is removed at the next start.

Every test here runs real separate processes writing the same file.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tensorlab.core.files.atomic_write import TEMPORARY_NAME
from tensorlab.ui.program.user_steps import FILE_NAME, LOCK_NAME, LockBusy, SavedProgram, SavedStep, UserSteps

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")
ROOT = Path(__file__).resolve().parents[3]

# A window's saves, without the window: `count` saves of the program of lesson `name`, one step more each time.
SAVER = textwrap.dedent("""
    import json, sys, time
    from tensorlab.ui.program.user_steps import SavedProgram, SavedStep, UserSteps
    folder, name, count, start = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    store = UserSteps(folder, lock_timeout_ms=60_000)
    store.load()
    while not __import__("os").path.exists(start):
        time.sleep(0.005)
    for number in range(1, count + 1):
        steps = tuple(SavedStep(f"v{j} = torch.ones({j + 1})") for j in range(number))
        program = SavedProgram("file", name, f"/lessons/{name}.toml", steps)
        store.pending[program.key] = program
        store.saved_as(store.save())
    print(json.dumps(store.problems))
""")

# Holds the folder's lock until `release` appears (or forever, to be killed).
HOLDER = textwrap.dedent("""
    import os, sys, time
    from PySide6.QtCore import QLockFile
    lock_path, ready, release = sys.argv[1], sys.argv[2], sys.argv[3]
    lock = QLockFile(lock_path)
    assert lock.tryLock(10_000)
    open(ready, "w").close()
    while not os.path.exists(release):
        time.sleep(0.01)
    lock.unlock()
""")


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}


def _wait_for(path: Path, child: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        assert child.poll() is None, "the child ended before it was ready"
        assert time.monotonic() < deadline, "the child was never ready"
        time.sleep(0.01)


def _program(name: str, *codes: str) -> SavedProgram:
    return SavedProgram("file", name, f"/lessons/{name}.toml", tuple(SavedStep(c) for c in codes))


def test_two_processes_saving_the_same_file_keep_each_others_steps(tmp_path):
    start, folder = tmp_path / "start", tmp_path / "data"
    folder.mkdir()
    children = [subprocess.Popen([sys.executable, "-c", SAVER, str(folder), name, "25", str(start)],
                                 env=_env(), stdout=subprocess.PIPE, text=True) for name in ("first", "second")]
    start.touch()    # both start saving at the same moment
    outputs = [child.communicate(timeout=120)[0] for child in children]
    assert [child.returncode for child in children] == [0, 0]
    assert [json.loads(out) for out in outputs] == [[], []]
    store = UserSteps(folder)
    store.load()
    assert store.problems == []
    assert {key: len(program.steps) for key, program in store.saved.items()} == {
        "file:/lessons/first.toml": 25, "file:/lessons/second.toml": 25}
    assert [p.name for p in folder.iterdir()] == [FILE_NAME]   # no lock, no temporary left


def test_a_lock_left_by_a_process_killed_with_kill_9_is_taken_over(tmp_path):
    ready, release = tmp_path / "ready", tmp_path / "release"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path / LOCK_NAME), str(ready), str(release)],
                              env=_env())
    try:
        _wait_for(ready, holder)
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait(timeout=10)
    finally:
        if holder.poll() is None:
            holder.kill()
    assert (tmp_path / LOCK_NAME).exists()          # stale: its process is gone
    store = UserSteps(tmp_path, lock_timeout_ms=10_000)
    store.pending["file:/lessons/mine.toml"] = _program("mine", "a = torch.ones(2)")
    store.saved_as(store.save())
    assert store.pending == {} and not (tmp_path / LOCK_NAME).exists()
    again = UserSteps(tmp_path)
    again.load()
    assert list(again.saved) == ["file:/lessons/mine.toml"]


def test_a_lock_held_too_long_is_said_and_the_steps_stay_until_a_later_save(qapp, tmp_path):
    from tensorlab.ui.widgets import i18n

    ready, release = tmp_path / "ready", tmp_path / "release"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(tmp_path / LOCK_NAME), str(ready), str(release)],
                              env=_env())
    try:
        _wait_for(ready, holder)
        store = UserSteps(tmp_path, lock_timeout_ms=300)
        program = _program("mine", "a = torch.ones(2)")
        store.pending[program.key] = program
        with pytest.raises(LockBusy) as caught:
            store.save()
        assert "another TensorLab window" in str(caught.value) and "stay in this window" in str(caught.value)
        assert "다른 TensorLab 창이" in caught.value.render("ko") and "창에 남아 있고" in caught.value.render("ko")
        assert store.pending == {program.key: program} and not (tmp_path / FILE_NAME).exists()
        release.touch()
        holder.wait(timeout=30)
    finally:
        if holder.poll() is None:
            holder.kill()
    store.saved_as(store.save())
    assert store.pending == {} and "a = torch.ones(2)" in (tmp_path / FILE_NAME).read_text(encoding="utf-8")
    assert i18n.current_language() == "en"


def test_changes_a_closing_window_could_not_merge_are_merged_at_the_next_start(tmp_path):
    first = UserSteps(tmp_path)
    first.pending["file:/lessons/a.toml"] = _program("a", "a = torch.ones(2)")
    first.saved_as(first.save())
    closing = UserSteps(tmp_path)
    closing.load()
    closing.pending["file:/lessons/b.toml"] = _program("b", "b = torch.ones(3)")
    aside = closing.keep_unsaved()     # what flush() does when the lock cannot be taken at close
    assert aside is not None and aside.exists()
    start = UserSteps(tmp_path)
    start.load()
    assert sorted(start.saved) == ["file:/lessons/a.toml", "file:/lessons/b.toml"] and start.problems == []
    assert not aside.exists()
    assert "b = torch.ones(3)" in (tmp_path / FILE_NAME).read_text(encoding="utf-8")


# Saves the store over and over (a growing program) until it is killed.
LOOPING_SAVER = textwrap.dedent("""
    import sys
    from tensorlab.ui.program.user_steps import SavedProgram, SavedStep, UserSteps
    folder, ready = sys.argv[1], sys.argv[2]
    store = UserSteps(folder)
    store.load()
    open(ready, "w").close()
    number = 0
    while True:
        number = number % 400 + 1
        steps = tuple(SavedStep(f"v{j} = torch.ones({j + 1})") for j in range(number))
        program = SavedProgram("scratchpad", steps=steps)
        store.pending[program.key] = program
        store.saved_as(store.save())
""")


def test_saves_killed_with_kill_9_leave_a_file_that_loads_and_their_temporaries_go_at_the_next_start(tmp_path):
    """A few kills in CI; the issue's 40 by hand: ``TENSORLAB_KILLS=40 pytest tests/ui/program/test_saving_together.py
    -k kill_9``."""
    kills = int(os.environ.get("TENSORLAB_KILLS", "4"))
    for _ in range(kills):
        ready = tmp_path / "ready"
        ready.unlink(missing_ok=True)
        child = subprocess.Popen([sys.executable, "-c", LOOPING_SAVER, str(tmp_path), str(ready)], env=_env())
        try:
            _wait_for(ready, child)
            time.sleep(random.uniform(0.05, 0.5))
            os.kill(child.pid, signal.SIGKILL)
            child.wait(timeout=10)
        finally:
            if child.poll() is None:
                child.kill()
    # One temporary for sure, as a killed save leaves it.
    (tmp_path / f".{FILE_NAME}.abcd1234.tmp").write_text("half a save")
    ready.unlink()
    # Past the lock's 30 s stale time: on a busy machine the killed saver's PID may already belong to another
    # python process, and Qt then waits for the stale time before it takes the lock over.
    store = UserSteps(tmp_path, lock_timeout_ms=45_000)
    store.load()
    assert store.problems == [] and list(store.saved) in ([], ["scratchpad"])
    assert not [p.name for p in tmp_path.iterdir() if TEMPORARY_NAME.fullmatch(p.name)]
    assert not [p.name for p in tmp_path.iterdir() if "set-aside" in p.name]
