"""Korean as a Korean instructor writes it: one glossary, particles that fit, no banned variants."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tensorlab.core.lessons.lesson import builtin_lessons
from tensorlab.core.messages.catalogue import CATALOGUE, render
from tensorlab.core.messages.korean_particles import attach, ko, particle
from tensorlab.core.session.session import Session

from .test_catalogue import sample

ROOT = Path(__file__).resolve().parents[3]

# (pattern, what the glossary says instead)
BANNED = [
    (r"그래디언트|변화도", "기울기"),
    (r"제자리|바꿔치기", "인플레이스"),
    (r"리프(?! 텐서)(?!\(leaf\) 텐서)", "리프 텐서"),
    (r"잎", "리프 텐서"),
    (r"연산 그래프", "계산 그래프"),
    (r"버전 계수기", "버전 카운터"),
    (r"기울기 계산 모드", "기울기 모드"),   # one name for grad mode (issue 18, h18p)
    (r"스토리지", "저장소"),
    (r"클론", "복사본"),
    (r"떠나|떠난|떠납", "계산 그래프에서 분리되다"),
    (r"requires_grad인", "requires_grad=True인"),
    (r"돌려주|돌려줍|돌려준|돌려줘", "반환하다"),
    (r"부르|부릅|부른|불러", "호출하다"),
    (r"던지|던져|던집|(?:오류|에러)를 (?:내|냅|낸|냈)", "발생시키다"),
    (r"축약", "집계 연산"),
    (r"비리프", "리프 텐서가 아닌 텐서"),
    (r"웨이트|바이어스", "가중치 / 편향"),
    (r"동결", "고정하다"),
    (r"목표 네트워크", "타깃 네트워크"),
    (r"파라미터", "매개변수"),
    (r"스텝", "단계"),
    (r"강의", "레슨"),
    (r"요소", "원소"),
    (r"인자", "인수"),   # one word for a function's argument (issue 18, h138)
    # Python's dict (issue 18, h18z); 사전에 ("beforehand") and 사전 + a noun ("사전 확인") are other words
    (r"사전(?!에|\s*(?:준비|점검|확인|계산|검사|작업))", "딕셔너리"),
    (r"(?<![A-Za-z])에러", "오류"),
    (r"\d들", "no plural on numbers"),
    (r"을\(를\)|를\(을\)|이\(가\)|가\(이\)|은\(는\)|는\(은\)|과\(와\)|와\(과\)|\(으\)로", "the particle that fits"),
]

_PARTICLE = re.compile(r"([^\s가-힣]+)(으로|을|를|이|가|은|는|과|와|로)(?![가-힣])")
_CODE_END = re.compile(r"[A-Za-z0-9_)\]`'\"”’]$")
# A gloss in brackets right after a Korean word ("연속(contiguous)이"), or one that starts in Korean
# ("x.clone()(또는 ...)을"): the particle follows the word before it.
_GLOSS = re.compile(r"(?:(?<=[가-힣])[(\[][^()\[\]]*[)\]]|\((?=[가-힣])[^()]*(?:\([^()]*\)[^()]*)*\))$")


def _spoken(text: str) -> str:
    """The word a particle at the end of ``text`` follows (a trailing gloss in brackets skipped)."""
    before = text
    while True:
        stripped = _GLOSS.sub("", before).rstrip()
        if stripped == before or not stripped:
            break
        before = stripped
    return before


def _lesson_texts():
    for lesson in builtin_lessons():
        for key in ("title", "summary", "chapter"):
            yield f"{lesson.id} {key}_ko", lesson.translations.get(f"{key}_ko", "")
        for number, step in enumerate(lesson.steps, start=1):
            yield f"{lesson.id} step {number} note_ko", step.translations.get("note_ko", "")
            if step.ask is not None:
                for key in ("question", "explain"):
                    yield f"{lesson.id} step {number} {key}_ko", step.ask.translations.get(f"{key}_ko", "")
                for index, choice in enumerate(step.ask.translations.get("choices_ko", ())):
                    yield f"{lesson.id} step {number} choice {index + 1}", choice


def _ui_texts():
    root = ET.parse(ROOT / "tensorlab" / "resources" / "i18n" / "tensorlab_ko.ts").getroot()
    for message in root.iter("message"):
        yield f"ui: {message.findtext('source')!r}", message.findtext("translation") or ""


def _core_texts():
    # Every text of the catalogue, filled in as the code fills it (explanations, findings, refusals, labels).
    for key in CATALOGUE:
        yield f"message {key}", render(key, sample(key), "ko")
    session = Session()
    for code in ["x = torch.ones(3, requires_grad=True)", "p = x + 1", "q = x + 2", "y = p * q", "p.add_(1)",
                 "q.add_(1)", "y.sum().backward()"]:
        result = session.run(code)
    yield "version explanation", result.error.explanation.localized("ko").text


ALL = list(_lesson_texts()) + list(_ui_texts()) + list(_core_texts())


def test_the_texts_are_found():
    assert len(ALL) > 500


@pytest.mark.parametrize("pattern,instead", BANNED, ids=[b[1] for b in BANNED])
def test_no_banned_variant_in_any_korean_text(pattern, instead):
    found = [(where, text) for where, text in ALL if re.search(pattern, text)]
    assert found == [], f"write {instead!r}"


def test_particles_after_names_and_numbers_fit_their_sound():
    wrong = []
    for where, text in ALL:
        for match in _PARTICLE.finditer(text):
            word, written = match.groups()
            if not _CODE_END.search(word) or "{" in word:
                continue
            word = _spoken(text[:match.start(2)])
            if particle(word, written) != written:
                wrong.append(f"{where}: {word}{written} (should be {attach(word, written)})")
    assert wrong == []


TERMS = {"기울기": "기울기(gradient)", "인플레이스": "인플레이스(in-place)", "리프": "리프(leaf) 텐서",
         "저장소": "저장소(storage)", "역전파": "역전파(backward)", "뷰": "뷰(view)"}


@pytest.mark.parametrize("lesson", builtin_lessons(), ids=lambda l: l.id)
def test_terms_are_glossed_at_first_use_in_each_lesson(lesson):
    """In the order the class reads them: the summary, then each question, its choices, explanation and note."""
    texts = [lesson.translations.get("summary_ko", "")]
    for step in lesson.steps:
        if step.ask is not None:
            texts += [step.ask.translations.get("question_ko", ""), *step.ask.translations.get("choices_ko", ()),
                      step.ask.translations.get("explain_ko", "")]
        texts.append(step.translations.get("note_ko", ""))
    whole = "\n".join(texts)
    for term, gloss in TERMS.items():
        first = whole.find(term)
        if first >= 0:
            assert whole.startswith(gloss, first), f"{lesson.id}: the first {term!r} should read {gloss!r}"


@pytest.mark.parametrize("word,form,expected", [
    ("RuntimeError", "을", "RuntimeError를"), ("x", "을", "x를"), ("3", "을", "3을"), ("m", "이", "m이"),
    ("MulBackward0", "은", "MulBackward0은"), ("x.clone()", "을", "x.clone()을"), ("10", "로", "10으로"),
    ("1", "로", "1로"), ("`a`", "과", "`a`와"), ("텐서", "을", "텐서를"), ("서울", "으로", "서울로"),
    ("CopySlices", "이", "CopySlices가"), ("UserWarning", "을", "UserWarning을"), ("Variable", "은", "Variable은"),
    ("lr", "을", "lr을"), ("lr", "이", "lr이"), ("mt", "을", "mt를"),
    ("out", "은", "out은"), ("dropout", "을", "dropout을"), ("layout", "이", "layout이"),   # 아웃 (h21g, r21b)
])
def test_the_particle_follows_the_last_sound(word, form, expected):
    assert attach(word, form) == expected


def test_templates_fill_particles_and_plain_fields():
    assert ko("{name:을} 바꿀 수 없습니다 ({count:,}개)", name="x", count=12345) == "x를 바꿀 수 없습니다 (12,345개)"
    assert ko("{names:이} 공유", names="a, m") == "a, m이 공유"


def test_templates_with_code_fill_the_particle_after_the_backtick():
    assert ko("{name:`을} 쓸 수 없습니다", name="open") == "`open`을 쓸 수 없습니다"
    assert ko("{name:`} 그대로", name="x") == "`x` 그대로"


@pytest.mark.parametrize("template", [
    "plain text", "{name} and {count:,}", "{{literal}} {name}", "{name:>6}|{count:05d}", "{name:을} {count}",
    "{name:`} {count}", "{0} {name}", "{name!r}", "{name.real}", "a { b", "a } b", "{name:{count}}", "{}", "{{}}",
    "{count:%}", "{이름:을}", "{이름} 값",
])
def test_a_template_str_format_can_fill_gives_what_the_particles_filler_gives(template):
    """ko() hands the templates without a particle to str.format: the same text (or the same refusal) either way."""
    from tensorlab.core.messages import korean_particles

    values = {"name": "x", "count": 3, "이름": "m"}

    def slow() -> object:
        korean_particles._PLAIN[template] = False   # (forces the particle filler for this text)
        try:
            return ko(template, **values)
        except Exception as exc:  # noqa: BLE001 - compared as a refusal
            return type(exc)
        finally:
            korean_particles._PLAIN.pop(template, None)

    def fast() -> object:
        try:
            return ko(template, **values)
        except Exception as exc:  # noqa: BLE001 - compared as a refusal
            return type(exc)

    assert fast() == slow()
