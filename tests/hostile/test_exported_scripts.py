"""Issue #15, class 1: the exported script of every hostile file runs only what TensorLab ran.

Each selected corpus file is exported as `tensorlab export` does (the lesson run in the worker,
under the corpus's limits, then its script and notebook made and checked). The script must
compile, and run with plain Python it must import nothing new beyond what torch itself loads,
open no file for writing (nor read one outside the Python installation and the system's own
folders) and start no process. The scripts run as forks of one process that imported torch once,
each child with ``sys.addaudithook`` watching imports, file opens and subprocesses, an
address-space cap and an alarm. The notebook's Markdown must hold no math delimiter and no raw
URL, and each of its code cells must compile.

CI runs the ``exp-*`` files (this class's own corpus) and one in five of the other files that
exit 0, under shorter time limits (about 40 s on 2 cores); every file, under the corpus's limits:
``TENSORLAB_HOSTILE=all python -m pytest tests/hostile/test_exported_scripts.py`` (the corpus's switch).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import nbformat
import pytest

from tensorlab.cli.main import main
from tests.hostile.harness import read_expectations

HERE = Path(__file__).parent
EXPORTABLE = [path for path in sorted(HERE.glob("*.toml")) if read_expectations(path).exit == 0
              and not read_expectations(path).transcript]
SAMPLE_EVERY = 5
# Every file: the corpus run's limits (tests/hostile/test_hostile.py), so a step is refused or stopped as it
# is there. The CI sample: shorter ones, to keep it under a minute (a step stopped is a "not run" comment).
RUN_LIMITS = ["--time-limit", "15", "--step-time-limit", "8"]
SAMPLE_LIMITS = ["--time-limit", "5", "--step-time-limit", "2"]


def _selected(files: list[Path]) -> list[Path]:
    if os.environ.get("TENSORLAB_HOSTILE", "").lower() == "all":
        return files
    own = [path for path in files if path.name.startswith("exp-")]
    others = [path for path in files if not path.name.startswith("exp-")]
    return own + [path for number, path in enumerate(others) if number % SAMPLE_EVERY == 2]


FILES = _selected(EXPORTABLE)
LIMITS = RUN_LIMITS if len(FILES) == len(EXPORTABLE) else SAMPLE_LIMITS

# Packages whose modules torch and NumPy load by themselves, by name too (torch's lazy submodules,
# sympy and mpmath for symbolic shapes).
ALLOWED_PACKAGES = ("torch", "numpy", "sympy", "mpmath", "functorch", "typing_extensions")
ALLOWED_OPEN_ROOTS = ("/proc/", "/sys/", "/dev/", "/usr/", "/lib/", "/lib64/", "/etc/")

# Runs each script named on the command line in a child forked after torch was imported once.
# The child compiles the script before it watches anything, then installs the audit hook, runs it,
# and writes what the hook saw (imports, opens, processes) as JSON beside it.
RUNNER = textwrap.dedent(r"""
    import dis, importlib, json, os, resource, signal, sys, traceback
    import copy, torch, numpy  # noqa: F401  (what an exported script imports, imported once here)
    roots = tuple(sorted({sys.prefix, sys.base_prefix, sys.exec_prefix, os.path.dirname(os.__file__),
                          os.path.dirname(torch.__file__), os.path.dirname(numpy.__file__)}))
    machinery = os.path.dirname(importlib.__file__)
    statements = {dis.opmap["IMPORT_NAME"], dis.opmap["IMPORT_FROM"]}
    statuses = {}
    for path in sys.argv[1:]:
        pid = os.fork()
        if pid == 0:
            folder = os.path.dirname(path)
            os.chdir(folder)
            out = os.open(path + ".out", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            err = os.open(path + ".err", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
            os.dup2(out, 1)
            os.dup2(err, 2)
            report = open(path + ".json", "w")
            source = open(path, encoding="utf-8").read()
            code = compile(source, path, "exec")
            resource.setrlimit(resource.RLIMIT_AS, (6 * 1024**3, 6 * 1024**3))
            seen = {"imports": {}, "opens": [], "processes": [], "source": source}
            watching = [True]
            before = set(sys.modules)

            def finish(status):
                watching[0] = False
                sys.stdout.flush()
                sys.stderr.flush()
                # Every module loaded while the script ran, and how it was asked for ("unseen": by
                # importlib.import_module or from C, which raise no audit event).
                loaded = sorted(set(sys.modules) - before)
                seen["imports"] = {name: seen["imports"].get(name, "unseen") for name in loaded}
                json.dump(seen, report)
                report.close()
                os._exit(status)

            # Plain Python has none of TensorLab's limits (a print of a huge storage takes minutes):
            # past 30 s the script is stopped, and what it did until then is reported.
            signal.signal(signal.SIGALRM, lambda number, frame: finish(124))
            signal.alarm(30)

            def requester():
                # The frame that asked for the import, past the import machinery's own frames.
                frame = sys._getframe(2)
                while frame is not None and (frame.f_code.co_filename.startswith("<frozen importlib")
                                             or frame.f_code.co_filename.startswith(machinery)):
                    frame = frame.f_back
                if frame is None:
                    return "unknown"
                if frame.f_code.co_filename == path:
                    return "script"
                if frame.f_code.co_code[frame.f_lasti] in statements:
                    return "statement"
                # torch's import of a name it was given (Tensor.type, storage.type, set_default_tensor_type)
                return "given name" if frame.f_code.co_name == "_import_dotted_name" else "by name"

            def hook(event, args):
                if not watching[0]:
                    return
                if event == "import":
                    seen["imports"].setdefault(str(args[0]), requester())
                elif event == "open":
                    name, mode, flags = args
                    if isinstance(name, int) or name is None:
                        return
                    writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                        isinstance(flags, int) and flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))
                    name = os.path.abspath(os.fsdecode(name))
                    if name == path and not writes:
                        return   # the script itself, read again for a traceback or a warning's line
                    if writes or not name.startswith(roots):
                        seen["opens"].append([name, bool(writes)])
                elif event.startswith(("subprocess.", "os.system", "os.exec", "os.spawn", "os.posix_spawn",
                                       "os.fork", "pty.spawn", "socket.connect", "os.startfile")):
                    seen["processes"].append(event)

            sys.addaudithook(hook)
            status = 0
            try:
                exec(code, {"__name__": "__main__", "__file__": path})
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else 1
            except BaseException:
                traceback.print_exc()
                status = 1
            signal.alarm(0)
            finish(status)
        _, status = os.waitpid(pid, 0)
        statuses[path] = os.waitstatus_to_exitcode(status)
    print(json.dumps(statuses))
