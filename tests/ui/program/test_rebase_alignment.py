"""Saved work follows a rewritten lesson without moving (issue 18): a program's anchors are placed by
aligning the lesson's steps as they were saved with the lesson's steps now, so an anchor on a step
that was rewritten, split or removed is gone (its program set aside with a message), never slid to
another step with the same code."""

from __future__ import annotations

from pathlib import Path

from tensorlab.core.engine.player import ProgramStep, StepOrigin, program_from
from tensorlab.core.lang.parse import parse_one
from tensorlab.core.lessons.lesson import find_lesson, parse_lesson
from tensorlab.ui.program import user_steps
from tensorlab.ui.program.user_steps import (
    FILE_NAME,
    Anchor,
    SavedProgram,
    SavedStep,
    UserSteps,
    dump_steps_file,
    lesson_codes,
    parse_steps_file,
    placements,
    program_key,
    rebase,
)

OLD = """
[lesson]
id = "twice"
title = "Twice"
[[step]]
code = "x = torch.ones(3)"
[[step]]
code = "y = x.clone() * 2"
[[step]]
code = "print(y)"
[[step]]
code = "y = x.clone() * 2"
[[step]]
code = "z = y + 1"
"""
# The first `y = x.clone() * 2` split in two, as issue 18 split clone-keeps-the-graph's step 2.
NEW = OLD.replace('code = "y = x.clone() * 2"\n[[step]]\ncode = "print(y)"',
                  'code = "c = x.clone()"\n[[step]]\ncode = "y = c * 2"\n[[step]]\ncode = "print(y)"')


def _user(code: str) -> ProgramStep:
    return ProgramStep(code, parse_one(code), origin=StepOrigin.USER)


def _with(lesson, at: int, *codes: str) -> list[ProgramStep]:
    program = program_from(lesson)
    return program[:at] + [_user(c) for c in codes] + program[at:]


def _store(folder: Path) -> UserSteps:
    store = UserSteps(folder)
    store.load()
    return store


def test_the_alignment_keeps_only_unchanged_runs_and_never_slides_to_a_twin():
    before = ["x = torch.ones(3)", "y = x.clone() * 2", "print(y)", "y = x.clone() * 2", "z = y + 1"]
    now = ["x = torch.ones(3)", "c = x.clone()", "y = c * 2", "print(y)", "y = x.clone() * 2", "z = y + 1"]
    where = placements(before, now)
    assert where[("x = torch.ones(3)", 1)] == 0
    assert ("y = x.clone() * 2", 1) not in where          # split: gone, not moved to the later twin
    assert where[("print(y)", 1)] == 3
    assert where[("y = x.clone() * 2", 2)] == 4           # the second one stays the same step
    assert where[("z = y + 1", 1)] == 5
    # Removing the first of two equal steps: the second keeps its place; the first has none.
    where = placements(["a = 1", "b = a", "c = 2", "b = a", "d = b"], ["a = 1", "c = 2", "b = a", "d = b"])
    assert where[("b = a", 2)] == 2 and ("b = a", 1) not in where


def test_a_saved_program_records_its_lessons_steps_and_reads_them_back(tmp_path):
    old = parse_lesson(OLD, "twice.toml")
    store = UserSteps(tmp_path)
    key = program_key(old, tmp_path / "twice.toml")
    program = _with(old, 2, "w = y * 0")
    assert store.update(key, old, program)
    store.saved_as(store.save())
    text = (tmp_path / FILE_NAME).read_text(encoding="utf-8")
    assert "lesson_steps = [" in text
    document = parse_steps_file(text.encode())
    assert document.failed == [] and document.programs[key].lesson_steps == lesson_codes(program)
    # A program's lesson_steps is checked like the rest of the file.
    recorded = text[text.index("lesson_steps = ["):]
    recorded = recorded[:recorded.index("]\n") + 2]
    for bad in ('lesson_steps = "x"\n', "lesson_steps = [1]\n"):
        document = parse_steps_file(text.replace(recorded, bad).encode())
        assert document.programs == {} and len(document.failed) == 1
    scratch = SavedProgram("scratchpad", steps=(SavedStep("s = 1"),), lesson_steps=("a = 1",))
    assert "lesson_steps" not in scratch.table()


