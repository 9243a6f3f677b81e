"""Which step broke it, for any program: the saved tensor and the step that changed it, against plain torch.

Each program runs twice: in a TensorLab session, and as plain Python with torch, where the version
counter of the saved tensor (read through the expression that reaches it) is recorded after every
statement. The step TensorLab names is the step after which torch's own counter went up past the
version autograd noted, and the versions it gives are the ones in torch's message.
"""

from __future__ import annotations

import re

import pytest
import torch

from tensorlab.core.observe.autograd_graph import saved_in_graphs
from tensorlab.core.session.session import Session

_VERSIONS = re.compile(r"is at version (\d+); expected version (\d+) instead")

# name: (the program, the expression whose version counter the saved tensor shares, in plain torch)
PROGRAMS = {
    "direct": (["x = torch.ones(3, requires_grad=True)", "p = x + 1", "y = p * x", "p.add_(1)",
                "y.sum().backward()"], "p"),
    "view": (["x = torch.ones(4, requires_grad=True)", "w = torch.ones(4, requires_grad=True)", "p = x * 2",
              "y = p * w", "v = p[1:3]", "v.mul_(2)", "y.sum().backward()"], "p"),
    "data": (["w = torch.ones(3, requires_grad=True)", "a = w.data", "y = w * a", "a.add_(1)",
              "y.sum().backward()"], "a"),
    "data-view": (["w = torch.ones(3, requires_grad=True)", "a = w.data", "y = w * a", "b = a[0:2]", "b.zero_()",
                   "y.sum().backward()"], "a"),
    "optimizer": (["import torch.nn as nn", "import torch.optim as optim",
                   "net = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))",
                   "opt = optim.SGD(net.parameters(), lr=0.1)", "x = torch.ones(2, 3)", "loss = net(x).sum()",
                   "loss.backward(retain_graph=True)", "opt.step()", "loss.backward()"], "net[2].weight"),
    "relu-inplace": (["import torch.nn as nn",
                      "net = nn.Sequential(nn.Linear(3, 2), nn.Sigmoid(), nn.ReLU(inplace=True))",
                      "x = torch.ones(1, 3)", "out = net(x)", "out.sum().backward()"], "out"),
    "loop": (["x = torch.ones(3, requires_grad=True)", "p = x + 1", "y = p * x", "for i in range(3):\n    p.add_(1)",
              "y.sum().backward()"], "p"),
    "graph-in-a-loop": (["x = torch.ones(3, requires_grad=True)", "p = x + 1",
                         "for i in range(2):\n    y = p * x\n    p.add_(1)", "y.sum().backward()"], "p"),
    "saved-output": (["x = torch.ones(3, requires_grad=True)", "y = x.exp()", "z = y * 1", "y.add_(1)",
                      "z.sum().backward()"], "y"),
    "detach-alias": (["x = torch.ones(3, requires_grad=True)", "p = x * 2", "y = p * x", "d = p.detach()",
                      "d[0] = 5", "y.sum().backward()"], "p"),
}


def _plain_torch(codes: list[str], track: str) -> tuple[list[int | None], int, int]:
    """The tracked counter after each statement run as plain Python, and torch's (now, expected) at the end."""
    namespace: dict[str, object] = {"torch": torch}
    versions: list[int | None] = []
    torch.manual_seed(0)
    for code in codes[:-1]:
        exec(code, namespace)  # noqa: S102 - the test's own fixed programs
        try:
            versions.append(eval(track, namespace)._version)  # noqa: S307
        except (NameError, AttributeError, TypeError, IndexError):
            versions.append(None)
    with pytest.raises(RuntimeError) as raised:
        exec(codes[-1], namespace)  # noqa: S102
    now, expected = map(int, _VERSIONS.search(str(raised.value)).groups())
    return versions, now, expected


def _torch_culprits(versions: list[int | None], now: int, expected: int) -> list[int]:
    """The 0-based steps after which torch's counter went up past ``expected`` (or first showed past it)."""
    steps = []
    previous = None
    for index, version in enumerate(versions):
        if version is not None and version > expected and (previous is None or previous < version) \
                and (previous is None or previous < now):
            steps.append(index)
        previous = version
    return steps


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_the_step_named_is_the_step_where_torchs_counter_went_up(name):
    codes, track = PROGRAMS[name]
    versions, now, expected = _plain_torch(codes, track)
    session = Session()
    for code in codes:
        result = session.run(code)
    assert result.error is not None and _VERSIONS.search(result.error.message).groups() == (str(now), str(expected))
    explanation = result.error.explanation
    expected_steps = _torch_culprits(versions, now, expected)
    assert expected_steps, name   # the comparison means something
    assert list(explanation.culprit_steps) == expected_steps
    text = explanation.text
    for step in expected_steps:   # a loop is quoted by its first line
        first, *more = codes[step].splitlines()
        assert f"step {step + 1} (`{first}{' …' if more else ''}`)" in text
    assert f"at version {expected}" in text and f"version {now}" in text
    assert "cannot tell" not in text


def test_another_graphs_changed_saved_tensor_of_the_same_shape_and_versions_is_not_blamed():
    """`y`'s graph holds a changed saved tensor too ([3], 0 → 1), but `e.sum().backward()` failed on `e`'s."""
    session = Session()
    for code in ["x = torch.zeros(3, requires_grad=True)", "y = x.sigmoid()", "y.mul_(2)", "e = x.exp()",
                 "e.add_(1)"]:
        session.run(code)
    explanation = session.run("e.sum().backward()").error.explanation
    assert explanation.culprit_names == ("e",) and explanation.culprit_steps == (4,)
    assert "`y`" not in explanation.text and "step 3" not in explanation.text


def test_a_module_forward_that_changes_its_own_saved_output_is_the_step_that_made_it():
    codes, _ = PROGRAMS["relu-inplace"]
    session = Session()
    for code in codes:
        result = session.run(code)
    explanation = result.error.explanation
    assert explanation.culprit_steps == (3,) and explanation.culprit_names == ("out",)
    assert "saved `out` at version 0; `out` is now at version 1" in explanation.text
    assert "Step 4 made this tensor and changed it in place in the same statement" in explanation.text
    assert "4단계가 이 텐서를 만들고," in explanation.localized("ko").text


def test_a_parameter_changed_by_the_optimizer_is_named_through_the_memory_it_shares():
    codes, _ = PROGRAMS["optimizer"]
    session = Session()
    for code in codes:
        result = session.run(code)
    explanation = result.error.explanation
    # The graph saved `weight.t()`, a view with no name: the parameter it is a view of is named instead.
    assert "has no name of its own; it shares its memory with `net[2].weight`" in explanation.text
    assert explanation.culprit_names == ("net[2].weight",) and explanation.culprit_steps == (7,)
    assert "8단계 (`opt.step()`)" in explanation.localized("ko").text


def test_a_saved_tensor_no_name_reaches_is_said_to_be_unknown():
    session = Session()
    for code in ["x = torch.ones(3, requires_grad=True)", "y = (x + 1).sigmoid().mul_(2).sum()", "y.backward()"]:
        result = session.run(code)
    explanation = result.error.explanation
    assert "that TensorLab cannot match to any name (none reaches its memory), so it cannot tell which step " \
        "changed it" in explanation.text
    assert explanation.culprit_steps == () and "단계가 바꾸었는지 알 수 없습니다" in explanation.localized("ko").text


def test_a_graph_no_name_reaches_is_said_to_be_not_found():
    session = Session()
    session.run("x = torch.ones(3, requires_grad=True)")
    # The failing graph belongs to a result without a name, made in the failing statement itself.
    result = session.run("x.exp().mul_(2).sum().backward()")
    assert "is at version 1; expected version 0" in result.error.message
    explanation = result.error.explanation
    assert explanation.culprit_steps == ()
    assert "did not find this saved tensor in the graphs the session's names reach" in explanation.text
    assert "찾지 못했습니다" in explanation.localized("ko").text


def test_reading_the_saved_variables_changes_nothing_autograd_does():
    """Reading every saved tensor the raw way, then backward(): the same gradient, and the same error."""
    x = torch.arange(3.0, requires_grad=True)
    p = x * 2
    y = (p * x).exp()
    saved_in_graphs({"x": x, "p": p, "y": y})
    y.sum().backward()
    expected = torch.arange(3.0, requires_grad=True)
    (((expected * 2) * expected).exp()).sum().backward()
    assert torch.equal(x.grad, expected.grad)
    q = x * 2
    z = q * x
    q.add_(1)
    found = saved_in_graphs({"x": x, "q": q, "z": z})
    assert [s.saved_version for s in found if s.status == "changed"] == [0]
    with pytest.raises(RuntimeError, match="is at version 1; expected version 0"):
        z.sum().backward()
    assert q._version == 1


def _history(codes):
    from tensorlab.core.protocol.explanation import HistoryEntry

    session = Session()
    results = [session.run(code) for code in codes]
    return [HistoryEntry(r.index, r.code, r.snapshot) for r in results]


def test_a_changed_saved_tensor_torch_gave_no_tensor_for_is_not_called_nameless():
    from tensorlab.core.explain.version_culprit import version_culprit
    from tensorlab.core.protocol.snapshot import SavedStatus, SavedTensor

    history = _history(PROGRAMS["direct"][0])
    unread = SavedTensor("self", SavedStatus.CHANGED, None, 1, 0, None, ())
    culprit = version_culprit("3", 1, 0, history, (unread,))
    assert [m.key for m in culprit.sentences] == ["explain.culprit.not_found"] and culprit.steps == ()


def test_without_the_errors_graphs_the_graphs_the_snapshots_recorded_still_name_it():
    """An older caller passes no saved tensors: the graphs read at the steps name `p` and step 4."""
    from tensorlab.core.explain.version_culprit import version_culprit

    history = _history(PROGRAMS["direct"][0])
    culprit = version_culprit("3", 1, 0, history)
    assert culprit.names == ("p",) and culprit.steps == (3,)


def test_the_culprit_steps_of_a_file_program_are_said_with_their_file_lines_too():
    # Issue #21 residual (h21e): "step K" alone beside a file's "line N" reasons; a step not from a file keeps it.
    from tensorlab.core.explain.version_culprit import at_file_lines
    from tensorlab.core.messages.catalogue import msg
    from tensorlab.core.protocol.explanation import Explanation

    explanation = Explanation("explain.saved_changed", (), (
        msg("explain.culprit.one", who="`c`", expected=0, now=2),
        msg("explain.culprit.changed", steps=(msg("explain.culprit.step", step=2, code="c.mul_(2)"),
                                              msg("explain.culprit.step", step=3, code="c.add_(1)"))),
        msg("explain.culprit.inside", step=2)), culprit_steps=(1, 2), culprit_names=("c",))
    located = at_file_lines(explanation, [(1, 0), (12, 0), (0, 0)])   # step 3 is one you added
    assert "The version went up at step 2 (line 12: `c.mul_(2)`), step 3 (`c.add_(1)`)" in located.text
    assert "Step 2 (line 12) made this tensor" in located.text
    in_cells = at_file_lines(explanation, [(1, 1), (2, 4), (3, 4)])
    assert "step 2 (cell 4, line 2: `c.mul_(2)`)" in in_cells.text and "Step 2 (cell 4, line 2)" in in_cells.text
    assert "2단계(4번째 셀의 2번째 줄)가" in in_cells.localized("ko").text
    assert at_file_lines(explanation, [(0, 0)] * 3) is explanation   # a lesson's steps: numbers alone
    assert located.culprit_steps == explanation.culprit_steps


def test_a_loop_that_changed_the_saved_tensor_is_quoted_by_its_first_line():
    # Review r21d: the loop's lines joined by spaces (`for i in range(2):     y.add_(1)`) read as Python that is not.
    session = Session()
    for code in ["x = torch.ones(3, requires_grad=True)", "y = x * 2", "s = y.sin()",
                 "for i in range(2):\n    y.add_(1)\n    z = i"]:
        session.run(code)
    explanation = session.run("s.sum().backward()").error.explanation
    assert explanation.culprit_steps == (3,)
    assert "step 4 (`for i in range(2): …`)" in explanation.text
