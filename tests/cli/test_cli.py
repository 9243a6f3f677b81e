"""The headless runner: `tensorlab run`, `lessons`, `export` (contract 3)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tensorlab.cli.main import main

TENSOR_FIELDS = {"shape", "dtype", "device", "values", "requires_grad", "is_leaf", "grad_fn",
                 "version", "grad", "storage", "storage_offset", "stride"}


def _check_contract(doc):
    assert set(doc) == {"lesson", "device", "steps"}
    for i, step in enumerate(doc["steps"]):
        assert set(step) == {"index", "code", "ok", "error", "warnings", "output", "tensors",
                             "storages", "others"}
        assert step["index"] == i and isinstance(step["code"], str) and isinstance(step["ok"], bool)
        assert step["error"] is None or set(step["error"]) == {"type", "message"}
        assert step["ok"] == (step["error"] is None)
        assert all(isinstance(w, str) for w in step["warnings"])
        assert isinstance(step["output"], str)
        for info in step["tensors"].values():
            assert set(info) == TENSOR_FIELDS
        for storage in step["storages"]:
            assert set(storage) == {"id", "nbytes", "device", "tensors"}
            assert all(name in step["tensors"] for name in storage["tensors"])
        for other in step["others"].values():
            assert set(other) == {"type", "repr"}


def test_run_json_follows_the_contract(capsys):
    assert main(["run", "clone-keeps-the-graph", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    _check_contract(doc)
    assert doc["lesson"] == "clone-keeps-the-graph" and doc["device"] == "cpu"
    printed = [s["output"] for s in doc["steps"] if s["code"] == "print(x.grad)"]
    assert printed[0] == "tensor([5., 5., 5., 5., 5.])\n"
    nonleaf = next(s for s in doc["steps"] if s["code"].startswith("print(y.grad, "))
    assert nonleaf["output"] == "None True False\n"
    assert nonleaf["warnings"][0].startswith("The .grad attribute of a Tensor that is not a leaf")


def test_transcript_is_readable(capsys):
    assert main(["run", "inplace-on-a-leaf"]) == 0
    out = capsys.readouterr().out
    assert "[2/8] x[0] = 2" in out
    assert "✗ torch raised RuntimeError: a view of a leaf Variable" in out   # torch's own error, said so
    assert "storage" in out and "S0" in out


def test_a_lesson_whose_steps_raise_exits_0_and_a_bad_file_exits_2(tmp_path, capsys):
    good = tmp_path / "raises.toml"
    good.write_text('[lesson]\nid = "r"\ntitle = "R"\n[[step]]\ncode = "x = torch.ones(2).view(3)"\n')
    assert main(["run", str(good), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["steps"][0]["ok"] is False
    bad = tmp_path / "bad.toml"
    bad.write_text('[lesson]\nid = "r"\ntitle = "R"\n[[step]]\ncode = "import os"\n')
    assert main(["run", str(bad), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "bad.toml, step 1" in captured.err
    assert main(["run", "no-such-lesson"]) == 2
    assert "no such lesson" in capsys.readouterr().err


def test_unavailable_device_exits_2(capsys):
    pytest.importorskip("torch")
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    assert main(["run", "clone-keeps-the-graph", "--device", "cuda"]) == 2
    assert "not available here" in capsys.readouterr().err


def test_lessons_and_export(capsys):
    assert main(["lessons"]) == 0
    assert "detach-shares-memory" in capsys.readouterr().out
    assert main(["export", "detach-shares-memory"]) == 0
    script = capsys.readouterr().out
    assert "torch.manual_seed(0)" in script and "z = x.detach()" in script


def test_the_headless_commands_run_without_qt():
    # `tensorlab lessons` runs `python -m tensorlab.cli lessons` in its place: that process needs no Qt.
    code = ("import sys, runpy; sys.argv=['tensorlab','lessons']; "
            "sys.modules['PySide6']=None; runpy.run_module('tensorlab.cli', run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "inplace-on-a-leaf" in done.stdout


def _lesson(codes):
    from tensorlab.core.lessons.lesson import parse_lesson

    steps = "".join(f"[[step]]\ncode = {json.dumps(code)}\n" for code in codes)
    return parse_lesson('[lesson]\nid = "l"\ntitle = "L"\n' + steps)


def test_streamed_json_is_the_document_of_the_run():
    """Parts shared between steps are encoded once; the document is the same as built whole."""
    import io

    from tensorlab.core.lessons.play_through import lesson_json, write_lesson_json
    from tensorlab.core.worker.in_process import run_lesson

    lesson = _lesson(["x = torch.arange(6.).requires_grad_()", "y = x.detach()", "n = [1, 2]", "y[0] = 5",
                      "z = (x * 2).sum()", "z.backward()", "w = x.view(2, 3)", "print(w)", "y = w",
                      "for i in range(3):\n    y = y + i", "parts = x.unbind()", "for p in parts:\n    q = p[5]"])
    results = run_lesson(lesson)
    stream = io.StringIO()
    write_lesson_json(lesson, "cpu", results, stream)
    assert json.loads(stream.getvalue()) == json.loads(json.dumps(lesson_json(lesson, "cpu", results)))
    steps = json.loads(stream.getvalue())["steps"]
    assert [s.get("iterations") for s in steps[-3:]] == [3, None, 0]   # a loop step counts what ran to its end
    assert "parts[5]" in steps[-1]["tensors"]


def test_values_past_the_run_cap_are_null():
    import io

    from tensorlab.core.lessons.play_through import write_lesson_json
    from tensorlab.core.worker.in_process import run_lesson

    lesson = _lesson(["a = torch.ones(2, 3)", "b = torch.zeros(4)", "c = a + 1"])
    stream = io.StringIO()
    write_lesson_json(lesson, "cpu", run_lesson(lesson), stream, max_values=6 + 6 + 4)
    steps = json.loads(stream.getvalue())["steps"]
    assert steps[0]["tensors"]["a"]["values"] == [[1.0] * 3] * 2          # 6 written
    assert steps[1]["tensors"]["a"]["values"] is not None                 # 12
    assert steps[1]["tensors"]["b"]["values"] == [0.0] * 4                # 16: the cap
    assert steps[2]["tensors"]["a"]["values"] is None and steps[2]["tensors"]["c"]["values"] is None
    assert steps[2]["tensors"]["c"]["shape"] == [2, 3]


def _headless_env(tmp_path):
    import os

    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    for name in ("XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
        env[name] = str(tmp_path / name.lower())
    return env


def _tree(folder):
    """Every file and folder below ``folder``: its bytes (files) and its modification time."""
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else None, p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*"))}


@pytest.mark.parametrize("command", [
    ["export", "assignment-is-not-a-copy", "--png", "{out}"],
    ["--lesson", "assignment-is-not-a-copy", "--step", "2", "--screenshot", "{out}/shot.png"],
], ids=["export-png", "screenshot"])
def test_pictures_never_read_or_write_the_users_data_or_settings(tmp_path, command):
    """A broken user-steps.toml in the user's data folder is left exactly as it is (not set aside), and
    neither the data nor the settings folders gain a file: the renderer keeps its own in a private folder."""
    env = _headless_env(tmp_path)
    data = tmp_path / "xdg_data_home" / "TensorLab" / "TensorLab"
    data.mkdir(parents=True)
    (data / "user-steps.toml").write_text("version = 1\n[programs\nthis is not TOML", encoding="utf-8")
    for name in ("xdg_state_home", "xdg_config_home", "xdg_cache_home"):
        (tmp_path / name).mkdir()
    folders = ("xdg_data_home", "xdg_config_home", "xdg_state_home", "xdg_cache_home")
    before = {name: _tree(tmp_path / name) for name in folders}
    out = tmp_path / "out"
    out.mkdir()
    done = subprocess.run([sys.executable, "-m", "tensorlab", *(w.format(out=out) for w in command)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert list(out.glob("*.png"))
    assert {name: _tree(tmp_path / name) for name in folders} == before


def test_the_launcher_hands_headless_commands_on_and_keeps_their_exit_status(tmp_path):
    env = _headless_env(tmp_path)
    listed = subprocess.run([sys.executable, "-m", "tensorlab", "lessons", "--json"], capture_output=True, text=True,
                            env=env, timeout=120)
    assert listed.returncode == 0 and json.loads(listed.stdout)
    missing = subprocess.run([sys.executable, "-m", "tensorlab", "run", "no-such-lesson"], capture_output=True,
                             text=True, env=env, timeout=120)
    assert missing.returncode == 2 and "no-such-lesson" in missing.stderr
