"""`tensorlab diagnose --json` over the corpus in tests/data/diagnose: real torch 2.x captures and torch 1.x
wordings, every input format; each explained one's reproduction, run with plain torch, raises the pasted error.

The corpus: ``captured/`` made by ``tests/data/diagnose/capture.py`` (real runs here, with the code of each in
``captured.json``), ``transcribed/`` by ``make_transcribed.py`` (older torch and the formats of other tools).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tensorlab.cli.main import main
from tensorlab.core.diagnose.families import FAMILIES, normal_node, read_family, tensor_dtype
from tensorlab.core.diagnose.lesson_index import lessons_for
from tensorlab.core.diagnose.reproduce import MAX_ELEMENTS, VIEW_NODES
from tests.core.diagnose.reference import reproduced

DATA = Path(__file__).resolve().parents[1] / "data" / "diagnose"
CASES = {f"captured/{name}": case for name, case in json.loads((DATA / "captured.json").read_text()).items()}
CASES |= {f"transcribed/{name}": case for name, case in json.loads((DATA / "transcribed.json").read_text()).items()}
JSON_KEYS = {"kind", "type", "message", "line", "explanation", "facts", "lessons", "reproduction",
             "reproduction_raises", "needs"}
FACT_KEYS = {"tensor_type", "dtype", "shape", "node", "output_index", "version", "expected_version", "devices"}


def _diagnose_json(capsys, path: Path, *more: str) -> tuple[int, dict]:
    status = main(["diagnose", str(path), "--json", "--in-process", *more])
    return status, json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_corpus_through_diagnose_json(name, capsys):
    case = CASES[name]
    status, doc = _diagnose_json(capsys, DATA / name)
    assert set(doc) == JSON_KEYS
    assert set(doc["facts"]) <= FACT_KEYS
    if case["family"] is None:    # the unrelated set: no explanation, no guess
        assert status == 3
        assert doc["explanation"] is None and doc["facts"] == {} and doc["lessons"] == []
        assert doc["reproduction"] is None and doc["reproduction_raises"] is None
        if case.get("type"):
            assert doc["type"] == case["type"]
        return
    assert status == 0
    assert set(doc["explanation"]) == {"title", "text", "advice"} and all(doc["explanation"].values())
    family = read_family(doc["message"], doc["type"]) or read_family(doc["message"], "")
    assert family is not None and family.name == case["family"]
    if "kind" in case:
        assert doc["kind"] == case["kind"] and doc["type"] == case["type"]
    for key, value in case["facts"].items():
        assert doc["facts"][key] == value, key
    if case["line"] is not None:
        assert doc["line"] == (case["line"] or None)
    assert doc["lessons"] == list(lessons_for(case["family"]))
    assert doc["reproduction"], "every diagnosed family has a reproduction"
    _check_reproduction(doc)


def _check_reproduction(doc: dict) -> None:
    """Run with plain torch, the reproduction raises the same type and family, with the pasted facts."""
    facts = doc["facts"]
    if doc["needs"] is not None and "devices" in facts and len(facts["devices"]) > 1:
        assert doc["reproduction_raises"] is None     # two devices: no CPU analogue, not run here
        return
    type_name, family = reproduced(doc["reproduction"])
    pasted = read_family(doc["message"], doc["type"]) or read_family(doc["message"], "")
    assert family is not None and pasted is not None and family.name == pasted.name
    assert type_name == pasted.type
    assert doc["reproduction_raises"] is not None and doc["reproduction_raises"].startswith(type_name + ": ")
    assert read_family(doc["reproduction_raises"].split(": ", 1)[1], type_name).name == pasted.name
    got = family.facts
    if "shape" in facts:
        if "scaled down" in doc["explanation"]["text"] or "smaller than your error" in doc["explanation"]["text"]:
            assert len(got["shape"]) == len(facts["shape"])
            total = 1
            for size in got["shape"]:
                total *= size
            assert total <= MAX_ELEMENTS
        elif facts.get("dtype") in ("float32", "float64", "float16", "bfloat16", None):
            assert got["shape"] == facts["shape"]
    if "dtype" in facts:
        dtype, device = tensor_dtype(got["tensor_type"])
        assert device == "cpu"
        if "indexing saves its indices as int64" in doc["explanation"]["text"]:
            assert dtype == "int64"
        else:
            assert dtype == facts["dtype"]
    if "version" in facts and facts["version"] <= facts["expected_version"]:     # impossible: said, shown as 1/0
        assert "versions are inconsistent" in doc["explanation"]["text"]
        assert "raised its version by" not in doc["explanation"]["text"]
        assert (got["version"], got["expected_version"]) == (1, 0)
    elif "version" in facts and "smaller than your error" not in doc["explanation"]["text"]:
        assert (got["version"], got["expected_version"]) == (facts["version"], facts["expected_version"])
    if "node" in facts and "message names none where yours names" in doc["explanation"]["text"]:
        assert "node" not in got      # the explanation says the reproduction's message names no node: it names none
    elif "node" in facts:
        node = normal_node(facts["node"])
        expected = "AsStrided" if node in VIEW_NODES else node
        if "in place of" in doc["explanation"]["text"]:     # a named analogue, said in the explanation
            assert f"with {normal_node(got['node'])} in place of" in doc["explanation"]["text"]
        else:
            assert normal_node(got["node"]) == expected
    elif pasted.name == "saved_changed" and "shape" in facts:
        assert "node" not in got     # a leaf stays a leaf
    if "output_index" in facts and pasted.name == "multi_view_inplace":
        assert got["output_index"] == facts["output_index"]
    if pasted.name == "integer_grad":      # torch's two wordings: the reproduction raises the pasted one
        assert family.message == pasted.message


def test_the_corpus_covers_every_family_twice_and_every_format():
    counts = {family: 0 for family in FAMILIES}
    for case in CASES.values():
        if case["family"] is not None:
            counts[case["family"]] += 1
    assert all(count >= 2 for count in counts.values()), counts
    names = " ".join(CASES)
    for form in ("crlf", "bom", "utf16", "ipython", "ipython-color", "pytest", "ddp", "torch-compile", "torchrun",
                 "wrapped", "alone", "chained", "direct-cause", "old-ipython", "jupyter"):
        assert form.split("-")[0] in names or form in names, form
    texts = [(DATA / name).read_bytes() for name in CASES]
    assert any(b"~~^^" in text or b"^^^^" in text for text in texts)      # Python 3.11+ caret lines
    assert any(b"\x1b[" in text for text in texts)                        # ANSI colours
    assert any(b"\nE   " in text for text in texts)                       # pytest
    torch_1 = [case for case in CASES.values() if case["torch"].startswith(("0.", "1."))]
    assert len(torch_1) >= 15
    unrelated = [case for case in CASES.values() if case["family"] is None]
    assert {"KeyError", "ImportError", "OutOfMemoryError", "RuntimeError"} <= {case.get("type") for case in unrelated}


def test_a_reproduction_runs_in_the_worker(capsys):
    """Without --in-process the reproduction runs in the isolating worker, under the usual limits."""
    status = main(["diagnose", str(DATA / "captured" / "saved-relu-output.txt"), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert status == 0
    assert doc["reproduction_raises"].startswith("RuntimeError: one of the variables needed for gradient")
    assert "[torch.FloatTensor [27, 32]], which is output 0 of Relu, is at version 1; expected version 0" \
        in doc["reproduction_raises"]


def test_the_text_output_and_korean(capsys):
    assert main(["diagnose", str(DATA / "captured" / "numpy-plot.txt"), "--in-process", "--language", "ko"]) == 0
    out = capsys.readouterr().out
    assert "numpy()" in out and "재현 코드" in out and "print(list(w.numpy()))" in out
    assert main(["diagnose", str(DATA / "transcribed" / "unrelated-importerror.txt"), "--in-process"]) == 3
    out = capsys.readouterr().out
    assert "Not an error TensorLab explains" in out and "ImportError" in out
