"""The message catalogue: every key in both languages, one rendering, messages that cross the wire."""

from __future__ import annotations

import os
import pickle
import re
from pathlib import Path

import pytest

from tensorlab.core.files.bounded_read import UnreadableFile
from tensorlab.core.lang.builder_code import BuilderError, check_name
from tensorlab.core.lang.parse import LanguageError, check_names, parse_one
from tensorlab.core.lessons.lesson import LessonError, load_lesson, parse_lesson
from tensorlab.core.messages.catalogue import CATALOGUE, Message, MessageError, msg, render
from tensorlab.core.protocol.explanation import Explanation
from tensorlab.core.protocol.limits import LimitError
from tensorlab.core.protocol.results import ErrorInfo, StepResult
from tensorlab.core.protocol.snapshot import Snapshot
from tensorlab.core.protocol.wire import InfoReceiver, InfoSender
from tensorlab.core.session.session import Session

from .korean_only import latin_words

ROOT = Path(__file__).resolve().parents[3]
KEYS = sorted(CATALOGUE)
_HANGUL = re.compile(r"[가-힣]")
_FIELD = re.compile(r"\{(\w+)(?::[^{}]*)?\}")

# Sample parameters by name (a key's own where one name means different things), as the code passes them.
# Strings that stand for text TensorLab did not write (Python's, torch's, a user's) are listed in FOREIGN.
SAMPLES: dict[str, object] = {
    "name": "x", "allowed": "data, grad, requires_grad", "answer": 2, "budget": "2.0 GB", "byte": 7,
    "call": "torch.no_grad()", "check": "x.grad", "choice": 1, "claim": "x is a leaf", "code": "x = 1",
    "construct": msg("construct.list_comprehension"), "count": "12,345", "col": 5, "context": "open(...)",
    "cost": "1.2e+10", "iteration": 2, "near": "x.shape",
    "detail": "invalid syntax", "device": "cpu", "expected": 0, "exponent": 5000,
    "fact": msg("fact.claim.leaf", name="x"), "field": msg("builder.field.target_name"),
    "first": msg("check.same_error"),
    "fn": "MulBackward0", "held": "1.5 GB", "high": 10, "key": "cod", "keyword": "def",
    "kind": msg("builder.kind.factory"), "known": "views-share-storage, four-ways-to-copy", "last": 1,
    "length": 3000, "lesson": "views-share-storage", "limit": 100, "line": 1, "low": 1, "method": "fast",
    "methods": "clone, copy_", "module": "os", "names": "`x`, `y`", "now": 1, "number": 3, "op": "<<",
    "other": "y", "path": "out.py", "position": 2, "present": "cpu, cuda:0", "reason": msg("subset.no_statement"),
    "reference": "('info', 7)", "column": 9, "digits": 5000, "format": "tensorlab-course",
    "rest": msg("check.same_output"), "seconds": "5", "signal": "SIGSEGV", "size": "1.0 GB", "source": "bad.toml",
    "status": 1, "step": 2, "steps": (msg("explain.culprit.step", step=4, code="c.zero_()"),), "storage": "S0",
    "target": "x.shape", "text": "2, x", "total": 5, "en": "maybe so", "ko": "아마", "options": "--language ko",
    "commands": "`run`, `check`", "command": "bogus", "done": 3, "grad": True, "note": "t().contiguous()",
    "threads": 2, "torch": "2.13.0", "ratio": "1.32", "title": "제목", "advice": "다른 방법을 쓰세요.",
    "type": "RuntimeError",
    "shape": "[2, 3]",
    "value": "tensor([1., 2.])", "values": "[1.0, 2.0]", "version": 1, "what": msg("limit.what.result"),
    "where": "[[step]]", "who": "`a`", "width": "1,000,000", "instead": "stride(보폭)",
    "verdict": msg("verdict.same", ratio="1.02", low="0.91", high="1.13"),
    "depth": 10, "paths": "1,023", "depth_limit": 16, "paths_limit": 1000, "flag": "fused",
    "written": "`i`", "item": "w.data_ptr() == m.data_ptr()",
    # issue 20: diagnose (core/messages/text_diagnose.py)
    "offset": 12, "tensor_type": "torch.FloatTensor", "node": "ReluBackward0", "output": 0,
    "changes": 1, "bumps": 1000, "analogue": "AsStrided", "needs": "CUDA", "devices": "cuda:0, cpu",
    "lessons": "`saved-tensors`, `backward-twice`", "raises": "RuntimeError: boom happened",
    "then": msg("check.same_output"),
    "cell": 2, "encoding": "utf-8",   # h21a (issue #21): opening a .py or a notebook
    "dtype": "uint8", "used": "int64", "nodes": "`Split`",   # h20c: diagnose's notes
}
BY_KEY: dict[str, dict[str, object]] = {
    "file.special": {"kind": msg("file.kind.fifo")},
    "measure.skipped_transpose": {"size": 97},
    "limit.dims": {"count": 100_000},
    "subset.assign_only": {"allowed": "requires_grad"},
    "subset.not_on_type": {"type": msg("subset.type.tensor")},
    "subset.literal": {"type": "bytes"},
    "lesson.not_text_type": {"type": "int"},
    "lesson.bad_id": {"text": "'Bad Id'"},
    "lesson.bad_prerequisite": {"text": "'Bad Id'"},
    "finding.check": {"detail": msg("check.statement", check="x = 1")},
    "finding.fact": {"detail": msg("fact.false", fact=msg("fact.claim.not_leaf", name="x"))},
    "finding.note": {"detail": msg("fact.note_false", fact=msg("fact.claim.leaf", name="x"))},
    "finding.visible": {"detail": msg("check.same_output")},
    "finding.none_true": {"detail": msg("check.value", value="tensor([1.])")},
    "finding.several_true": {"detail": msg("check.nothing"), "choice": "1, 2"},
    "finding.wrong_answer": {"detail": msg("check.error", type="RuntimeError", text="boom happened")},
    "finding.translation": {"detail": msg("check.translated_claim", key="choices_ko", claim="예")},
    "finding.not_comparable": {"detail": "maybe"},
    "finding.quote": {"detail": "the tensor was changed"},
    # issue 18: the texts' own rules (checks/text_rules.py)
    "finding.banned_ko": {"detail": "메모리를 쓰는", "instead": "메모리를 공유하는"},
    "finding.gloss_ko": {"detail": "stride", "instead": "stride(보폭)"},
    "finding.long_answer": {"key": "choices_ko"},
    "finding.always_longest": {"key": "choices"},
    "finding.course_longest": {"key": "choices", "count": 25, "total": 54},
    "finding.error_choices": {"count": 1},
    "finding.unlisted_fact": {"detail": "x is a leaf now", "name": "x", "fact": msg("fact.kind.leaf")},
    "finding.at_step": {"text": msg("finding.no_check")},
    # issue 18: a measured question's answer after `tensorlab run`
    "cli.measured": {"size": "10"},
    "cli.measured_none": {"size": "10"},
    "cli.measured_skipped": {"size": "10,000,000"},
    "export.measured": {"size": "10"},
    "fact.unknown": {"fact": "x is blue"},
    "check.error": {"text": "boom happened"},
    "check.warning": {"type": "UserWarning", "text": "boom happened"},
    "check.translated_claim": {"claim": "예"},
    "check.unreadable": {"reason": msg("subset.not_available", name="open")},
    "check.refused": {"reason": msg("check.changes_state", name="zero_")},
    "fact.unchecked": {"reason": msg("fact.not_tensor", name="q")},
    "text.verbatim": {"text": "RuntimeError: boom happened"},
    "explain.paragraph": {"text": "설명입니다."},
    "explain.paragraph_advice": {"text": "설명입니다."},
    "engine.restarted": {"reason": msg("engine.crashed", signal="SIGSEGV")},
    "limit.what.code": {"code": "torch.ones(...)"},
    "limit.what.data_given": {"what": msg("limit.what.code", code="torch.tensor(...)")},
    "builder.unknown": {"text": "twice"},
    "engine.no_start_detail": {"detail": "Traceback (most recent call last): boom happened"},
    "engine.internal": {"detail": "Traceback (most recent call last): boom happened"},
    # h21a (issue #21): opening a .py or a notebook
    "source.depends": {"where": msg("source.line", line=3), "name": "np"},
    "source.not_run": {"reason": msg("source.magic")},
    "subset.near": {"reason": msg("subset.not_listed", what="x.shap", name="shap"), "near": "x.shape"},
}
FOREIGN = ["invalid syntax", "boom happened", "Traceback (most recent call last):", "x is a leaf", "x is blue",
           "maybe", "the tensor was changed", "twice"]