def test_a_step_after_a_split_step_is_set_aside_and_one_after_its_twin_stays_in_place(tmp_path):
    old, new = parse_lesson(OLD, "twice.toml"), parse_lesson(NEW, "twice.toml")
    first, second = tmp_path / "first", tmp_path / "second"
    for folder, at in ((first, 2), (second, 4)):       # after the first / the second `y = x.clone() * 2`
        store = UserSteps(folder)
        key = program_key(old, tmp_path / "twice.toml")
        store.update(key, old, _with(old, at, "w = y * 0"))
        store.saved_as(store.save())
    moved = _store(first)
    assert moved.program(key, new) is None               # not slid to the later `y = x.clone() * 2`
    assert len(moved.problems) == 1 and "y = x.clone() * 2" in moved.problems[0] and "set aside" in moved.problems[0]
    kept = _store(second).program(key, new)
    assert kept is not None
    assert [s.code for s in kept] == ["x = torch.ones(3)", "c = x.clone()", "y = c * 2", "print(y)",
                                      "y = x.clone() * 2", "w = y * 0", "z = y + 1"]


def test_a_program_saved_before_lesson_steps_were_recorded_follows_the_released_built_in_lesson(tmp_path):
    """A version-2 file of the release before: clone-keeps-the-graph's step 2 was `y = x.clone() * 2`
    (the same code as its step 9); that step has been split, so a step after it is set aside, and a
    step after step 9 stays after step 9's code, now step 10."""
    released = user_steps._released_steps()["clone-keeps-the-graph"]
    assert released.count("y = x.clone() * 2") == 2 and released[1] == "y = x.clone() * 2"
    lesson = find_lesson("clone-keeps-the-graph")
    now = [s.code for s in lesson.steps]
    assert now.count("y = x.clone() * 2") == 1 and now[1:3] == ["c = x.clone()", "y = c * 2"]
    head = 'format = "tensorlab-user-steps"\nversion = 2\n[[program]]\nsource = "builtin"\n' \
           'lesson = "clone-keeps-the-graph"\n'
    early, late = tmp_path / "early", tmp_path / "late"
    early.mkdir()
    late.mkdir()
    (early / FILE_NAME).write_text(head + 'step = [{ code = "w = y * 0", after = "y = x.clone() * 2" }]\n',
                                   encoding="utf-8")
    (late / FILE_NAME).write_text(
        head + 'step = [{ code = "w = y * 0", after = "y = x.clone() * 2", occurrence = 2 }]\n', encoding="utf-8")
    store = _store(early)
    assert store.program(program_key(lesson), lesson) is None
    assert len(store.problems) == 1 and "y = x.clone() * 2" in store.problems[0]
    program = _store(late).program(program_key(lesson), lesson)
    assert program is not None
    at = [s.code for s in program].index("w = y * 0")
    assert program[at - 1].code == "y = x.clone() * 2" and at - 1 == now.index("y = x.clone() * 2")


def test_the_file_of_the_release_before_loads_and_records_its_lessons_steps_at_the_next_save(tmp_path):
    fixture = Path(__file__).resolve().parents[2] / "data" / "migration" / "user-steps-v2.toml"
    (tmp_path / FILE_NAME).write_bytes(fixture.read_bytes())
    store = _store(tmp_path)
    leaf = find_lesson("inplace-on-a-leaf")
    program = store.program(program_key(leaf), leaf)
    assert store.problems == [] and program is not None
    assert [s.code for s in program][2:4] == ["k = torch.zeros(2)", "m = k + 1"]   # still after `x[0] = 2`
    assert store.update(program_key(leaf), leaf, program)            # the rebased program now records its lesson
    store.saved_as(store.save())
    again = _store(tmp_path)
    assert again.saved[program_key(leaf)].lesson_steps == tuple(s.code for s in leaf.steps)


def test_a_lesson_files_program_without_lesson_steps_is_matched_by_code_and_occurrence():
    new = parse_lesson(NEW, "twice.toml")
    saved = SavedProgram("file", "twice", "/x/twice.toml", (SavedStep("w = y * 0", Anchor("z = y + 1")),))
    assert [s.code for s in rebase(new, saved)][-1] == "w = y * 0"
    assert "lesson_steps" not in dump_steps_file({saved.key: saved})