""")


def run_scripts(paths: list[Path], cwd: Path, env: dict[str, str] | None = None) -> dict[str, dict]:
    """Run ``paths`` as forks of one process that imported torch once; each one's status, output and events."""
    done = subprocess.run([sys.executable, "-c", RUNNER, *map(str, paths)], capture_output=True, text=True,
                          timeout=600, cwd=cwd, env=env)
    assert done.returncode == 0, done.stderr[-3000:]
    statuses = json.loads(done.stdout.strip().splitlines()[-1])
    results = {}
    for path in paths:
        report = Path(f"{path}.json")
        results[path.name] = {
            "status": statuses[str(path)],
            "stdout": Path(f"{path}.out").read_text(encoding="utf-8", errors="replace"),
            "stderr": Path(f"{path}.err").read_text(encoding="utf-8", errors="replace"),
            **(json.loads(report.read_text()) if report.exists() and report.stat().st_size else
               {"imports": None, "opens": None, "processes": None}),
        }
    return results


def problems(result: dict, private: Path) -> list[str]:
    """What a script did that an exported script must never do (empty: nothing); ``private``: its own folder
    (its HOME and TMPDIR), where torch may write and read its own temporary files.

    A module loaded while it ran is a finding when the script asked for it: the script itself imported
    it, torch imported a name it was given (``storage.type('name')``, ``Tensor.type``), or it was
    loaded by name (``__import__``, ``importlib``, from C) and its name is written in the script.
    Torch's own lazy imports (its packages, an ``import`` statement of an installed module, or a name
    written in torch's code) are not.
    """
    if result["imports"] is None:
        return [f"the script did not finish (status {result['status']}): {result['stderr'][-1500:]}"]
    source = result["source"]
    found = [f"imported {name} ({how})" for name, how in result["imports"].items()
             if how in ("script", "given name") or (
                 how != "statement" and name.split(".")[0] not in ALLOWED_PACKAGES
                 and re.search(rf"\b{re.escape(name.split('.')[0])}\b", source))]
    found += [f"opened {name}" + (" for writing" if writes else "") for name, writes in result["opens"]
              if not name.startswith(str(private) + os.sep) and (writes or not name.startswith(ALLOWED_OPEN_ROOTS))]
    found += [f"started a process ({event})" for event in result["processes"]]
    return found


