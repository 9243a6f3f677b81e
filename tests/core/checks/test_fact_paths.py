"""A fact may name a tensor that a name reaches, as the tables name its row (`net[0].weight`, `sd['weight']`)."""

from __future__ import annotations

from tensorlab.core.checks.findings import FindingKind
from tensorlab.core.checks.lesson_checks import check_lesson
from tensorlab.core.checks.note_facts import check_fact, listed_facts
from tensorlab.core.lessons.lesson import parse_lesson
from tensorlab.core.worker.in_process import run_lesson

LESSON = '''[lesson]
id = "t"
title = "T"

[[step]]
code = "net = nn.Sequential(nn.Linear(2, 1, bias=False))"

[[step]]
code = "sd = net.state_dict()"

[[step]]
code = "parts = [torch.ones(2)]"
'''


def _snapshot():
    return run_lesson(parse_lesson(LESSON, "t.toml"))[-1].snapshot


def test_a_fact_names_a_modules_parameter_a_dicts_value_and_a_list_item():
    snap = _snapshot()
    for fact in ["net[0].weight is a leaf", "net[0].weight requires grad", "net[0].weight is at version 1",
                 "sd['0.weight'] does not require grad", "sd['0.weight'] shares storage with net[0].weight",
                 "net[0].weight.grad is None", "parts[0] holds [1, 1]", "parts[0] has its own storage"]:
        assert check_fact(fact, snap) is None, fact


def test_a_false_fact_about_a_row_is_false_and_an_unknown_row_is_reported():
    snap = _snapshot()
    assert check_fact("sd['0.weight'] requires grad", snap).key == "fact.false"
    assert check_fact("net[0].weight has its own storage", snap).key == "fact.false"   # sd['0.weight'] shares it
    assert check_fact("net[1].weight is a leaf", snap).key == "fact.unchecked"


def test_a_storage_fact_covers_both_rows():
    assert listed_facts(["sd['0.weight'] shares storage with net[0].weight"]) == {
        ("sd['0.weight']", "storage"), ("net[0].weight", "storage")}


def test_a_lesson_with_a_false_fact_about_a_row_is_a_finding():
    text = LESSON.replace('code = "sd = net.state_dict()"',
                          'code = "sd = net.state_dict()"\nfacts = ["sd[\'0.weight\'] has its own storage"]')
    found = check_lesson(parse_lesson(text, "t.toml")).findings
    assert [f.kind for f in found] == [FindingKind.FACT]
