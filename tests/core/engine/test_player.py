"""Playing a program forward and back, with the user's own steps inserted."""

from __future__ import annotations

import pytest

from tensorlab.core.engine.player import Cancelled, Player, ProgramStep, StepOrigin
from tensorlab.core.lang.parse import LanguageError, parse_one
from tensorlab.core.lessons.lesson import find_lesson
from tensorlab.core.protocol.history import history_allowance
from tensorlab.core.protocol.limits import DEFAULT_LIMITS
from tensorlab.core.worker.in_process import LocalEngine


def test_forward_back_and_replay_give_the_same_state():
    player = Player(LocalEngine())
    player.load(find_lesson("detach-shares-memory"))
    player.go_to(7)
    at_seven = player.state().snapshot
    player.go_to(3)
    assert player.position == 3 and player.session.names == ("x", "y", "z")
    player.go_to(7)
    assert player.state().snapshot.tensor("x").values == at_seven.tensor("x").values
    assert player.state().at(3).snapshot.tensor("z") is not None
    assert player.forward() is not None and player.position == 8
    player.go_to(100)
    assert player.position == 9 and player.forward() is None


def test_user_steps_are_inserted_at_the_position_and_kept():
    player = Player(LocalEngine())
    lesson = find_lesson("clone-detach-order")
    player.load(lesson)
    player.go_to(1)
    result = player.insert("w = x.detach()")
    assert result.ok and player.position == 2
    assert [s.origin for s in player.program[:3]] == ["lesson", "user", "lesson"]
    with pytest.raises(LanguageError):
        player.insert("v = nothing_here + 1")
    assert len(player.program) == len(lesson.steps) + 1
    player.load(find_lesson("inplace-on-a-leaf"))
    player.load(lesson)
    assert [s.code for s in player.program][1] == "w = x.detach()"
    player.go_to(3)
    player.remove(1)
    assert player.position == 2 and "w" not in player.session.names
    with pytest.raises(ValueError):
        player.remove(0)


def test_a_long_replay_can_be_cancelled_between_steps():
    player = Player(LocalEngine())
    player.load(find_lesson("clone-keeps-the-graph"))
    seen = []

    def cancelled() -> bool:
        return len(seen) >= 3

    with pytest.raises(Cancelled):
        player.go_to(12, cancelled, lambda done, total: seen.append((done, total)))
    assert player.position == 3
    assert seen == [(1, 12), (2, 12), (3, 12)]


def test_device_change_replays_to_the_same_position():
    player = Player(LocalEngine())
    player.load(find_lesson("detach-shares-memory"))
    player.go_to(4)
    player.set_device("cpu")
    assert player.position == 4 and player.state().device == "cpu"


# -- the program as a lesson (Save steps as lesson, Export) -------------------------------------------
def test_the_program_as_a_lesson_is_the_lesson_until_a_step_is_yours():
    from tensorlab.core.engine.player import ProgramStep, StepOrigin, program_as_lesson, program_from
    from tensorlab.core.lang.parse import parse_one

    lesson = find_lesson("inplace-on-a-leaf")
    same = program_as_lesson(lesson, program_from(lesson))
    assert (same.id, same.title, same.source, same.chapter, same.prerequisites) == (
        lesson.id, lesson.title, lesson.source, lesson.chapter, lesson.prerequisites)
    assert same.text("title", "ko") == lesson.text("title", "ko")

    program = program_from(lesson)
    program.insert(2, ProgramStep("k = torch.zeros(2)", parse_one("k = torch.zeros(2)"), origin=StepOrigin.USER))
    mine = program_as_lesson(lesson, program)
    assert mine.id == "inplace-on-a-leaf-mine" and "with my steps" in mine.title
    assert [s.code for s in mine.steps] == [s.code for s in program]
    assert mine.chapter == lesson.chapter and mine.prerequisites == lesson.prerequisites
    assert mine.text("title", "ko") == mine.title          # no stale translated title
    assert mine.text("summary", "ko") == lesson.text("summary", "ko")

    scratch = program_as_lesson(None, program[2:3])
    assert scratch.id == "my-steps" and [s.code for s in scratch.steps] == ["k = torch.zeros(2)"]


