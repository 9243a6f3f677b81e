"""A non-editable install (a built wheel) holds every module of the tree, imports each one, and finds the lessons."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_wheel_ships_the_lessons_and_finds_them(tmp_path):
    # From a clean copy of the tree: setuptools would reuse a stale build/ folder of the checkout.
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns("build", "dist", ".venv", ".git", "*.egg-info",
                                                                "__pycache__", ".pytest_cache", "shots"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(source)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    wheel = next(tmp_path.glob("tensorlab-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert "tensorlab/resources/lessons/clone-keeps-the-graph.toml" in names
    assert "tensorlab/resources/lessons/course.toml" in names       # the course's order and chapters
    assert "tensorlab/resources/i18n/tensorlab_ko.qm" in names
    target = tmp_path / "site"
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
                                str(wheel)], capture_output=True, text=True, timeout=600)
    assert installed.returncode == 0, installed.stderr
    modules = sorted(".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
                     for p in (ROOT / "tensorlab").rglob("*.py") if p.name != "__main__.py")
    shipped = {n for n in names if n.endswith(".py")}
    missing = [m for m in modules if m.replace(".", "/") + ".py" not in shipped
               and m.replace(".", "/") + "/__init__.py" not in shipped]
    assert not missing, f"modules of the tree that the wheel lacks: {missing}"
    probe = ("import importlib, sys, tensorlab; from tensorlab.core.lessons.lesson import builtin_lessons; "
             f"[importlib.import_module(m) for m in {modules!r}]; "
             "print(tensorlab.__file__); print(len(builtin_lessons()))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path,
                          env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"}, timeout=300)
    assert done.returncode == 0, done.stderr
    location, count = done.stdout.split()
    lessons = [p for p in (ROOT / "tensorlab" / "resources" / "lessons").glob("*.toml") if p.name != "course.toml"]
    assert location.startswith(str(target)) and int(count) == len(lessons)
