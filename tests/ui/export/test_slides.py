"""Slides past a step that stops the worker: each slide shows the state as of its own step.

`tensorlab export --png` and `tensorlab --screenshot --step N` of a lesson whose step crashes PyTorch (the
SIGFPE of ``INT64_MIN.div(-1, rounding_mode='trunc')``) or runs past ``--step-time-limit``: the failing step's
slide shows its error as content over the state before it, and the later slides show the steps after it as
``tensorlab run`` runs them (the session restarted without the lost step). Asserted on what the window shows
(the controller's state, the position label, the tensors table, the output panel), not on pixels.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tensorlab.core.lessons.lesson import find_lesson, load_lesson, parse_lesson
from tensorlab.ui.export.slides import grab_steps
from tensorlab.ui.window.offscreen import isolated_window
from tensorlab.ui.window.settings import SCRATCHPAD

HOSTILE = Path(__file__).resolve().parents[2] / "hostile" / "bound-sigfpe-through-check-and-export.toml"


def _slides(lesson, tmp_path, back, step_time_limit=None):
    """Each slide's (position, errors, names, position label, table rows, output text), in order."""
    seen = []
    with isolated_window(lesson=SCRATCHPAD, size=(1000, 700), time_limit=step_time_limit) as window:
        window.controller.load_lesson(lesson)
        window.controller.wait_idle()

        def record(done, total):
            state = window.controller.state
            model = window.table.table_model
            rows = [model.item(row, 0).text() for row in range(model.rowCount())]
            seen.append((state.position, [None if r.error is None else r.error.type for r in state.results],
                         state.names, window.position_label.text(), rows, window.output_view.toPlainText()))

        paths = grab_steps(window, tmp_path / "slides", lesson.id, progress=record)
        assert len(paths) == len(lesson.steps) and all(p.stat().st_size > 0 for p in paths)
        # The window ends where it started.
        assert window.controller.state.position == 0
        # Going back over lost steps restores the session without running them again (they would stop it again).
        window.controller.go_to(len(lesson.steps), past_crashes=True)
        window.controller.wait_idle()
        restarts = window.controller._worker.player.engine.restarts
        window.controller.go_to(back)
        window.controller.wait_idle()
        assert window.controller.state.position == back
        assert window.controller._worker.player.engine.restarts == restarts
        seen.append(window.controller.state.names)
    return seen


def test_slides_after_a_crashing_step_show_each_step_and_go_on(tmp_path):
    lesson = load_lesson(HOSTILE)
    seen = _slides(lesson, tmp_path, back=3)
    assert seen.pop() == ("a", "c")   # back at step 3 after the last
    assert [s[0] for s in seen] == [1, 2, 3, 4, 5]
    assert [s[3] for s in seen] == ["1 / 5", "2 / 5", "3 / 5", "4 / 5", "5 / 5"]
    assert seen[-1][1] == [None, "WorkerCrash", None, "WorkerCrash", None]
    # The crashed step's slide: the state before it, and its crash as content, numbered as its own step.
    assert seen[1][2] == ("a",) and "Step 2" in seen[1][5] and "SIGFPE" in seen[1][5]
    # The steps after it ran on the restarted session: c, then (after the second crash) e.
    assert seen[2][2] == ("a", "c") and "Step 3" in seen[2][5] and "SIGFPE" not in seen[2][5]
    assert seen[3][2] == ("a", "c") and "Step 4" in seen[3][5] and "SIGFPE" in seen[3][5]
    assert seen[4][2] == ("a", "c", "e") and "Step 5" in seen[4][5]
    assert all(row_names(s[4]) == set(s[2]) for s in seen)


def row_names(rows: list[str]) -> set[str]:
    """The tensors' names in the table's first column."""
    return {row.split()[0] for row in rows if row}


def test_slides_after_a_step_past_the_step_time_limit_go_on(tmp_path):
    slow = "with torch.no_grad():\n" + "    y = x + 1\n" * 2000
    code = "\n".join([
        '[lesson]', 'id = "slow"', 'title = "Slow"',
        '[[step]]', 'code = "x = torch.zeros(10**6)"',
        '[[step]]', f'code = {slow!r}'.replace("'", '"""'),
        '[[step]]', 'code = "z = x[:3] + 2"'])
    lesson = parse_lesson(code)
    seen = _slides(lesson, tmp_path, back=2, step_time_limit=0.2)
    assert seen.pop() == ("x",)   # back at the lost step
    assert [s[0] for s in seen] == [1, 2, 3]
    assert seen[-1][1] == [None, "WorkerTimeout", None]
    assert seen[1][2] == ("x",) and "0.2 s" in seen[1][5]
    assert seen[2][2] == ("x", "z") and "Step 3" in seen[2][5]


