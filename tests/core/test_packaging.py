"""A non-editable install (a built wheel) finds the built-in lessons."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_wheel_ships_the_lessons_and_finds_them(tmp_path):
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    wheel = next(tmp_path.glob("tensorlab-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "tensorlab/resources/lessons/clone-keeps-the-graph.toml" in names
    assert "tensorlab/resources/i18n/tensorlab_ko.qm" in names
    target = tmp_path / "site"
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
                                str(wheel)], capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stderr
    probe = ("import tensorlab, sys; from tensorlab.core.lessons import builtin_lessons; "
             "print(tensorlab.__file__); print(len(builtin_lessons()))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path,
                          env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"}, timeout=300)
    assert done.returncode == 0, done.stderr
    location, count = done.stdout.split()
    assert location.startswith(str(target)) and int(count) == len(list((ROOT / "resources" / "lessons").glob("*.toml")))