def test_going_back_to_a_trimmed_step_reads_its_values_again_by_replay():
    """A long run keeps the values of its last steps only; stepping back shows the right values anyway."""
    from tensorlab.core.lessons.lesson import parse_lesson
    from tensorlab.core.protocol.limits import DEFAULT_LIMITS

    small = DEFAULT_LIMITS.with_memory(16 * 1024**2)   # 1 MB of kept history: about two such steps
    steps = "".join('[[step]]\ncode = "x.add_(1)"\n' for _ in range(12))
    lesson = parse_lesson('[lesson]\nid = "long"\ntitle = "Long"\n[[step]]\ncode = "x = torch.zeros(10000)"\n'
                          '[[step]]\ncode = "y = x[:5]"\n' + steps)
    player = Player(LocalEngine(limits=small), limits=small)
    player.load(lesson)
    player.go_to(len(lesson.steps))
    state = player.state()
    assert state.trimmed > 0 and state.whole
    assert state.results[2].snapshot.trimmed and state.at(3).whole is False
    player.go_to(4)   # after `x.add_(1)` twice
    back = player.state()
    assert back.whole and back.position == 4
    assert back.snapshot.tensor("x").values == (2.0,) * 10000
    assert back.previous_snapshot.tensor("x").values == (1.0,) * 10000
    assert back.snapshot.tensor("y").storage == back.snapshot.tensor("x").storage
    player.go_to(len(lesson.steps))
    assert player.state().snapshot.tensor("x").values == (12.0,) * 10000


def test_a_new_budget_gives_the_players_kept_history_its_new_share_at_once():
    """Preferences → memory limit: the player runs on a new engine, and keeps no more than the new budget's share."""
    big, small = DEFAULT_LIMITS.with_memory(1024**3), DEFAULT_LIMITS.with_memory(16 * 1024**2)
    player = Player(LocalEngine(limits=big), big)
    player.load(None, [ProgramStep(c, parse_one(c), origin=StepOrigin.USER)
                       for c in ["x = torch.zeros(10000)"] + ["x.add_(1)"] * 8])
    player.go_to(len(player.program))
    assert player.history.allowance == history_allowance(big) and not player.state().trimmed
    player.use_engine(LocalEngine(limits=small))
    assert player.history.allowance == history_allowance(small) == 1024**2
    assert player.state().trimmed > 0 and player.history.held <= 1024**2 and player.state().whole


