"""The rules a lesson's texts keep (issue 18): no answer cue, error questions worth asking, Korean that reads native,
and every fact a note states listed in its step's `facts`."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest
import torch

from tensorlab.core.checks.choice_claims import Observed, claim_of, compare
from tensorlab.core.checks.findings import FindingKind, describe
from tensorlab.core.checks.lesson_checks import check_lesson, lesson_warnings
from tensorlab.core.checks.note_facts import listed_facts, stated_facts
from tensorlab.core.checks.text_rules import (
    BANNED_KO,
    COURSE_SHARE,
    course_length_findings,
    displayed_length,
    lesson_text_findings,
    right_is_longest,
)
from tensorlab.core.lessons.lesson import builtin_lessons, parse_lesson

ROOT = Path(__file__).resolve().parents[3]


def _ask(choices: list[str], answer: int, check: str = "x", ko: list[str] | None = None, extra: str = "") -> str:
    body = f'[step.ask]\nquestion = "Q?"\ncheck = "{check}"\nchoices = {choices!r}\nanswer = {answer}\n'
    if ko is not None:
        body += f"choices_ko = {ko!r}\n"
    return body.replace("'", '"') + extra


def _lesson(*steps: str, header: str = "") -> str:
    text = '[lesson]\nid = "t"\ntitle = "T"\n' + header
    for number, ask in enumerate(steps):
        text += f'\n[[step]]\ncode = "x{number} = torch.ones(2)"\nnote = "n"\n' + ask
    return text


def _kinds(text: str) -> list[FindingKind]:
    return [f.kind for f in lesson_text_findings(parse_lesson(text, "t.toml"))]


# -- the length of the right choice ----------------------------------------------------------------------

def test_length_counts_what_is_displayed():
    assert displayed_length("abc") == 3
    assert displayed_length("e\u0301") == 1          # a letter and its combining accent: one character shown
    assert displayed_length("a\u200bb") == 2         # a zero-width space takes no place
    assert displayed_length("기울기") == 3


def test_a_tie_counts_as_longest():
    lesson = parse_lesson(_lesson(_ask(["aaaa", "bbbb", "cc"], 0)), "t.toml")
    ask = lesson.steps[0].ask
    assert ask is not None and right_is_longest(ask, "en")


def test_a_right_choice_much_longer_than_every_other_is_a_finding_in_each_language():
    long_en = _ask(["a much longer right choice here", "short one", "short two"], 0, ko=["짧다", "짧은 것", "긴"])
    assert FindingKind.LONG_ANSWER in _kinds(_lesson(long_en))
    long_ko = _ask(["same size", "same size", "same size"], 1, ko=["짧다", "아주 아주 길고 긴 맞는 선택지", "짧다"])
    found = lesson_text_findings(parse_lesson(_lesson(long_ko), "t.toml"))
    assert [f.get("key") for f in found if f.kind is FindingKind.LONG_ANSWER] == ["choices_ko"]
    # exactly 1.5 times is allowed; more is not
    assert FindingKind.LONG_ANSWER not in _kinds(_lesson(_ask(["a" * 15, "b" * 10, "c" * 9], 0)))
    assert FindingKind.LONG_ANSWER in _kinds(_lesson(_ask(["a" * 16, "b" * 10, "c" * 9], 0)))


def test_the_right_choice_may_not_be_the_longest_in_every_question_of_a_lesson():
    longest = _ask(["right, longest", "short", "short"], 0)
    other = _ask(["right", "a longer wrong one", "short"], 0)
    assert FindingKind.ALWAYS_LONGEST in _kinds(_lesson(longest, longest))
    assert FindingKind.ALWAYS_LONGEST not in _kinds(_lesson(longest, other))
    assert FindingKind.ALWAYS_LONGEST not in _kinds(_lesson(longest))   # one question is no pattern


def test_the_course_rule_counts_every_question_of_every_lesson():
    longest = _ask(["right, longest", "short", "short"], 0)
    other = _ask(["right one", "a longer wrong one", "short"], 0)   # neither the longest nor the shortest
    many = parse_lesson(_lesson(longest, longest, other), "t.toml")
    few = parse_lesson(_lesson(longest, other, other, other), "u.toml")
    found = course_length_findings([many, few])       # 3 of 7: over a third
    assert [(f.kind, f.get("key"), f.get("count"), f.get("total")) for f in found] == \
        [(FindingKind.COURSE_LONGEST, "choices", 3, 7)]
    assert "3 of the course's 7" in describe(found[0])
    assert course_length_findings([few, few]) == []   # 2 of 8


def test_the_course_statistics_count_as_the_rules_do():
    from tensorlab.core.checks.course_statistics import course_statistics, padded_choices
    longest = _ask(["right, longest", "short", "short"], 0)
    other = _ask(["right one", "a longer wrong one", "short"], 0)   # neither the longest nor the shortest
    padded = _ask(["right", "wrong", "a wrong choice padded far past"], 0)   # the right one the shortest
    quiet = _ask(["no error: x0._version == 0 — a", "RuntimeError: a", "no error: x0._version == 1", "TypeError"],
                 0, check="error")
    lessons = [parse_lesson(_lesson(longest, longest, other, padded, quiet), "t.toml")]
    stats = course_statistics(lessons)
    assert (stats.stored["en"], stats.longest["en"], stats.shortest["en"]) == (5, 3, 1)   # the quiet one is longest
    assert (stats.quiet, stats.outcome, stats.value_error, stats.value_offering) == (1, 1, 0, 0)
    assert stats.longest["en"] == sum(right_is_longest(s.ask, "en") for s in lessons[0].steps if s.ask)
    assert [(number, language) for _, number, language, _ in padded_choices(lessons)] == [(3, "en"), (4, "en")]


def test_the_built_in_course_gives_no_length_cue():
    lessons = builtin_lessons()
    assert course_length_findings(lessons) == []
    asks = [s.ask for lesson in lessons for s in lesson.steps if s.ask is not None]
    for language in ("en", "ko"):
        assert sum(right_is_longest(a, language) for a in asks) <= COURSE_SHARE * len(asks)


# -- error questions ---------------------------------------------------------------------------------------

def test_an_error_question_needs_two_choices_that_claim_what_torch_raises():
    one = _ask(["no error — fine", "RuntimeError: boom", "no error — other", "x becomes 2"], 1, check="error")
    assert FindingKind.ERROR_CHOICES in _kinds(_lesson(one))
    invented = _ask(["no error", "RuntimeError: boom", "LessonError — not torch", "x is 2"], 1, check="error")
    assert FindingKind.ERROR_CHOICES in _kinds(_lesson(invented))
    two = _ask(["no error", "RuntimeError: boom", "UserWarning: careful", "x is 2"], 1, check="error")
    assert FindingKind.ERROR_CHOICES not in _kinds(_lesson(two))


def test_the_right_choice_may_not_be_the_only_one_quoting_torch():
    alone = _ask(["no error", "RuntimeError: the real message", "UserWarning — a type only"], 1, check="error")
    assert FindingKind.ONLY_QUOTE in _kinds(_lesson(alone))
    both = _ask(["no error", "RuntimeError: the real message", "UserWarning: another message"], 1, check="error")
    assert FindingKind.ONLY_QUOTE not in _kinds(_lesson(both))


def test_the_right_choice_is_never_the_only_one_without_a_reason_or_with_one():
    # Fresh review (helpers 153, 154, 156): in six error questions the right choice was the bare torch message and
    # every other gave a reason after " — ", a form a class learns after two of them. Both languages, both ways.
    bare = ["RuntimeError: a — x was saved", "RuntimeError: b", "no error: x == 1 — fine", "no error: x == 2 — y"]
    assert FindingKind.ONLY_BARE in _kinds(_lesson(_ask(bare, 1, check="error")))
    assert FindingKind.ONLY_BARE not in _kinds(_lesson(_ask(bare, 0, check="error")))
    ko_bare = ["ㄱ — 이유", "ㄴ", "ㄷ — 이유", "ㄹ — 이유"]
    text = _lesson(_ask(["a — r", "b — r", "c — r", "d — r"], 1, ko=ko_bare))
    assert [f.get("key") for f in lesson_text_findings(parse_lesson(text, "t.toml"))
            if f.kind is FindingKind.ONLY_BARE] == ["choices_ko"]
    reasoned = ["1", "2 — because", "3", "4"]
    assert FindingKind.ONLY_REASONED in _kinds(_lesson(_ask(reasoned, 1)))
    assert FindingKind.ONLY_REASONED not in _kinds(_lesson(_ask(reasoned, 0)))
    assert not {FindingKind.ONLY_BARE, FindingKind.ONLY_REASONED} & set(_kinds(_lesson(_ask(["1", "2", "3"], 1))))
    found = [f for f in lesson_text_findings(parse_lesson(_lesson(_ask(bare, 1, check="error")), "t.toml"))
             if f.kind is FindingKind.ONLY_BARE]
    assert "choice 2" in describe(found[0]) and "2번" in describe(found[0], "ko")


def test_no_two_choices_claim_the_same_outcome():
    # Review helper-157: relu-inplace s5 had two "no error: x.grad is not None" choices, both then wrong.
    twice = ["no error: x.grad is not None — a", "RuntimeError: boom — b", "RuntimeError: bang — c",
             "no error: x.grad is not None — d"]
    found = [f for f in lesson_text_findings(parse_lesson(_lesson(_ask(twice, 1, check="error")), "t.toml"))
             if f.kind is FindingKind.SAME_CLAIM]
    assert [(f.get("choice"), f.get("answer")) for f in found] == [(1, 4)]
    assert "choices 1 and 4" in describe(found[0]) and "1번과 4번" in describe(found[0], "ko")
    apart = ["no error: x.grad is not None — a", "RuntimeError: boom — b", "RuntimeError — c",
             "no error: x.grad is None"]
    assert FindingKind.SAME_CLAIM not in _kinds(_lesson(_ask(apart, 1, check="error")))
    ko = ["오류 없음: x.grad is None — 가", "RuntimeError: boom — 나", "RuntimeError: bang — 다",
          "오류 없음: x.grad is None"]
    text = _lesson(_ask(["a", "b", "c", "d"], 1, ko=ko))
    assert [f.get("key") for f in lesson_text_findings(parse_lesson(text, "t.toml"))
            if f.kind is FindingKind.SAME_CLAIM] == ["choices_ko"]


def test_a_right_no_error_is_never_the_odd_one_out():
    # The review's case: `y.mul_(2)`'s right "no error" beside three quoted errors.
    alone = _ask(["no error — allowed", "RuntimeError: a leaf", "RuntimeError: one of", "RuntimeError: a view"], 0,
                 check="error")
    assert FindingKind.ONLY_NO_ERROR in _kinds(_lesson(alone))
    korean = _ask(["no error — allowed", "RuntimeError: a leaf", "RuntimeError: one of", "UserWarning: careful"], 0,
                  check="error", ko=["오류 없음 — 허용된다", "RuntimeError: a leaf", "RuntimeError: one of",
                                     "UserWarning: careful"])
    assert FindingKind.ONLY_NO_ERROR in _kinds(_lesson(korean))
    # A step that warns may be asked "no error" beside "no error, no warning"; a wrong "no error" is no cue.
    warns = _ask(["no error — a warning only", "no error, no warning — silent", "RuntimeError: boom",
                  "UserWarning: careful"], 0, check="error")
    assert FindingKind.ONLY_NO_ERROR not in _kinds(_lesson(warns))
    wrong = _ask(["no error — allowed", "RuntimeError: a leaf", "RuntimeError: one of", "UserWarning: careful"], 1,
                 check="error")
    assert FindingKind.ONLY_NO_ERROR not in _kinds(_lesson(wrong))


# -- Korean -------------------------------------------------------------------------------------------------

def test_banned_phrases_are_found_but_a_word_alone_is_not():
    note = '\n[[step]]\ncode = "x = torch.ones(2)"\nnote = "n"\nnote_ko = "{}"\n'
    text = '[lesson]\nid = "t"\ntitle = "T"\n'
    bad = lesson_text_findings(parse_lesson(text + note.format("n은 x의 메모리를 쓰는 배열입니다."), "t.toml"))
    assert [(f.kind, f.get("detail")) for f in bad] == [(FindingKind.BANNED_KO, "메모리를 쓰는")]
    assert "메모리를 공유하는" in describe(bad[0], "ko")
    assert lesson_text_findings(parse_lesson(text + note.format("x에 값을 써 넣습니다."), "t.toml")) == []


def test_the_glossary_lists_every_banned_phrase():
    glossary = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    section = glossary.split("## Phrases never written", 1)[1]
    rows = re.findall(r"^\| ([^|]+?) \| ([^|]+?) \|$", section, re.M)
    assert {never for never, _ in rows if never not in ("never", "---")} == {phrase for phrase, _ in BANNED_KO}


def test_a_term_is_glossed_at_its_first_use_in_reading_order():
    def found(summary: str, question: str, note: str) -> list[tuple[FindingKind, str]]:
        text = (f'[lesson]\nid = "t"\ntitle = "T"\nsummary = "s"\nsummary_ko = "{summary}"\n'
                f'[[step]]\ncode = "x = torch.ones(2)"\nnote = "n"\nnote_ko = "{note}"\n'
                f'[step.ask]\nquestion = "Q?"\ncheck = "x"\nchoices = ["aa", "bb"]\nanswer = 0\n'
                f'question_ko = "{question}"\n')
        return [(f.kind, f.get("detail")) for f in lesson_text_findings(parse_lesson(text, "t.toml"))]

    assert found("요약", "x.stride()는 무엇인가요?", "stride(보폭)는 칸 수입니다.") == []   # code is not the word
    assert found("요약", "stride는 무엇인가요?", "stride(보폭)는 칸 수입니다.") == [(FindingKind.GLOSS_KO, "stride")]
    assert found("stride(보폭)를 봅니다", "stride는?", "stride입니다.") == []
    # the question is read before the step's note
    assert found("요약", "뷰(view)인가요?", "뷰입니다.") == []
    assert found("요약", "뷰인가요?", "뷰(view)입니다.") == [(FindingKind.GLOSS_KO, "뷰")]


@pytest.mark.parametrize("lesson", builtin_lessons(), ids=lambda lesson: lesson.id)
def test_every_built_in_lesson_keeps_the_text_rules(lesson):
    assert [describe(f) for f in lesson_text_findings(lesson)] == []


# -- facts a note states -------------------------------------------------------------------------------------

def test_the_facts_a_note_states_are_read_by_sentence():
    names = {"x", "y", "a"}
    stated = stated_facts("x is a leaf. y shares x's storage, and y's version is 2. A clone is not a leaf.", names)
    assert [(name, kind) for _, name, kind in stated] == [("x", "leaf"), ("y", "storage"), ("y", "version")]
    # "a" is a word: only `a` in backticks is the tensor
    assert stated_facts("a leaf that requires grad", names) == []
    assert [(n, k) for _, n, k in stated_facts("`a` requires grad.", names)] == [("a", "requires")]
    assert stated_facts("z is a leaf.", names) == []     # not a tensor of the step


def test_a_storage_fact_covers_both_tensors():
    assert listed_facts(["y shares storage with x", "x is a leaf"]) == {("y", "storage"), ("x", "storage"),
                                                                         ("x", "leaf")}


def test_a_stated_fact_without_its_facts_entry_is_a_finding():
    step = '[lesson]\nid = "t"\ntitle = "T"\n[[step]]\ncode = "x = torch.ones(2, requires_grad=True)"\n'
    found = check_lesson(parse_lesson(step + 'note = "x requires grad."\n', "t.toml")).findings
    assert [(f.kind, f.get("name")) for f in found] == [(FindingKind.UNLISTED_FACT, "x")]
    assert "whether it requires grad" in describe(found[0])
    listed = step + 'note = "x requires grad."\nfacts = ["x requires grad"]\n'
    assert check_lesson(parse_lesson(listed, "t.toml")).findings == ()
    # "x is a leaf" is read from the note's own words and checked there: no `facts` entry is needed
    assert check_lesson(parse_lesson(step + 'note = "x is a leaf."\n', "t.toml")).findings == ()


def test_the_check_a_teacher_runs_reports_the_text_rules_in_both_languages():
    text = ('[lesson]\nid = "t"\ntitle = "T"\n[[step]]\ncode = "x = torch.ones(2)"\nnote = "n"\n'
            'note_ko = "무엇을 하나요?"\n')
    assert lesson_warnings(parse_lesson(text, "t.toml"), "en") == [
        "step 1: the Korean text writes “무엇을 하나요”, which the glossary never writes "
        "(write: 실행하면 어떻게 되나요?)"]
    assert "용어집이 금지한 표현" in lesson_warnings(parse_lesson(text, "t.toml"), "ko")[0]


def test_tensorlab_check_counts_a_built_in_lesson_in_its_place_in_the_course(monkeypatch):
    from tensorlab.core.checks import text_rules
    from tensorlab.core.lessons.lesson import find_lesson

    lesson = find_lesson("expand-is-not-repeat")
    assert text_rules.course_findings_with(lesson) == []
    monkeypatch.setattr(text_rules, "COURSE_SHARE", 0.0)
    # any longest (and any shortest) right choice is now one too many, in each language
    assert [m.key for m in text_rules.course_findings_with(lesson)] == ["finding.course_longest",
                                                                         "finding.course_shortest"] * 2
    own = parse_lesson(_lesson(_ask(["right, longest", "short"], 0)).replace('id = "t"', 'id = "mine"'), "m.toml")
    assert text_rules.course_findings_with(own) == []        # a teacher's own lesson is checked on its own


# -- the length cue reversed, and "no error" right in a share of error questions (issue 18, h18e) ----------

def test_a_right_choice_much_shorter_than_every_other_is_a_finding():
    from tensorlab.core.checks.text_rules import right_is_shortest

    assert FindingKind.SHORT_ANSWER in _kinds(_lesson(_ask(["a" * 6, "b" * 10, "c" * 12], 0)))   # under 2/3 of 10
    assert FindingKind.SHORT_ANSWER not in _kinds(_lesson(_ask(["a" * 7, "b" * 10, "c" * 12], 0)))
    tie = parse_lesson(_lesson(_ask(["cc", "bb", "aaaa"], 0)), "t.toml").steps[0].ask
    assert tie is not None and right_is_shortest(tie, "en")            # a tie counts as shortest


def test_the_right_choice_may_not_be_the_shortest_in_every_question_of_a_lesson():
    shortest = _ask(["right", "a longer one", "longer two"], 0)
    other = _ask(["the right, longest one", "short", "shorter"], 0)
    assert FindingKind.ALWAYS_SHORTEST in _kinds(_lesson(shortest, shortest))
    assert FindingKind.ALWAYS_SHORTEST not in _kinds(_lesson(shortest, other))
    assert FindingKind.ALWAYS_SHORTEST not in _kinds(_lesson(shortest))


def test_the_course_rule_counts_the_shortest_too():
    shortest = _ask(["right", "a longer one", "longer two"], 0)
    middle = _ask(["right one", "short", "a longer wrong one"], 0)
    many = parse_lesson(_lesson(shortest, shortest, middle), "t.toml")
    few = parse_lesson(_lesson(shortest, middle, middle, middle), "u.toml")
    found = course_length_findings([many, few])        # 3 of 7: over a third
    assert [(f.kind, f.get("count"), f.get("total")) for f in found] == [(FindingKind.COURSE_SHORTEST, 3, 7)]
    assert course_length_findings([few, few]) == []


def test_the_built_in_course_gives_no_reversed_length_cue():
    from tensorlab.core.checks.text_rules import right_is_shortest

    asks = [s.ask for lesson in builtin_lessons() for s in lesson.steps
            if s.ask is not None and s.ask.answer is not None]
    for language in ("en", "ko"):
        assert sum(right_is_shortest(a, language) for a in asks) <= COURSE_SHARE * len(asks), language


def test_no_error_is_right_in_a_fifth_of_the_course_error_questions():
    from tensorlab.core.checks.text_rules import QUIET_SHARE, course_quiet_findings

    raises = _ask(["no error: x0._version == 0", "RuntimeError: a", "no error: x0._version == 1", "UserWarning: b"], 1,
                  check="error")
    quiet = _ask(["no error: x0._version == 0", "RuntimeError: a", "no error: x0._version == 1", "UserWarning: b"], 0,
                 check="error")
    found = course_quiet_findings([parse_lesson(_lesson(raises, raises, raises, raises, raises, quiet), "t.toml")])
    assert [(f.kind, f.get("count"), f.get("total")) for f in found] == [(FindingKind.COURSE_NO_ERROR, 1, 6)]
    assert "1 of the course's 6" in describe(found[0])
    assert course_quiet_findings([parse_lesson(_lesson(raises, raises, raises, raises, quiet), "t.toml")]) == []
    asks = [s.ask for lesson in builtin_lessons() for s in lesson.steps
            if s.ask is not None and s.ask.check in ("error", "warning") and s.ask.answer is not None]
    assert course_quiet_findings(builtin_lessons()) == []
    assert len(asks) and QUIET_SHARE == 1 / 5


def test_a_no_error_choice_may_carry_a_condition_read_after_the_step():
    text = ('[lesson]\nid = "t"\ntitle = "T"\n'
            '[[step]]\ncode = "x = torch.ones(3)"\n'
            '[[step]]\ncode = "v = x[1:]"\n'
            '[[step]]\ncode = "v.add_(1)"\n'
            '[step.ask]\nquestion = "Q?"\ncheck = "error"\nanswer = {answer}\n'
            'choices = ["no error: x._version == 0 — a", "RuntimeError: a leaf Variable", '
            '"no error: x[1].item() == 2. — b", "RuntimeError: a view of a leaf Variable"]\n'
            'choices_ko = ["오류 없음: x._version == 0 — 가", "RuntimeError: a leaf Variable", '
            '"오류 없음: x[1].item() == 2. — 나", "RuntimeError: a view of a leaf Variable"]\n')
    right = check_lesson(parse_lesson(text.format(answer=2), "t.toml"))
    assert right.findings == ()
    assert right.asks[0].truth == (False, False, True, False)
    wrong = check_lesson(parse_lesson(text.format(answer=0), "t.toml"))
    assert [f.kind for f in wrong.findings] == [FindingKind.WRONG_ANSWER]
    # a condition that is not a bool cannot be compared; a translation must claim the same condition
    odd = text.format(answer=2).replace("x._version == 0 — a", "x._version — a")
    assert FindingKind.NOT_COMPARABLE in [f.kind for f in check_lesson(parse_lesson(odd, "t.toml")).findings]
    moved = text.format(answer=2).replace("x._version == 0 — 가", "x._version == 1 — 가")
    assert FindingKind.TRANSLATION in [f.kind for f in check_lesson(parse_lesson(moved, "t.toml")).findings]


def test_a_no_warning_choice_carries_a_condition_too_and_is_false_where_the_step_warned():
    # Issue 18, h18s: a warning question's quiet choices read "no warning: <condition>" (nothing raised or warned,
    # and the condition holds), as an error question's read "no error: <condition>".
    text = ('[lesson]\nid = "t"\ntitle = "T"\n'
            '[[step]]\ncode = "x = torch.ones(3)"\n'
            '[[step]]\ncode = "c = {code}"\n'
            '[step.ask]\nquestion = "Q?"\ncheck = "warning"\nanswer = {answer}\n'
            'choices = ["no warning: c.data_ptr() != x.data_ptr() — a", '
            '"UserWarning: To copy construct from a tensor", '
            '"no warning: c.data_ptr() == x.data_ptr() — b", "DeprecationWarning: torch.tensor"]\n'
            'choices_ko = ["경고 없음: c.data_ptr() != x.data_ptr() — 가", '
            '"UserWarning: To copy construct from a tensor", '
            '"경고 없음: c.data_ptr() == x.data_ptr() — 나", "DeprecationWarning: torch.tensor"]\n')
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # what torch itself says, without the check's own filter
        with pytest.raises(UserWarning, match="To copy construct from a tensor"):
            torch.tensor(torch.ones(3))
    copied = torch.ones(3)
    assert copied.clone().data_ptr() != copied.data_ptr()
    warned = check_lesson(parse_lesson(text.format(code="torch.tensor(x)", answer=1), "t.toml"))
    assert warned.findings == ()
    assert warned.asks[0].truth == (False, True, False, False)   # the condition holds, but the step warned
    quiet = check_lesson(parse_lesson(text.format(code="x.clone()", answer=0), "t.toml"))
    assert quiet.findings == ()
    assert quiet.asks[0].truth == (True, False, False, False)
    # the same condition after "no error:" is true where the step only warned: the two claims differ
    assert compare("no error: c.data_ptr() != x.data_ptr()", Observed(
        "outcome", (), None, (("UserWarning", "To copy construct"),), conditions=(("c.data_ptr() != x.data_ptr()",
                                                                                 True),))) is True
    assert claim_of("경고 없음: c.data_ptr()  != x.data_ptr() — 가") == "no warning: c.data_ptr() != x.data_ptr()"
    moved = text.format(code="x.clone()", answer=0).replace("!= x.data_ptr() — 가", "== x.data_ptr() — 가")
    assert FindingKind.TRANSLATION in [f.kind for f in check_lesson(parse_lesson(moved, "t.toml")).findings]
    unreadable = text.format(code="torch.tensor(x)", answer=1).replace("x.data_ptr() — a", "x.data_ptr() or 1 — a")
    assert FindingKind.CHECK in [f.kind for f in check_lesson(parse_lesson(unreadable, "t.toml")).findings]


def test_a_condition_the_subset_cannot_read_is_found_even_after_a_step_that_raised():
    # After a raise every "no error: <condition>" is false, so an unreadable condition hid until the step stopped
    # raising (issue 18, h18n: `and` is not in the subset).
    text = ('[lesson]\nid = "t"\ntitle = "T"\n'
            '[[step]]\ncode = "x = torch.ones(3, requires_grad=True)"\n'
            '[[step]]\ncode = "x.add_(1)"\n'
            '[step.ask]\nquestion = "Q?"\ncheck = "error"\nanswer = 1\n'
            'choices = ["no error: x.is_leaf and x._version == 1 — a", "RuntimeError: a leaf Variable", '
            '"no error: x._version == 1 — b", "RuntimeError: a view of a leaf Variable"]\n')
    found = check_lesson(parse_lesson(text, "t.toml")).findings
    assert [(f.kind, f.step) for f in found] == [(FindingKind.CHECK, 2)]
    assert "x.is_leaf and x._version == 1" in describe(found[0]) and "`and`" in describe(found[0])
    readable = text.replace("x.is_leaf and x._version == 1", "x.is_leaf")
    assert check_lesson(parse_lesson(readable, "t.toml")).findings == ()


def test_a_value_question_may_have_its_check_raise_and_then_value_claims_are_false():
    # Review r18k: a value question's "RuntimeError" choice could never be right; reading a value may raise.
    text = ('[lesson]\nid = "t"\ntitle = "T"\n'
            '[[step]]\ncode = "x = torch.ones(4, requires_grad=True)"\n'
            '[[step]]\ncode = "a, b = (x * 2).split(2)"\n'
            '[[step]]\ncode = \'\'\'\nwith torch.no_grad():\n    b.mul_(10)\'\'\'\n'
            '[step.ask]\nquestion = "Q?"\ncheck = "a.grad_fn"\nanswer = 1\n'
            'choices = ["SplitBackward0 — kept as it was before", '
            '"RuntimeError: its base or another view of its base", '
            '"CopySlices — rewritten like the base", "RuntimeError: A view was created in no_grad mode"]\n')
    # (two error forms: a lone one would be the odd one out, issue 18, h18n)
    found = check_lesson(parse_lesson(text, "t.toml"))
    assert found.findings == ()
    assert found.asks[0].truth == (False, True, False, False)


# -- error forms in value questions (issue 18, h18n) ---------------------------------------------------------

def test_a_value_question_never_offers_a_lone_error_form():
    # The review's pattern: three values and one "RuntimeError — …" a class drops as a filler.
    filler = _ask(["tensor([1.]) — a", "tensor([2.]) — b", "RuntimeError — refused", "tensor([3.]) — c"], 0)
    found = [f for f in lesson_text_findings(parse_lesson(_lesson(filler), "t.toml"))
             if f.kind is FindingKind.LONE_ERROR_FORM]
    assert [(f.step, f.get("choice")) for f in found] == [(1, 3)]
    assert "choice 3 is the only choice that claims an error" in describe(found[0])
    assert "값을 묻는 질문" in describe(found[0], "ko")
    # ... and where the lone error is right, it is the odd one out: the same finding.
    odd = _ask(["None — a", "RuntimeError: reading raises", "MulBackward0 — b", "CopySlices — c"], 1, check="x.grad_fn")
    assert FindingKind.LONE_ERROR_FORM in _kinds(_lesson(odd))
    # Two error forms (one right, as when reading the value raises), or none, are no cue of form.
    two = _ask(["None — a", "RuntimeError: reading raises", "MulBackward0 — b", "RuntimeError: another"], 1,
               check="x.grad_fn")
    none = _ask(["tensor([1.]) — a", "tensor([2.]) — b", "tensor([4.]) — c", "tensor([3.]) — d"], 0)
    assert FindingKind.LONE_ERROR_FORM not in _kinds(_lesson(two, none))
    # An error question is another rule's: its error choices are its subject.
    error = _ask(["no error: x0._version == 0", "RuntimeError: a", "no error: x0._version == 1", "UserWarning: b"],
                 1, check="error")
    assert FindingKind.LONE_ERROR_FORM not in _kinds(_lesson(error))


def test_an_error_offered_in_a_value_question_is_right_in_half_of_the_course_s_such_questions():
    from tensorlab.core.checks.text_rules import VALUE_ERROR_SHARE, course_value_error_findings

    right = _ask(["None — a", "RuntimeError: reading raises", "MulBackward0 — b", "RuntimeError: another"], 1,
                 check="x.grad_fn")
    filler = _ask(["None — a", "RuntimeError: reading raises", "MulBackward0 — b", "RuntimeError: another"], 0,
                  check="x.grad_fn")
    plain = _ask(["tensor([1.]) — a", "tensor([2.]) — b", "tensor([4.]) — c", "tensor([3.]) — d"], 0)
    found = course_value_error_findings([parse_lesson(_lesson(right, filler, filler, plain), "t.toml")])
    assert [(f.kind, f.get("count"), f.get("total")) for f in found] == [(FindingKind.COURSE_VALUE_ERROR, 1, 3)]
    assert "only 1 of the course's 3 value questions" in describe(found[0])
    assert course_value_error_findings([parse_lesson(_lesson(right, filler, plain), "t.toml")]) == []
    assert course_value_error_findings(builtin_lessons()) == [] and VALUE_ERROR_SHARE == 1 / 2


def test_the_course_s_value_questions_offer_no_lone_error_form():
    from tensorlab.core.checks.text_rules import error_form_choices

    lone = [(lesson.id, number) for lesson in builtin_lessons() for number, step in enumerate(lesson.steps, 1)
            if step.ask is not None and step.ask.check not in ("error", "warning", "output", "verdict")
            and step.ask.answer is not None and len(error_form_choices(step.ask)) == 1]
    assert lone == []


def test_tensorlab_check_counts_the_value_error_rule_with_the_course(monkeypatch):
    from tensorlab.core.checks import text_rules
    from tensorlab.core.lessons.lesson import find_lesson

    lesson = find_lesson("views-that-refuse-in-place")
    assert text_rules.course_findings_with(lesson) == []
    monkeypatch.setattr(text_rules, "VALUE_ERROR_SHARE", 2.0)   # no course could pass: the rule is asked
    assert [m.key for m in text_rules.course_findings_with(lesson)] == ["finding.course_value_error"]
