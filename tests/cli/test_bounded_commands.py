"""Every command that runs a lesson is bounded like `run` (issue 15, classes 2, 4 and 8).

`check`, `export` (script, notebook, PNG), `measure` and `copies` run in the worker under the
same memory budget and time limits as `run`; a step that crashes torch is content, never a bare
exit 136; a memory limit the machine cannot honour is refused with a message; a long run keeps
its history within the budget while `run --json` stays full per step. States, never times.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tensorlab.cli.main import main

TRACEBACK = "Traceback (most recent call last)"
SIGFPE_STEPS = ["a = torch.tensor(-2**63)", "b = a.div(-1, rounding_mode='trunc')", "c = a + 1"]
# Step 1 is a one-element tensor (microseconds, even on a loaded machine); step 2 makes two 2000x2000 float64
# matrices and multiplies them (16 GFLOP, inside the work budget): 0.24 s on 2 cores, so past 0.05 s on machines
# of up to ~8 cores. (A loop of products was refused by the work budget after its first iteration on a quiet
# machine; and a 32 MB step 1 took over 0.1 s under load.)
HEAVY_STEPS = ["s = torch.zeros(1)",
               "b = torch.ones(2000, 2000, dtype=torch.float64) @ torch.ones(2000, 2000, dtype=torch.float64)",
               "c = b + 1"]


def _file(tmp_path, codes, name="l.toml"):
    steps = "".join(f"[[step]]\ncode = {json.dumps(code)}\n" for code in codes)
    path = tmp_path / name
    path.write_text('[lesson]\nid = "l"\ntitle = "L"\n' + steps, encoding="utf-8")
    return str(path)


def test_check_runs_in_the_worker_and_a_crashing_step_is_a_finding(tmp_path, capsys):
    lesson = _file(tmp_path, SIGFPE_STEPS)
    assert main(["check", lesson]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith("step 2: not run") and "SIGFPE" in out[0]
    assert main(["check", lesson, "--language", "ko"]) == 1
    assert capsys.readouterr().out.startswith("2단계: 실행되지 않아")


def test_check_in_a_subprocess_exits_1_with_words_never_136(tmp_path):
    done = subprocess.run([sys.executable, "-m", "tensorlab.cli", "check", _file(tmp_path, SIGFPE_STEPS)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stderr
    assert "SIGFPE" in done.stdout and TRACEBACK not in done.stderr


def test_check_honours_the_time_limits(tmp_path, capsys):
    lesson = _file(tmp_path, HEAVY_STEPS)
    assert main(["check", lesson, "--time-limit", "0.001"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) >= 2 and all("not run" in line and "time limit of 0.001 s" in line for line in out)
    assert main(["check", lesson, "--step-time-limit", "0.05"]) == 1
    found = capsys.readouterr().out
    assert "step 2: not run" in found and "longer than 0.05 s" in found and "step 3" not in found


def test_check_in_process_is_still_there_for_debugging(tmp_path, capsys):
    assert main(["check", _file(tmp_path, ["x = torch.ones(2)"]), "--in-process"]) == 0


@pytest.mark.parametrize("command", [
    ["run", "{lesson}"], ["check", "{lesson}"], ["export", "{lesson}"], ["export", "{lesson}", "--png", "{out}"],
    ["measure", "--sizes", "10"], ["copies"],
])
@pytest.mark.parametrize("size", ["9999999999G", "9" * 400 + "G", "100000T"])
def test_a_memory_limit_the_machine_cannot_honour_is_refused(tmp_path, capsys, command, size):
    words = [w.format(lesson=_file(tmp_path, ["x = 1"]), out=tmp_path / "png") for w in command]
    assert main([*words, "--memory-limit", size]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tensorlab: the memory limit") and "more than this machine has" in err
    assert not (tmp_path / "png").exists()


def test_the_window_refuses_such_a_memory_limit_too(tmp_path):
    done = subprocess.run([sys.executable, "-m", "tensorlab", "--memory-limit", "9999999999G", "--screenshot",
                           str(tmp_path / "shot.png")], capture_output=True, text=True, timeout=120,
                          env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 2 and "more than this machine has" in done.stderr
    assert TRACEBACK not in done.stderr and not (tmp_path / "shot.png").exists()


def test_export_png_runs_under_the_time_limit_and_a_crash_is_a_slide(tmp_path, capsys):
    out = tmp_path / "slides"
    assert main(["export", _file(tmp_path, SIGFPE_STEPS), "--png", str(out)]) == 0
    assert len(list(out.glob("*.png"))) == 3
    late = tmp_path / "late"
    # Nothing runs past --time-limit, and no slide pictures a step that did not run (it would be numbered
    # "3 / 3" over a state that never was): the export ends, says so, and exits 1.
    capsys.readouterr()
    assert main(["export", _file(tmp_path, HEAVY_STEPS), "--png", str(late), "--time-limit", "0.001"]) == 1
    assert not list(late.glob("*.png"))
    assert "0 of 3 slides were written" in capsys.readouterr().err


def test_export_script_of_a_crashing_step_keeps_going(tmp_path, capsys):
    assert main(["export", _file(tmp_path, SIGFPE_STEPS)]) == 0
    script = capsys.readouterr().out
    assert "c = a + 1" in script and "# b = a.div(-1, rounding_mode='trunc')" in script


def test_a_long_run_keeps_its_history_bounded_and_the_json_full(tmp_path, capsys):
    codes = ["x = torch.zeros(10000)"] + ["x.add_(1)"] * 12
    assert main(["run", "--json", "--memory-limit", "16M", _file(tmp_path, codes)]) == 0
    captured = capsys.readouterr()
    steps = json.loads(captured.out)["steps"]
    # Contract 3: every step's values, though the worker and this process kept only the last ones.
    assert [s["tensors"]["x"]["values"][:2] for s in steps] == [[float(k)] * 2 for k in range(13)]
    assert captured.err.startswith("tensorlab: a long run: to stay within the memory budget")


def test_measure_and_copies_run_under_the_limits(capsys):
    assert main(["copies", "--json", "--step-time-limit", "60", "--memory-limit", "512M"]) == 0
    assert json.loads(capsys.readouterr().out)


def test_every_command_s_engine_is_the_worker_with_the_budget_and_the_step_limit():
    from tensorlab.cli.commands import open_lesson_engine
    from tensorlab.core.engine.process_engine import ProcessEngine
    from tensorlab.core.protocol.limits import session_memory_limit

    engine = open_lesson_engine("cpu", None, 7.0, False)
    try:
        # The same engine `run`, `check`, `export`, `measure` and `copies` use: its address space is capped
        # a little above the budget, and a step past 7 s is stopped.
        assert isinstance(engine, ProcessEngine)
        assert engine.memory_limit == session_memory_limit() == engine.limits.max_memory_bytes
        assert engine.time_limit == 7.0
    finally:
        engine.close()


def test_the_transcript_shows_the_gradients_backward_wrote(capsys):
    """The transcript keeps no values, but its table's grad column is what torch holds."""
    from tensorlab.cli.main import main

    assert main(["run", "leaves-and-grad"]) == 0
    text = capsys.readouterr().out
    after_backward = text.split("[4/9]", 1)[1].split("[5/9]", 1)[0]
    w_row = next(line for line in after_backward.splitlines() if line.strip().startswith("w "))
    assert w_row.rstrip().endswith("[2.0, 2.0, 2.0]"), w_row
