"""Run a command the way the hostile corpus needs: contained, watched, measured.

:func:`run_watched` starts a command in a fresh session (its own process group)
with HOME and TMPDIR pointed into a private folder, polls the resident memory
(VmRSS in ``/proc/<pid>/status``) of every process in that session — the
``tensorlab`` process, the fork server it starts and the workers forked from it
— and kills the whole session when it passes a memory or a wall-clock limit.

:func:`read_expectations` reads the comment header of a corpus file::

    # attack: what the file tries (required)
    # expect: what TensorLab must do instead (required)
    # exit: 0 | 2                                (required)
    # error: STEP TYPE[|TYPE...][: TEXT]       step STEP (1-based) raises TYPE, its message contains TEXT
    # error: STEP                               step STEP raises something (torch decides what)
    # error: any TYPE[: TEXT]                  at least one step raises this; others may raise it too
    # output: STEP: TEXT                        step STEP printed TEXT
    # stderr: TEXT                              (exit 2) the message on stderr contains TEXT
    # args: --memory-limit 1G                   extra arguments for `tensorlab run`
    # mode: transcript                          run without --json
    # optional: TYPE[|TYPE...]                 any step may also raise this (a limit a loaded machine may reach)
    # check: 0 | 1 | 2 | 0|1                    also run `tensorlab check` on the file: its exit status (or statuses)
    # check-output: TEXT                        what `tensorlab check` prints contains TEXT
    # rss: 1G                                   a tighter watchdog on the whole process tree (run and export)

Every step not named by an ``error:`` line must succeed.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["Expectations", "Run", "read_expectations", "run_watched", "tensorlab_command", "private_env"]

_POLL = 0.05


@dataclass
class Expectations:
    """What a corpus file's header promises."""

    attack: str
    expect: str
    exit: int
    errors: dict[int, list[tuple[frozenset[str] | None, str | None]]] = field(default_factory=dict)
    any_errors: list[tuple[frozenset[str] | None, str | None]] = field(default_factory=list)
    outputs: list[tuple[int, str]] = field(default_factory=list)
    stderr: str | None = None
    args: list[str] = field(default_factory=list)
    transcript: bool = False
    optional: frozenset[str] = frozenset()
    check: frozenset[int] | None = None
    check_output: str | None = None
    rss: int | None = None


def _error_pattern(text: str) -> tuple[frozenset[str] | None, str | None]:
    kind, _, message = text.partition(":")
    kind = kind.strip()
    return (frozenset(kind.split("|")) if kind else None, message.strip() or None)


def read_expectations(path: Path) -> Expectations:
    """The header of ``path`` (comment lines at the top); ValueError if it lacks a required line."""
    fields: dict[str, list[str]] = {}
    last = None
    for raw in path.read_bytes().decode("utf-8", "replace").splitlines():
        if not raw.startswith("#"):
            break
        text = raw[1:].strip()
        key, colon, value = text.partition(":")
        if colon and key.strip() in {"attack", "expect", "exit", "error", "output", "stderr", "args", "mode",
                                                "optional", "check", "check-output", "rss"}:
            last = key.strip()
            fields.setdefault(last, []).append(value.strip())
        elif last in ("attack", "expect") and text:
            fields[last][-1] += " " + text
    for required in ("attack", "expect", "exit"):
        if not fields.get(required):
            raise ValueError(f"{path.name}: the header has no `# {required}:` line")
    expectations = Expectations(fields["attack"][0], fields["expect"][0], int(fields["exit"][0]))
    for line in fields.get("error", []):
        where, _, rest = line.partition(" ")
        if where == "any":
            expectations.any_errors.append(_error_pattern(rest))
        else:
            expectations.errors.setdefault(int(where), []).append(_error_pattern(rest))
    for line in fields.get("output", []):
        step, _, text = line.partition(":")
        expectations.outputs.append((int(step), text.strip()))
    expectations.stderr = (fields.get("stderr") or [None])[0]
    expectations.args = " ".join(fields.get("args", [])).split()
    expectations.transcript = "transcript" in fields.get("mode", [])
    expectations.optional = frozenset(k.strip() for line in fields.get("optional", []) for k in line.split("|"))
    if fields.get("check"):
        expectations.check = frozenset(int(code) for code in fields["check"][0].split("|"))
    expectations.check_output = (fields.get("check-output") or [None])[0]
    if fields.get("rss"):
        text = fields["rss"][0].strip().upper()
        expectations.rss = int(float(text[:-1]) * 1024 ** " KMG".index(text[-1])) if text[-1] in "KMG" else int(text)
    return expectations