# -- stepping back without a replay (issue #16, speed) ------------------------------------------------
class _Counting(LocalEngine):
    """A local engine that counts what the player asks of it."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def run(self, code, focus=(), cancelled=lambda: False):
        self.calls.append("run")
        return super().run(code, focus, cancelled)

    def restore(self, codes, results, cancelled=lambda: False, progress=None):
        self.calls.append("restore")
        return super().restore(codes, results, cancelled, progress)


TRAINING = ["import torch.nn as nn", "import torch.optim as optim", "torch.manual_seed(3)",
            "model = nn.Sequential(nn.Linear(3, 3), nn.ReLU(), nn.Linear(3, 1))",
            "opt = optim.SGD(model.parameters(), lr=0.1, momentum=0.9)", "x = torch.randn(4, 3)",
            "loss = model(x).pow(2).mean()", "loss.backward()", "opt.step()", "opt.zero_grad()",
            "loss = model(x).pow(2).mean()", "loss.backward()", "opt.step()"]


def _player(engine=None) -> Player:
    player = Player(engine if engine is not None else _Counting())
    player.load(None, [ProgramStep(c, parse_one(c), origin=StepOrigin.USER) for c in TRAINING])
    return player


def _fresh(position: int):
    """The results of the first ``position`` steps run from a fresh engine (what a replay gives)."""
    player = _player(LocalEngine())
    player.go_to(position)
    return player.state().results


def test_going_back_shows_the_recorded_state_at_once_and_forward_again_takes_the_results_torch_made():
    player = _player()
    engine = player.engine
    player.go_to(len(TRAINING))
    ran = player.state().results
    engine.calls.clear()
    player.go_to(9)
    assert engine.calls == [] and player.position == 9 and not player.in_step
    assert player.state().results == ran[:9] and player.state().whole
    player.go_to(7)
    player.go_to(len(TRAINING))   # forward over the same program: the very results, no step run again
    assert engine.calls == [] and player.in_step
    assert all(a is b for a, b in zip(player.state().results, ran))
    assert engine.position == len(TRAINING)


def test_a_new_step_after_going_back_runs_on_the_live_state_of_that_position():
    player = _player()
    player.go_to(len(TRAINING))
    player.go_to(9)                # after the first opt.step()
    player.engine.calls.clear()
    result = player.insert("w = model[0].weight.clone()")
    assert player.engine.calls == ["restore", "run"] and player.in_step
    fresh = _fresh(9)
    assert result.snapshot.tensor("w").values == fresh[-1].snapshot.tensor("model[0].weight").values
    assert player.position == 10 and player.session.names[-1] == "w"
    # The rest of the program runs on from there, as a replay of the new program would.
    player.go_to(len(player.program))
    again = _player(LocalEngine())
    again.program = list(player.program)
    again.go_to(len(again.program))
    assert [r.snapshot.tensor("model[0].weight").values for r in player.state().results[9:]] == \
        [r.snapshot.tensor("model[0].weight").values for r in again.state().results[9:]]


def test_the_session_a_graph_and_a_job_after_going_back_read_the_state_at_the_position():
    player = _player()
    player.go_to(len(TRAINING))
    player.go_to(7)                # `loss` is the first loss, before any step of the optimizer
    assert player.graph("loss") is not None
    assert player.in_step and player.engine.position == 7
    weight = player.session.namespace["model"][0].weight
    assert tuple(map(tuple, weight.tolist())) == _fresh(7)[-1].snapshot.tensor("model[0].weight").values
    player.go_to(len(TRAINING))
    player.go_to(6)
    copies = player.job("copies", {"name": "x"})
    assert player.in_step and player.engine.position == 6 and copies is not None


def test_removing_a_step_ahead_of_the_position_rebuilds_the_live_state_without_it():
    player = _player()
    player.program.insert(9, ProgramStep("x.mul_(0)", parse_one("x.mul_(0)"), origin=StepOrigin.USER))
    player.go_to(len(player.program))
    player.go_to(8)
    player.remove(9)               # the engine had run it: its state is rebuilt at step 8
    assert player.in_step and player.engine.position == 8
    assert player.session.namespace["x"].abs().sum().item() > 0
    player.go_to(len(player.program))
    assert player.state().results[-1].snapshot.tensor("x").values == _fresh(len(TRAINING))[-1].snapshot.tensor(
        "x").values


def test_prepare_rebuilds_the_live_state_after_going_back_and_a_cancel_changes_nothing_shown():
    """The background replay after going back (the window asks once ← settles): the engine stands at the
    position after it; stopped part way, the results shown stay, and the next step that needs the live state
    brings it there (the line reads that step's values, as plain torch does)."""
    player = Player(LocalEngine())
    player.load(None)
    for code in ["x = torch.zeros(3)"] + ["x.add_(1)"] * 5:
        player.insert(code)
    player.go_to(3)
    shown = player.state()
    assert shown.away and not player.in_step
    assert player.prepare(lambda: True) is False   # stopped at once
    assert player.state().results == shown.results and not player.in_step and player.state().away
    assert player.prepare() is True and player.in_step and not player.state().away
    assert player.engine.position == 3 and player.state().results == shown.results
    assert player.prepare() is True   # nothing left to do
    player.go_to(6)
    player.go_to(2)
    assert player.prepare(lambda: True) is False
    assert player.insert("w = x * 1").ok
    assert player.state().snapshot.tensor("w").values == (1.0, 1.0, 1.0)
    player.go_to(len(player.program))
    assert player.state().snapshot.tensor("x").values == (5.0, 5.0, 5.0)
