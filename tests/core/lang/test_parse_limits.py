"""A statement deeper than Python's recursion limit is refused with the subset's message, never a RecursionError
(a 900-term sum typed on the code line, or a step of an opened file, raised RecursionError in the walk after
Python's parser, which takes such trees)."""

from __future__ import annotations

import pytest

from tensorlab.core.lang.parse import LanguageError, parse_one
from tensorlab.core.session.session import Session


@pytest.mark.parametrize("code", [
    "y = " + "+".join(["w"] * 900),       # a chain 900 deep that Python's parser takes (it fits in a line)
    "y = " + "w.exp(" * 150 + ")" * 150,  # calls of attributes, two levels each
    "y = " + "-" * 600 + "w",
])
def test_a_deep_statement_is_refused_as_too_deep(code):
    with pytest.raises(LanguageError) as refused:
        parse_one(code)
    assert "nested too deeply" in str(refused.value)


def test_a_typed_deep_line_is_refused_and_the_session_goes_on():
    session = Session()
    session.run("import torch")
    assert session.run("w = torch.ones(2)").ok
    with pytest.raises(LanguageError, match="nested too deeply"):
        session.run("y = " + "+".join(["w"] * 900))
    assert session.run("z = w + w").ok
    assert list(session.take_snapshot().tensor("z").values) == [2.0, 2.0]


def test_a_sum_of_fifty_terms_still_runs():
    session = Session()
    session.run("import torch")
    session.run("w = torch.ones(2)")
    assert session.run("y = " + "+".join(["w"] * 50)).ok