@dataclass
class Run:
    """What one watched command did."""

    returncode: int | None
    stdout: Path
    stderr: str
    seconds: float
    peak_rss: int                 # bytes: the largest sum of VmRSS over the session's processes
    killed: str | None = None     # "memory" or "time" when the watchdog ended it

    def describe(self) -> str:
        return (f"exit {self.returncode}, {self.seconds:.1f} s, peak RSS {self.peak_rss / 2**20:.0f} MB"
                + (f", killed for {self.killed}" if self.killed else ""))


def tensorlab_command() -> list[str]:
    """`tensorlab` from this environment (the console script next to Python, else `python -m tensorlab`)."""
    script = Path(sys.executable).with_name("tensorlab")
    return [str(script)] if script.exists() else [sys.executable, "-m", "tensorlab"]


def private_env(home: Path) -> dict[str, str]:
    """This environment with every place a program writes to by default moved into ``home``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("XDG_", "TENSORLAB_"))}
    for name in ("HOME", "TMPDIR", "TEMP", "TMP"):
        env[name] = str(home)
    for name, folder in (("XDG_CONFIG_HOME", ".config"), ("XDG_CACHE_HOME", ".cache"),
                         ("XDG_DATA_HOME", ".local/share"), ("XDG_STATE_HOME", ".local/state")):
        env[name] = str(home / folder)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    # Files run two at a time on a 2-core machine: torch's OpenMP threads of one file (which spin
    # between parallel regions) would slow the other past its time limit. One thread each.
    env["OMP_NUM_THREADS"] = "1"
    return env


def _session_processes(session: int) -> list[int]:
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:
            continue
        fields = stat[stat.rindex(b")") + 2:].split()
        if int(fields[2]) == session or int(fields[3]) == session:  # process group or session
            found.append(int(entry.name))
    return found


def _rss(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", "rb") as handle:
            for line in handle:
                if line.startswith(b"VmRSS:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _kill_session(session: int) -> None:
    try:
        os.killpg(session, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for pid in _session_processes(session):  # any that left the process group but not the session
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def run_watched(argv: list[str], cwd: Path, env: dict[str, str], wall: float, rss_limit: int) -> Run:
    """Run ``argv`` in ``cwd``; kill its whole session over ``wall`` seconds or ``rss_limit`` bytes."""
    stdout = cwd / "stdout.txt"
    stderr = cwd / "stderr.txt"
    started = time.monotonic()
    peak = 0
    killed = None
    with open(stdout, "wb") as out, open(stderr, "wb") as err:
        process = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                   start_new_session=True)
        try:
            while process.poll() is None:
                total = sum(_rss(pid) for pid in _session_processes(process.pid))
                peak = max(peak, total)
                if total > rss_limit:
                    killed = "memory"
                elif time.monotonic() - started > wall:
                    killed = "time"
                if killed:
                    _kill_session(process.pid)
                    process.wait()
                    break
                time.sleep(_POLL)
        finally:
            seconds = time.monotonic() - started
            _kill_session(process.pid)  # the fork server and workers, if any outlived the command
            if process.poll() is None:
                process.kill()
                process.wait()
    return Run(process.returncode, stdout, stderr.read_bytes().decode("utf-8", "replace"), seconds, peak, killed)


def listing(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``folder`` with its size and modification time (to see that nothing changed)."""
    found = {}
    for root, _, files in os.walk(folder):
        for name in files:
            path = Path(root, name)
            try:
                info = path.lstat()
            except OSError:
                continue
            found[str(path.relative_to(folder))] = (info.st_size, info.st_mtime_ns)
    return found


def fresh_folder(base: Path, name: str) -> Path:
    """An empty folder ``base/name`` (emptied if it exists)."""
    folder = base / name
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder
