"""One language per output: `check --language ko`, `run --language ko` and every refusal write Korean only.

"Korean only" is defined in :mod:`tests.core.messages.korean_only`; every refusal is rendered with
sample parameters in test_catalogue.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tensorlab.cli.main import main
from tensorlab.core.lessons.lesson import builtin_lessons, load_lesson
from tensorlab.core.lessons.play_through import iter_lesson
from tensorlab.core.lessons.transcript import _repr_lines, _short, tensor_table, transcript
from tensorlab.core.protocol.results import StepResult
from tensorlab.core.worker.in_process import LocalEngine

from .korean_only import latin_words

DATA = Path(__file__).resolve().parents[2] / "data"
WRONG = DATA / "lesson-wrong-facts.toml"


def test_check_in_korean_writes_korean_only(capsys):
    assert main(["check", str(WRONG), "--language", "ko"]) == 1
    korean = capsys.readouterr().out.splitlines()
    assert main(["check", str(WRONG)]) == 1
    english = capsys.readouterr().out.splitlines()
    assert len(korean) == len(english) >= 15  # every wrong fact, note, answer, check and quote is reported
    quoted = ["the tensor was changed in some way nobody expected", "x is blue"]  # the lesson's own words
    for line in korean:
        assert latin_words(line, quoted) == [], line
    assert "1단계: “`x`는 리프 텐서가 아닙니다”는 여기서 거짓입니다" in korean
    assert "step 1: “x is not a leaf” is false here" in english


def _program_texts(results: list[StepResult]) -> tuple[list[str], set[str]]:
    """What a transcript shows that TensorLab did not write: code, output, tables, torch's messages; the names."""
    foreign: list[str] = []
    names: set[str] = set()
    for result in results:
        # a value line by line too, as the transcript shows it (a parameter's repr has two lines)
        foreign += [*result.code.splitlines(), result.value or "", *(result.value or "").splitlines(),
                    *result.output.splitlines(),
                    # the rows, aligned as under the Korean header (the header is TensorLab's)
                    *tensor_table(result.snapshot, language="ko").splitlines()[1:]]
        foreign += [w.message for w in result.warnings] + [w.category for w in result.warnings]
        if result.error is not None and result.error.own is None:
            foreign.append(result.error.message)  # torch's own text, as torch wrote it
        for other in result.snapshot.others:
            # as the transcript shows it too: a long repr (an optimizer, a state_dict) is cut, mid-word
            foreign += [other.repr, _short(other.repr, 60), f"({other.type})"]
            # a module's or optimizer's repr, printed line by line (a line of brackets alone is no word of it)
            foreign += [line for line in _repr_lines(other.repr) if any(c.isalpha() for c in line)]
        names |= {t.name for t in result.snapshot.tensors} | {o.name for o in result.snapshot.others}
    return foreign, names


@pytest.mark.parametrize("lesson", builtin_lessons(), ids=lambda lesson: lesson.id)
def test_a_run_in_korean_writes_korean_only(lesson):
    engine = LocalEngine()
    try:
        results = list(iter_lesson(lesson, engine))
    finally:
        engine.close()
    # One line per paragraph, so that torch's text is found whole.
    text = transcript(lesson, "cpu", results, width=10**6, language="ko")
    foreign, names = _program_texts(results)
    left = {line: words for line in text.splitlines() if (words := latin_words(line, foreign, names))}
    assert left == {}