@pytest.fixture(scope="module")
def exported(request, tmp_path_factory) -> dict[str, tuple[int, str, Path, Path]]:
    """Each file a collected test asks for, exported as `tensorlab export` does: (exit status, stderr, script,
    notebook)."""
    folder = tmp_path_factory.mktemp("exported")
    asked = {item.callspec.params["name"] for item in request.session.items
             if item.module is request.module and hasattr(item, "callspec") and "name" in item.callspec.params}
    made = {}
    for path in [path for path in FILES if path.name in asked]:
        script, notebook = folder / f"{path.stem}.py", folder / f"{path.stem}.ipynb"
        arguments = read_expectations(path).args
        # In this process: the lesson's steps run in the worker, as for `tensorlab export`.
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            status = main(["export", *LIMITS, *arguments, str(path), "--py", str(script),
                           "--ipynb", str(notebook)])
        made[path.name] = (status, err.getvalue(), script, notebook)
    return made


@pytest.fixture(scope="module")
def private(tmp_path_factory) -> Path:
    """The scripts' own folder: HOME, TMPDIR and the working folder of each run are inside it."""
    return tmp_path_factory.mktemp("ran")


@pytest.fixture(scope="module")
def ran(exported, private) -> dict[str, dict]:
    folder = private
    paths = []
    for name, (status, _, script, _) in exported.items():
        if status == 0:
            own = folder / Path(name).stem
            own.mkdir()
            paths.append(own / script.name)
            paths[-1].write_text(script.read_text(encoding="utf-8"), encoding="utf-8")
    env = {**os.environ, "HOME": str(folder), "TMPDIR": str(folder), "OMP_NUM_THREADS": "1"}
    return run_scripts(paths, folder, env) if paths else {}


_MATH = re.compile(r"\$|\\(?:begin|end)\{|\\\\[()\[\]]|\\[()\[\]]")


@pytest.mark.parametrize("name", [path.name for path in FILES])
def test_the_exported_script_compiles_and_runs_only_what_tensorlab_ran(name, exported, ran, private):
    status, stderr, script, notebook = exported[name]
    assert status == 0, f"{name}: export exit {status}: {stderr[-2000:]}"
    text = script.read_text(encoding="utf-8")
    compile(text, str(script), "exec")
    result = ran[Path(name).stem + ".py"]
    found = problems(result, private)
    assert not found, f"{name}: the exported script, run with plain Python:\n" + "\n".join(found)
    # The notebook: every code cell compiles, no Markdown cell holds math or a raw link.
    book = nbformat.read(str(notebook), as_version=4)
    for cell in book.cells:
        if cell.cell_type == "code":
            compile(cell.source, f"{name}:{cell.id}", "exec")
        else:
            bare = cell.source.replace("<span>&#92;</span>", "").replace("<span>&#36;</span>", "")
            assert not _MATH.search(bare) and "://" not in bare and "www." not in bare, (name, cell.source)


def test_the_watchers_see_an_import_a_write_and_a_process(tmp_path):
    """The audit hook of the runner itself: what an escaped script would do is seen."""
    folder = tmp_path / "bad"
    folder.mkdir()
    bad = folder / "bad.py"
    bad.write_text("import torch\nx = torch.ones(2)\n"
                   "try:\n    x.untyped_storage().type('this')\nexcept Exception:\n    pass\n"
                   "open('pwned', 'w').write('x')\n"
                   "import subprocess\nsubprocess.run(['true'])\n", encoding="utf-8")
    good = folder / "good.py"
    good.write_text("import torch\nx = torch.ones(2, requires_grad=True)\n(x * 2).sum().backward()\n"
                    "print(x.grad, x.numpy(force=False) if False else x.detach().numpy())\n", encoding="utf-8")
    results = run_scripts([bad, good], tmp_path)
    found = problems(results["bad.py"], folder / "private")   # its own folder is not private here
    assert "imported this (given name)" in found
    assert any(line.startswith("opened ") and line.endswith("pwned for writing") for line in found)
    assert any(line.startswith("started a process") for line in found)
    assert problems(results["good.py"], folder / "private") == [] and results["good.py"]["status"] == 0