def sample(key: str) -> dict[str, object]:
    """Parameters for every field of ``key``'s templates."""
    names = set(_FIELD.findall(CATALOGUE[key].en)) | set(_FIELD.findall(CATALOGUE[key].ko))
    return {name: BY_KEY.get(key, {}).get(name, SAMPLES[name]) for name in names}


def test_the_catalogue_holds_every_kind_of_text():
    areas = {key.split(".")[0] for key in KEYS}
    assert {"subset", "construct", "builder", "limit", "file", "lesson", "finding", "check", "fact", "explain",
            "export", "transcript", "engine", "measure", "cli"} <= areas
    assert len(KEYS) > 300


@pytest.mark.parametrize("key", KEYS)
def test_every_key_has_both_languages_and_the_same_placeholders(key):
    entry = CATALOGUE[key]
    assert entry.en.strip() and entry.ko.strip()
    if key == "text.lesson_text":   # a lesson's own text: each language writes the file's text in it
        assert (set(_FIELD.findall(entry.en)), set(_FIELD.findall(entry.ko))) == ({"en"}, {"ko"})
        return
    assert set(_FIELD.findall(entry.ko)) == set(_FIELD.findall(entry.en)), "other placeholders than the English"
    if not entry.code_only:
        assert entry.ko != entry.en, "the Korean is the English"
        assert _HANGUL.search(entry.ko), "no Hangul (mark the entry code-only if it is code)"


