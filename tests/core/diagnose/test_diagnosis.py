"""A Diagnosis as the window and `--json` read it: its fields, its JSON in each language, its program's title."""

from __future__ import annotations

import dataclasses

import pytest

from tensorlab.core.diagnose import Diagnosis, diagnose

LEAF = "RuntimeError: a leaf Variable that requires grad is being used in an in-place operation."


def test_an_explained_diagnosis():
    found = diagnose(LEAF)
    assert isinstance(found, Diagnosis) and found.explained and found.kind == "error"
    assert found.family == "leaf_inplace" and found.reproduction and found.needs is None and found.runs_here
    english, korean = found.to_json("en"), found.to_json("ko", "RuntimeError: a leaf Variable ...")
    assert english["explanation"]["title"] == "In-place change of a leaf"
    assert korean["explanation"]["title"] == "리프 텐서의 인플레이스 변경"
    assert korean["reproduction_raises"] == "RuntimeError: a leaf Variable ..."
    assert english["reproduction_raises"] is None
    assert found.program_title() == "Diagnosis: In-place change of a leaf"
    assert found.program_title("ko") == "진단: 리프 텐서의 인플레이스 변경"
    with pytest.raises(dataclasses.FrozenInstanceError):
        found.explained = False  # type: ignore[misc]


def test_an_unexplained_diagnosis_still_says_so_in_words():
    found = diagnose("KeyError: 'label'")
    assert not found.explained and found.type == "KeyError" and found.message == "'label'"
    assert found.title is not None and found.text is not None and "KeyError" in found.text.render("en")
    doc = found.to_json("ko")
    assert doc["explanation"] is None and doc["facts"] == {} and doc["reproduction"] is None
    assert found.program_title("en") == "Diagnosis: Not an error TensorLab explains"
