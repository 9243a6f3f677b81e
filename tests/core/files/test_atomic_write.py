"""Saving is atomic: a process killed at any moment of a save leaves the old file intact."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from tensorlab.core.files.atomic_write import write_text_atomic

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX")

# The child saves NEW over the target, but stops at a chosen moment and waits to be killed.
CHILD = textwrap.dedent("""
    import os, sys, time
    from tensorlab.core.files import atomic_write as atomic
    target, moment, ready = sys.argv[1], sys.argv[2], sys.argv[3]

    def hold():
        open(ready, "w").close()
        time.sleep(60)

    if moment == "before-replace":
        real = os.replace
        os.replace = lambda *a, **k: (hold(), real(*a, **k))
    else:
        real_fdopen = os.fdopen
        class Half:
            def __init__(self, file):
                self.file = file
            def __enter__(self):
                return self
            def __exit__(self, *exc):
                return self.file.__exit__(*exc)
            def write(self, data):
                self.file.write(data[: len(data) // 2])
                self.file.flush()
                hold()
            def __getattr__(self, name):
                return getattr(self.file, name)
        os.fdopen = lambda *a, **k: Half(real_fdopen(*a, **k))
    atomic.write_text_atomic(target, "NEW " * 100_000)
""")


@pytest.mark.parametrize("moment", ["before-replace", "during-write"])
def test_a_save_killed_midway_leaves_the_old_file(tmp_path, moment):
    target = tmp_path / "lesson.toml"
    target.write_text("OLD", encoding="utf-8")
    ready = tmp_path / "ready"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(target), moment, str(ready)])
    try:
        deadline = time.monotonic() + 30
        while not ready.exists():
            assert child.poll() is None, "the saving process ended before it was held"
            assert time.monotonic() < deadline
            time.sleep(0.02)
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
    assert target.read_text(encoding="utf-8") == "OLD"


def test_a_save_replaces_the_file_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "out.py"
    target.write_text("OLD", encoding="utf-8")
    write_text_atomic(target, "NEW")
    assert target.read_text(encoding="utf-8") == "NEW"
    assert [p.name for p in tmp_path.iterdir()] == ["out.py"]


def test_a_symlink_planted_in_the_folder_is_not_followed(tmp_path):
    victim = tmp_path / "victim"
    victim.write_text("KEEP", encoding="utf-8")
    # Whatever temporary name a save might use, a planted link is never written through:
    # the temporary file is created exclusively with a random name.
    for name in (".out.py.tmp", "out.py.tmp"):
        (tmp_path / name).symlink_to(victim)
    write_text_atomic(tmp_path / "out.py", "NEW")
    assert victim.read_text(encoding="utf-8") == "KEEP"
    assert (tmp_path / "out.py").read_text(encoding="utf-8") == "NEW"