@pytest.mark.parametrize("key", KEYS)
def test_every_message_renders_in_korean_only(key):
    params = sample(key)
    english, korean = render(key, params, "en"), render(key, params, "ko")
    assert "{" not in english.replace("{{", "") and "{" not in korean.replace("{{", "")
    assert not re.search(r"을\(를\)|이\(가\)|은\(는\)", korean)
    assert latin_words(korean, FOREIGN) == [], korean


def test_a_key_that_is_not_in_the_catalogue_is_refused_at_once():
    with pytest.raises(KeyError):
        msg("subset.no_such_message")


def test_the_five_old_mechanisms_are_gone():
    """One catalogue, one rendering: no regex re-translation, no English-keyed tables, no inline language tests."""
    core = ROOT / "tensorlab"
    assert not (core / "core" / "messages" / "translate_ko.py").exists()
    assert not (core / "core" / "explain" / "explanations_ko.py").exists()
    offenders = []
    for path in core.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if re.search(r"localize_message|language == \"ko\"|^_LABELS = \{|^TEMPLATES:|^KOREAN:", text, re.M):
            if path.name != "catalogue.py":
                offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []


# -- exceptions: the English stays, every language renders -----------------------------------------------------


def _raised(function, *args):
    try:
        function(*args)
    except MessageError as exc:
        return exc
    raise AssertionError("nothing was raised")