@pytest.mark.parametrize("step", [3, 5])
def test_a_screenshot_past_a_crashing_step_shows_that_step(tmp_path, monkeypatch, step):
    from contextlib import contextmanager

    from tensorlab.ui.window import offscreen

    shown = {}
    real_window, real_write = offscreen.isolated_window, offscreen.write_atomic

    @contextmanager
    def window_kept(**options):
        with real_window(**options) as window:
            shown["window"] = window
            yield window

    def keep(path, data):
        shown["state"] = shown["window"].controller.state   # the window at the moment of the picture
        real_write(path, data)

    monkeypatch.setattr(offscreen, "isolated_window", window_kept)
    monkeypatch.setattr(offscreen, "write_atomic", keep)
    offscreen.screenshot(str(tmp_path / "shot.png"), str(HOSTILE), step, "800x600", None)
    state = shown["state"]
    assert state.position == step and (tmp_path / "shot.png").stat().st_size > 0
    assert state.names == {3: ("a", "c"), 5: ("a", "c", "e")}[step]


def test_slides_of_a_lesson_file_name_that_lesson_in_the_picker(tmp_path, monkeypatch):
    # `export FILE --png`: the picker shows the file's lesson, never "Scratchpad"; a file with a built-in's
    # id shows its own title.
    from tensorlab.ui.window import offscreen

    seen = []

    def fake_grab(window, folder, lesson_id, map_only=False, progress=None, deadline=None):
        seen.append(window.lesson_picker.currentText())
        return []

    monkeypatch.setattr(offscreen, "grab_steps", fake_grab)
    for lesson_id in ("a-file-lesson", "inplace-on-a-leaf"):
        lesson = parse_lesson(f'[lesson]\nid = "{lesson_id}"\ntitle = "From a file"\n'
                              '[[step]]\ncode = "x = torch.ones(2)"\n')
        offscreen.export_slides(lesson, tmp_path / lesson_id)
    assert seen == ["From a file", "From a file"]


STEPS_FILE = ('[lesson]\nid = "cut"\ntitle = "Cut"\n' +
              "".join(f'[[step]]\ncode = "a{i} = torch.ones(3)"\n' for i in range(4)))


def test_a_step_the_run_time_limit_kept_from_running_has_no_slide(tmp_path):
    # The run's time is up before any step: no slide numbers a state that never was ("4 / 4" of nothing run).
    lesson = parse_lesson(STEPS_FILE)
    with isolated_window(lesson=SCRATCHPAD, size=(1000, 700), run_time_limit=0.001) as window:
        window.controller.load_lesson(lesson)
        window.controller.wait_idle()
        saved = grab_steps(window, tmp_path / "slides", lesson.id)
        assert saved == [] and not list((tmp_path / "slides").glob("*.png"))


def test_no_slide_is_rendered_after_the_deadline(tmp_path):
    lesson = parse_lesson(STEPS_FILE)
    with isolated_window(lesson=SCRATCHPAD, size=(1000, 700)) as window:
        window.controller.load_lesson(lesson)
        window.controller.wait_idle()
        assert grab_steps(window, tmp_path / "late", lesson.id, deadline=0.0) == []   # long past
        assert len(grab_steps(window, tmp_path / "whole", lesson.id)) == 4


def test_export_png_cut_by_the_time_limit_says_so_and_exits_1(tmp_path, capsys):
    from tensorlab.cli.main import main

    path = tmp_path / "cut.toml"
    path.write_text(STEPS_FILE, encoding="utf-8")
    assert main(["export", str(path), "--png", str(tmp_path / "png"), "--time-limit", "0.001"]) == 1
    err = capsys.readouterr().err
    assert "time limit of 0.001 s was reached: 0 of 4 slides were written" in err
    assert not list((tmp_path / "png").glob("*.png"))


def test_map_only_slides_share_one_size_and_scale_and_draw_no_marks(tmp_path):
    """Map-only slides of one export page smoothly: one size (the largest a step needs), one scale, every strip
    whole, no "+N more" mark (issue 17: 665-775 × 406-437 px, "+2" over cell 7 of a 9-cell strip)."""
    from PySide6.QtGui import QImage

    lesson = find_lesson("expand-is-not-repeat")
    seen = []
    with isolated_window(lesson=SCRATCHPAD, size=(1024, 768), presentation=True) as window:
        window.controller.load_lesson(lesson)
        window.controller.wait_idle()
        window.apply_default_layout()
        view = window.storage_map

        def record(done, total):
            cells = {s.storage.id: len(s.values) for s in view.strips}
            seen.append((view.scale_factor, view.mark_boxes(), cells, view.horizontalScrollBar().value()))

        paths = grab_steps(window, tmp_path / "slides", lesson.id, map_only=True, progress=record)
        assert not view.picture   # the map on screen is fitted to its viewport again
    sizes = {(QImage(str(p)).width(), QImage(str(p)).height()) for p in paths}
    assert len(paths) == len(lesson.steps) and len(sizes) == 1, sizes
    assert len({scale for scale, *_ in seen}) == 1, seen
    assert all(marks == [] for _, marks, _, _ in seen), seen
    assert any(9 in cells.values() for _, _, cells, _ in seen)   # the 9-cell strip, drawn whole
