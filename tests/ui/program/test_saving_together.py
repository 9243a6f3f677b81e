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
from tensorlab.ui.program.user_steps import (
    FILE_NAME,
    LOCK_NAME,
    Anchor,
    LockBusy,
    SavedProgram,
    SavedStep,
    UserSteps,
    merge_program,
)

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

# A window's saves of one program that another process changes too: `count` saves, one step of its own more each
# time (tagged `tag`), each after the anchor `after` (a lesson step's code) or before the first lesson step. Like a
# window, it starts from the program as it loaded it (the other's steps saved before it started), and never sees
# what the other saves later.
SAME_PROGRAM = textwrap.dedent("""
    import json, sys, time
    from tensorlab.ui.program.user_steps import Anchor, SavedProgram, SavedStep, UserSteps
    folder, tag, count, start, after = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
    anchor = Anchor(after) if after else None
    store = UserSteps(folder, lock_timeout_ms=60_000)
    store.load()
    loaded = store.saved.get("builtin:inplace-on-a-leaf")
    loaded = loaded.steps if loaded is not None else ()
    open(start + "." + tag, "w").close()   # loaded: ready
    while not __import__("os").path.exists(start):
        time.sleep(0.005)
    for number in range(1, count + 1):
        steps = loaded + tuple(SavedStep(f"{tag}{j} = torch.ones({j + 1})", anchor) for j in range(number))
        program = SavedProgram("builtin", "inplace-on-a-leaf", "", steps)
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


@pytest.mark.parametrize("anchors", [("x[0] = 2", "y[0] = 5"), ("", "")], ids=["different-anchors", "same-anchor"])
def test_two_processes_changing_the_same_program_keep_every_step_of_both(tmp_path, anchors):
    """Each process knows only its own steps (a window shows its own program): every save merges step by step
    against the version it last wrote, so the file ends with all 2 x 15 steps, each process's in its order;
    the processes whose saves met the other's steps were told (the message, in English here)."""
    start, folder = tmp_path / "start", tmp_path / "data"
    folder.mkdir()
    children = [subprocess.Popen([sys.executable, "-c", SAME_PROGRAM, str(folder), tag, "15", str(start), after],
                                 env=_env(), stdout=subprocess.PIPE, text=True) for tag, after in zip("ab", anchors)]
    for tag, child in zip("ab", children):
        _wait_for(Path(f"{start}.{tag}"), child)   # both loaded the empty folder: every save meets the other's
    start.touch()
    outputs = [json.loads(child.communicate(timeout=180)[0]) for child in children]
    assert [child.returncode for child in children] == [0, 0]
    store = UserSteps(folder)
    store.load()
    assert store.problems == []
    codes = [step.code for step in store.saved["builtin:inplace-on-a-leaf"].steps]
    for tag in "ab":
        assert [c for c in codes if c.startswith(tag)] == [f"{tag}{j} = torch.ones({j + 1})" for j in range(15)]
    assert len(codes) == 30
    told = [text for out in outputs for text in out]
    assert told and all(text.startswith("Another TensorLab window") for text in told)
    if anchors == ("", ""):   # both added before the first lesson step: the later saver says both are kept
        assert any("both are kept" in text for text in told)


def test_merging_one_program_keeps_both_sides_changes_per_anchor():
    a, b = Anchor("x = 1"), Anchor("y = 2")
    base = SavedProgram("scratchpad", steps=(SavedStep("p = 1", a),))
    mine = SavedProgram("scratchpad", steps=(SavedStep("p = 1", a), SavedStep("m = 1", a)))
    theirs = SavedProgram("scratchpad", steps=(SavedStep("p = 1", a), SavedStep("t = 1", b)))
    merged, conflict = merge_program(base, mine, theirs)
    assert not conflict and merged is not None
    assert [(s.code, s.after) for s in merged.steps] == [("p = 1", a), ("m = 1", a), ("t = 1", b)]
    # Both added after the same step: both kept, this window's first, and said.
    clash = SavedProgram("scratchpad", steps=(SavedStep("p = 1", a), SavedStep("t = 1", a)))
    merged, conflict = merge_program(base, mine, clash)
    assert conflict and [s.code for s in merged.steps] == ["p = 1", "m = 1", "t = 1"]
    # One side removed a step, the other added one: the removal and the addition both hold.
    removed = SavedProgram("scratchpad", steps=())
    merged, conflict = merge_program(base, removed, theirs)
    assert not conflict and [s.code for s in merged.steps] == ["t = 1"]
    # Both removed everything: nothing left.
    assert merge_program(base, None, removed) == (None, False)
    # Unchanged on one side: the other side's version, as it is.
    assert merge_program(base, base, theirs) == (theirs, False)


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
