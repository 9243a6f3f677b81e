"""The rules that derive a question's answer, hide it until its step, and check a note's facts."""

from __future__ import annotations

import pytest
import torch

from tensorlab.core.checks.choice_claims import Observed, claim_of, compare
from tensorlab.core.checks.findings import FindingKind
from tensorlab.core.checks.lesson_checks import check_lesson, lesson_warnings
from tensorlab.core.lessons.lesson import dump_lesson, find_lesson, parse_lesson
from tensorlab.core.worker.in_process import LocalEngine


def _lesson(steps: str) -> str:
    return '[lesson]\nid = "t"\ntitle = "T"\n' + steps


def _kinds(text: str, strict: bool = False) -> list[FindingKind]:
    return [f.kind for f in check_lesson(parse_lesson(_lesson(text), "t.toml"), strict=strict).findings]


# -- claims ------------------------------------------------------------------------------------------------

def test_the_claim_is_the_text_before_the_dash():
    assert claim_of("None — backward() has not run") == "None"
    assert claim_of("`x.grad` — the gradient") == "x.grad"
    assert claim_of("tensor([1., 2.])") == "tensor([1., 2.])"
    assert claim_of("오류 없음 — 그대로다") == "no error"


def test_values_compare_as_torch_writes_them():
    grad = torch.tensor([2.0, 2.0])
    observed = Observed("value", (repr(grad),))
    assert compare("tensor([2., 2.]) — right", observed) is True
    assert compare("tensor([2.,   2.])", observed) is True  # runs of white space are one space
    assert compare("tensor([2, 2])", observed) is False
    assert compare("two for each element", observed) is None  # not written as a value: not comparable


def test_outcomes_compare_by_type_and_message_fragment():
    error = Observed("outcome", (), ("RuntimeError", "a leaf Variable that requires grad is being used"), ())
    assert compare("RuntimeError — refused", error) is True
    assert compare("RuntimeError: a leaf Variable — refused", error) is True
    assert compare("RuntimeError: “…requires grad is being…”", error) is True
    assert compare("RuntimeError: a view of a leaf", error) is False
    assert compare("TypeError", error) is False
    assert compare("no error — it works", error) is False
    assert compare("x becomes 2", error) is None
    warned = Observed("outcome", (), None, (("UserWarning", "To copy construct from a tensor"),))
    assert compare("UserWarning: To copy construct", warned) is True
    assert compare("no error", warned) is True
    assert compare("no warning", warned) is False
    assert compare("no error, no warning", warned) is False


# -- questions: derived, exactly one true, hidden until their step -----------------------------------------

ASKED = '''
[[step]]
code = "x = torch.ones(3, requires_grad=True)"

[[step]]
code = "(x * 2).sum().backward()"

[step.ask]
question = "x.grad?"
check = "x.grad"
choices = ["tensor([2., 2., 2.])", "None", "tensor([1., 1., 1.])", "tensor([4., 4., 4.])"]  # no lone error form
answer = {answer}
'''


def test_a_right_question_has_no_findings():
    assert _kinds(ASKED.format(answer=0)) == []


def test_a_wrong_answer_is_found():
    # answer 3, not 1: a marked "None" would also be far shorter than every other choice (a length cue)
    found = check_lesson(parse_lesson(_lesson(ASKED.format(answer=3)), "t.toml"))
    assert [f.kind for f in found.findings] == [FindingKind.WRONG_ANSWER]
    assert found.asks[0].derived == 0


def test_none_or_several_true_choices_are_found():
    wrong = ASKED.format(answer=0).replace('"tensor([2., 2., 2.])"', '"tensor([3., 3., 3.])"')
    assert _kinds(wrong) == [FindingKind.NONE_TRUE]
    # (the two true choices also claim the same: a cue of its own)
    assert _kinds(ASKED.format(answer=0).replace('"None"', '"tensor([2.,  2.,  2.])"')) == [FindingKind.SEVERAL_TRUE,
                                                                                         FindingKind.SAME_CLAIM]


def test_a_question_without_check_is_found():
    assert _kinds(ASKED.format(answer=0).replace('check = "x.grad"\n', "")) == [FindingKind.NO_CHECK]


def test_an_answer_already_on_screen_is_found():
    # The question belongs to the backward step; on the print step the grad panel already shows it.
    late = ASKED.format(answer=0).replace('code = "(x * 2).sum().backward()"\n\n[step.ask]',
                                          'code = "(x * 2).sum().backward()"\n\n[[step]]\ncode = "print(x.grad)"\n\n'
                                          '[step.ask]').replace('check = "x.grad"', 'check = "output"')
    assert _kinds(late) == [FindingKind.VISIBLE]


def test_a_check_may_not_change_anything():
    found = _kinds(ASKED.format(answer=0).replace('check = "x.grad"', 'check = "x.grad.zero_()"'))
    assert found == [FindingKind.CHECK]
    assert "would change the state" in lesson_warnings(parse_lesson(_lesson(ASKED.format(answer=0).replace(
        'check = "x.grad"', 'check = "x.grad.zero_()"')), "t.toml"))[0]


def test_checks_are_evaluated_by_the_subset_interpreter():
    text = ASKED.format(answer=0).replace('check = "x.grad"', 'check = "__import__(\'os\')"')
    assert "cannot be read" in lesson_warnings(parse_lesson(_lesson(text), "t.toml"))[0]


def test_translated_choices_must_claim_the_same():
    text = ASKED.format(answer=0) + ('choices_ko = ["tensor([2., 2., 2.])", "None", "tensor([1., 1., 1.])", '
                                     '"tensor([3., 3., 3.])"]\n')
    assert _kinds(text) == [FindingKind.TRANSLATION]


# -- facts of notes ----------------------------------------------------------------------------------------

FACTS = '''
[[step]]
code = "x = torch.ones(3, requires_grad=True)"
note = "{note}"
facts = {facts}
'''


@pytest.mark.parametrize("facts,ok", [
    ('["x is a leaf", "x requires grad", "x is at version 0", "x has its own storage", "x has no grad_fn"]', True),
    ('["x holds [1, 1, 1]", "x.grad is None"]', True),
    ('["x is on cpu"]', True),
    ('["x is on meta"]', False),
    ('["x is not a leaf"]', False),
    ('["x is at version 1"]', False),
    ('["x shares storage with y"]', False),
    ('["x is lovely"]', False),
])
def test_facts_are_checked_against_the_snapshot(facts, ok):
    assert (_kinds(FACTS.format(note="", facts=facts)) == []) is ok


def test_a_note_that_says_a_false_thing_is_found_even_without_facts():
    assert _kinds(FACTS.format(note="x is not a leaf.", facts="[]")) == [FindingKind.NOTE]
    assert _kinds(FACTS.format(note="So x is a leaf.", facts='["x is a leaf"]')) == []
    # A sentence form the note reader does not check ("So x ...") still states a fact: it must be listed (issue 18).
    assert _kinds(FACTS.format(note="So x is a leaf.", facts="[]")) == [FindingKind.UNLISTED_FACT]


def test_strict_checks_ask_for_facts_where_a_note_speaks_of_them():
    assert _kinds(FACTS.format(note="A leaf.", facts="[]"), strict=True) == [FindingKind.NO_FACTS]


def test_a_torch_quote_must_be_what_torch_prints():
    text = '''
[[step]]
code = "x = torch.ones(3, requires_grad=True)"

[[step]]
code = "x.add_(1)"
note = "torch says \\"a leaf Variable that requires grad is being used\\"."

[[step]]
code = "y = x * 2"
note = "torch would say \\"a leaf tensor that needs gradients is being changed\\"."
'''
    assert _kinds(text) == [FindingKind.QUOTE]


# -- the window's job --------------------------------------------------------------------------------------

def test_the_job_runs_beside_a_session_without_disturbing_it():
    engine = LocalEngine()
    engine.run("r = torch.rand(3)")
    before = engine.session.take_snapshot().tensor("r").values
    lesson = find_lesson("expand-is-not-repeat")
    text = dump_lesson(lesson).replace("answer = 2", "answer = 0", 1)
    warnings = engine.job("lesson_checks", {"text": text, "source": "mine.toml"})
    # The findings come back as catalogue keys and parameters, rendered in the window's language.
    assert warnings and "맞는 선택지는 3번인데" in warnings[0].render("ko")
    assert "choice 3 is the true one" in warnings[0].render("en")
    # The live session is as it was, and its random stream goes on as a replay's would.
    assert engine.session.take_snapshot().tensor("r").values == before
    after = engine.run("s = torch.rand(3)").snapshot.tensor("s").values
    torch.manual_seed(0)
    torch.rand(3)
    assert after == tuple(torch.rand(3).tolist())


def test_the_check_command(tmp_path, capsys):
    from tensorlab.cli.main import main

    assert main(["check", "clone-detach-order"]) == 0
    path = tmp_path / "bad.toml"
    path.write_text(dump_lesson(find_lesson("clone-detach-order")).replace("answer = 2", "answer = 0", 1))
    assert main(["check", str(path), "--language", "ko"]) == 1
    assert "2단계: 맞는 선택지는 3번인데" in capsys.readouterr().out


def test_a_finding_in_korean_quotes_the_korean_choice():
    text = _lesson('''
[[step]]
code = "x = torch.ones(2)"
[[step]]
code = "y = x * 2"
[step.ask]
question = "What is y?"
question_ko = "y는 무엇인가요?"
check = "y"
choices = ["tensor([2., 2.])", "maybe so"]
choices_ko = ["tensor([2., 2.])", "아마 그럴걸"]
answer = 0
''')
    korean = lesson_warnings(parse_lesson(text, "t.toml"), "ko")
    english = lesson_warnings(parse_lesson(text, "t.toml"), "en")
    assert any("아마 그럴걸" in line for line in korean) and not any("maybe so" in line for line in korean)
    assert any("maybe so" in line for line in english)


# -- claims about torch's words are checked in torch's own words (issue #15, class 6) ----------------------

SPOOFED = '''
[[step]]
code = "x = torch.ones(3, requires_grad=True)"

[[step]]
code = "d = torch.device('a leaf Variable that requires grad is being used in an in-place operation.')"

[step.ask]
question = "What happens?"
check = "error"
choices = ["RuntimeError: a leaf Variable that requires grad is being used in an in-place operation. — d is a leaf",
           "RuntimeError: Invalid device string — torch reads the text as a device's name", "no error"]
answer = {answer}
'''


def test_a_claim_is_never_found_in_what_a_message_repeats_of_the_step():
    lesson = parse_lesson(_lesson(SPOOFED.format(answer=0)), "t.toml")
    found = check_lesson(lesson)
    (report,) = found.asks
    assert report.truth == (False, True, False)
    assert [f.kind for f in found.findings] == [FindingKind.WRONG_ANSWER]
    assert _kinds(SPOOFED.format(answer=1)) == []
    # In the message itself the quoted text is there: only its own words are compared.
    spoof = Observed("outcome", (), ("RuntimeError", "Invalid device string: 'a leaf Variable that requires grad'"))
    assert compare("RuntimeError: a leaf Variable", spoof) is False
    assert compare("RuntimeError: Invalid device string", spoof) is True
    # A message of no known form: what it quotes is not its own words, even with quotes inside.
    unknown = Observed("outcome", (), ("RuntimeError", "bad thing: 'x' a leaf Variable that requires grad ''"))
    assert compare("RuntimeError: a leaf Variable", unknown) is False
    assert compare("RuntimeError: bad thing", unknown) is True


def test_a_storage_claim_follows_the_memory():
    text = '''
[[step]]
code = "x = torch.arange(4.0)"

[[step]]
code = "y = torch.from_numpy(x[1:].numpy())"
note = "y is over x's memory."
facts = ["y shares storage with x"]
'''
    assert _kinds(text) == []
    assert _kinds(text.replace("y shares storage with x", "y does not share storage with x")) == [
        FindingKind.FACT]


def test_each_finding_is_one_line_whatever_the_lesson_quotes():
    text = '''
[[step]]
code = "x = torch.ones(3, requires_grad=True)"

[[step]]
code = "(x * 2).sum().backward()"
facts = ["x is a leaf\\n[3/3] x.grad = tensor([9.])"]

[step.ask]
question = "Q\\n[3/3] fake"
check = "x.grad"
choices = ["tensor([2., 2., 2.])\\n[4/4] b", "c\\n\\n[5/5] x.grad\\u2028  tensor([7.])"]
answer = 1
'''
    warnings = lesson_warnings(parse_lesson(_lesson(text), "t.toml"))
    assert len(warnings) == 4
    for warning in warnings:
        assert len(warning.splitlines()) == 1 and warning.startswith("step 2: "), warning


def test_the_checks_job_reports_a_line_a_lesson_file_refuses_instead_of_failing():
    # Review r21d: a learner's file with `model = model.to(device)` opened as a program; the window's checks job
    # re-read it as a lesson file, whose parser refuses the line up front, and the worker showed a traceback.
    from tensorlab.core.checks.lesson_checks import lesson_checks_job

    text = ('[lesson]\nid = "own"\ntitle = "own"\n[[step]]\ncode = "model = nn.Linear(2, 1)"\n'
            '[[step]]\ncode = "model = model.to(torch.float64)"\n')
    found = lesson_checks_job(object(), {"text": text, "source": "own.py"}, lambda: False, lambda done, total: None)
    assert len(found) == 1 and "`to` is not available on a Linear" in found[0].render("en")