def test_tensorlabs_own_errors_are_said_in_the_runs_language_and_json_keeps_english(tmp_path, capsys):
    path = tmp_path / "refused.toml"
    path.write_text('[lesson]\nid = "refused"\ntitle = "Refused"\ntitle_ko = "거부"\n'
                    '[[step]]\ncode = "x = torch.ones(3)"\n[[step]]\ncode = "print(1, file=x)"\n', encoding="utf-8")
    assert main(["run", str(path), "--language", "ko", "--in-process"]) == 0
    out = capsys.readouterr().out
    assert "TensorLab이 이것을 거부했습니다(TensorLabError): TensorLab에서는 print(file=...)를 쓸 수 없습니다" in out
    assert "(refused, cpu에서)" in out
    assert main(["run", str(path), "--json", "--in-process"]) == 0
    error = json.loads(capsys.readouterr().out)["steps"][1]["error"]
    assert error == {"type": "TensorLabError",
                     "message": "print(file=...) is not available in TensorLab: it prints to the step's output"}
    lesson = load_lesson(path)
    engine = LocalEngine()
    try:
        results = list(iter_lesson(lesson, engine))
    finally:
        engine.close()
    foreign, names = _program_texts(results)
    for line in transcript(lesson, "cpu", results, width=10**6, language="ko").splitlines():
        assert latin_words(line, foreign, {*names, "refused"}) == [], line   # the lesson's id


def test_a_bad_lesson_file_is_refused_in_the_chosen_language(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text('[lesson]\nid = "bad"\ntitle = "Bad"\n[[step]]\ncode = "open(\'f\')"\n', encoding="utf-8")
    assert main(["check", str(path), "--language", "ko"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tensorlab: bad.toml, 1단계: 1번째 줄, 1번째 글자: TensorLab에서는 `open`을 쓸 수 없습니다")
    assert latin_words(err.removeprefix("tensorlab:")) == []
    assert main(["run", str(path)]) == 2
    assert "`open` is not available in TensorLab" in capsys.readouterr().err


def test_the_list_of_lessons_in_korean_is_korean(capsys):
    from tensorlab.cli.main import main
    from tensorlab.core.lessons.lesson import builtin_lessons

    assert main(["lessons", "--language", "ko"]) == 0
    lines = capsys.readouterr().out.splitlines()
    ids = [lesson.id for lesson in builtin_lessons()]   # a lesson's id is a name (its file's)
    assert {line: words for line in lines if (words := latin_words(line, names=ids))} == {}
    assert any("이름, 객체, 메모리" in line for line in lines) and any("5단계" in line for line in lines)


def test_the_copy_matrix_table_in_korean_is_korean():
    from tensorlab.core.protocol.copy_rows import COLUMNS
    from tensorlab.core.tools.tables import copies_table

    engine = LocalEngine()
    try:
        matrix = engine.job("copies", {})
    finally:
        engine.close()
    text = copies_table(matrix, "ko")
    # The headers are TensorLab's words; the rows' code and torch's values are not TensorLab's.
    foreign = [r.operation for r in matrix.rows] + [str(getattr(r, c)) for r in matrix.rows for c in COLUMNS]
    assert {line: w for line in text.splitlines() if (w := latin_words(line, foreign))} == {}
    assert "저장소 공유?" in text and "shares_storage" not in text
    assert "리프 텐서가 아님" in text and "아니요" in text


ENGLISH_LEFT = ["이것은 hello.", "이것은 (hello) 입니다", "hello-world 입니다", "오류 없음 (no warning)",
                "이 code는 names와 other words를 uses합니다", "`x`의 grad_fn은 Invalid입니다.",
                "이 행은 devices, functions, types, keys입니다", "gradient가 쌓입니다"]
NOTHING_LEFT = ["`x.grad`는 None입니다.", "RuntimeError를 발생시켰습니다", "기울기(gradient)가 쌓입니다",
                "`--memory-limit` 옵션", "UTF-8 텍스트", "Ctrl+Z로 되돌립니다", "x.clone()을 쓰세요",
                "레슨 views-share-storage를 엽니다",
                "“a leaf Variable”이라고 합니다"]


@pytest.mark.parametrize("text", ENGLISH_LEFT)
def test_the_korean_only_rule_finds_english_wherever_it_stands(text):
    """At a sentence's end, in brackets, hyphenated, before a particle, and a glossary gloss out of its place."""
    assert latin_words(text) != []


@pytest.mark.parametrize("text", NOTHING_LEFT)
def test_the_korean_only_rule_keeps_code_names_glosses_and_quotes(text):
    assert latin_words(text) == []