def test_exceptions_carry_their_message_and_say_it_in_english(tmp_path):
    step_two = '[lesson]\nid = "b"\ntitle = "B"\n[[step]]\ncode = "x = 1"\n[[step]]\ncode = "open(\'f\')"\n'
    cases = [
        (_raised(parse_lesson, step_two, "bad.toml"),
         "bad.toml, step 2: line 1, col 1: `open` is not available in TensorLab",
         "bad.toml, 2단계: 1번째 줄, 1번째 글자: TensorLab에서는 `open`을 쓸 수 없습니다"),
        (_raised(lambda: check_names([parse_one("y = z + 1")])),
         "line 1, col 5: `z` is not defined: no earlier step assigns it",
         "1번째 줄, 5번째 글자: `z`가 정의되지 않았습니다. 앞의 어느 단계도 이 이름에 대입하지 않습니다"),
        (_raised(check_name, "1x"),
         "`1x` is not a valid name: use letters, digits and _, not starting with a digit",
         "`1x`는 올바른 이름이 아닙니다. 숫자로 시작하지 않는 영문자, 숫자, 밑줄(_)을 쓰세요"),
        (_raised(parse_lesson, step_two.replace('code = "open', 'cod = "x"\ncode = "open'), "bad.toml"),
         "bad.toml, step 2: unknown key `cod` in [[step]]",
         "bad.toml, 2단계: [[step]]에 알 수 없는 키 `cod`가 있습니다"),
    ]
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo")
        cases.append((_raised(load_lesson, tmp_path / "fifo"),
                      "fifo: this is a named pipe (FIFO), not a lesson file: only regular files are read",
                      "fifo: 이것은 레슨 파일이 아니라 이름 있는 파이프(FIFO)입니다. 일반 파일만 읽습니다"))
    for exc, english, korean in cases:
        assert isinstance(exc, (LanguageError, LessonError, BuilderError, UnreadableFile))
        assert str(exc) == english == exc.render("en")
        assert exc.render("ko") == korean
        assert isinstance(exc.message, Message)


def test_a_limit_is_refused_with_a_message_in_each_language():
    result = Session().run("x = torch.ones(3).expand(100000, 100000, 3).clone()")
    assert result.error is not None and result.error.type in ("LimitError", "LanguageError")
    assert result.error.own is not None
    assert result.error.message == result.error.own.render("en")
    assert "TensorLab allows at most" in result.error.text("en")
    assert "TensorLab은 텐서 하나에 원소를 최대" in result.error.text("ko")
    assert issubclass(LimitError, MessageError)


# -- across the process boundary: keys and parameters, rendered where they are shown ----------------------------


def test_messages_and_explanations_cross_the_wire_as_keys_and_parameters():
    session = Session()
    session.run("x = torch.ones(3, requires_grad=True)")
    failed = session.run("x.add_(1)")
    refused = session.run("print(1, file=x)")
    assert failed.error is not None and failed.error.own is None  # torch's own message: never translated
    assert refused.error is not None and refused.error.own == msg("subset.print_file")
    sender, receiver = InfoSender(), InfoReceiver()  # the worker's side, the window's (SafeUnpickler)
    received = [receiver.loads(sender.dumps(r)) for r in (failed, refused)]
    assert [r.error for r in received] == [failed.error, refused.error]
    explanation = received[0].error.explanation
    assert isinstance(explanation, Explanation) and explanation.key == "explain.leaf_inplace"
    assert explanation.title == "In-place change of a leaf"
    assert explanation.localized("ko").title == "리프 텐서의 인플레이스 변경"
    assert received[1].error.text("ko").startswith("TensorLab에서는 print(file=...)를 쓸 수 없습니다")
    assert received[1].error.text("en") == refused.error.message


def test_json_writes_the_english_text_of_tensorlabs_messages():
    own = msg("subset.print_file")
    result = StepResult(0, "print(1, file=None)", ErrorInfo("TensorLabError", own.render("en"), None, own), (), "",
                        None, Snapshot())
    assert result.to_json()["error"] == {"type": "TensorLabError", "message": own.render("en")}
    assert pickle.loads(pickle.dumps(own)) == own
