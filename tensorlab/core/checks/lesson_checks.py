"""Checks that keep a lesson exact: derived answers, hidden answers, true notes.

:func:`check_lesson` runs a lesson in a fresh session
(:func:`~tensorlab.core.session.fresh_run.run_fresh`: in this process, torch's random state
left as it was) and, for every step:

- evaluates the question's ``check`` after the asked step (``"error"``,
  ``"warning"``, ``"output"``, or an expression of the code subset such as
  ``"x.grad"`` or ``"y is x"``, run by TensorLab's interpreter, never by eval),
  compares every choice with it (:mod:`tensorlab.core.checks.choice_claims`) and finds
  which ones are true: exactly one, the marked one, is right;
- checks that the answer was not on screen before the step: the panels show the
  state after the *previous* step, so its output, its error, and the same field
  of its snapshot (``x.grad`` for ``check = "x.grad"``; for a tensor value, the
  values and gradients of every tensor) must not already equal the checked value;
  and no item of the check may be one the storage map answers (a tensor drawn apart
  from the memory the step writes into) or an earlier step settled (identities and
  layouts the step leaves alone: :mod:`tensorlab.core.checks.settled_answers`);
- checks the step's ``facts`` and the sentence forms of its note against the
  snapshot (:mod:`tensorlab.core.checks.note_facts`), and that text quoted from torch
  is what this torch prints.

:func:`lesson_warnings` says what is wrong in English or Korean; the test suite
runs it over every built-in lesson, and the window over a lesson a teacher opens
or saves (the ``lesson_checks`` job, in the worker process).
"""

from __future__ import annotations

import ast
import contextlib
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

from tensorlab.core.checks.choice_claims import (
    OUTCOME_CHECKS,
    Observed,
    claim_of,
    compare,
    no_error_condition,
    normalize,
    written_claim,
)
from tensorlab.core.checks.findings import Finding, FindingKind, finding_message
from tensorlab.core.checks.note_facts import (
    FACT_KEYWORDS,
    check_fact,
    listed_facts,
    note_claims,
    read_in_note,
    stated_facts,
)
from tensorlab.core.checks.settled_answers import apart_on_the_map, items, settled_item
from tensorlab.core.checks.text_rules import lesson_text_findings
from tensorlab.core.explain.torch_messages import own_words
from tensorlab.core.files.safe_text import visible
from tensorlab.core.lang.parse import LanguageError, check_names, parse_one
from tensorlab.core.lessons.lesson import Ask, Lesson, LessonError, parse_lesson
from tensorlab.core.messages.catalogue import Message, message_of, msg
from tensorlab.core.observe.inspector import take_snapshot
from tensorlab.core.protocol.engine_api import Cancelled
from tensorlab.core.protocol.history import History, history_allowance
from tensorlab.core.protocol.limits import DEFAULT_LIMITS, Limits
from tensorlab.core.protocol.results import ErrorInfo, StepResult
from tensorlab.core.protocol.snapshot import Snapshot
from tensorlab.core.sandbox.interpreter import Interpreter
from tensorlab.core.session.fresh_run import run_fresh
from tensorlab.core.session.session import Session

__all__ = ["AskReport", "LessonCheck", "check_lesson", "lesson_warnings", "lesson_checks_job", "NOT_RUN"]

# A step whose result is one of these did not run (the worker crashed or was stopped, or the run's
# time was up): nothing about it can be checked; the check says so instead.
NOT_RUN = frozenset({"WorkerCrash", "WorkerTimeout", "TimeLimit", "Cancelled"})

# Calls a check may not make: they would change the state (or the random stream) of the run.
_CHANGING = frozenset({"backward", "retain_grad", "requires_grad_", "register_hook", "manual_seed",
                       "rand", "randn", "randint", "rand_like", "randn_like", "print"})
_FIELDS = {"grad": "grad", "is_leaf": "is_leaf", "requires_grad": "requires_grad", "grad_fn": "grad_fn",
           "_version": "version", "shape": "shape", "dtype": "dtype", "device": "device", "data": "values"}
_QUOTED = re.compile(r"[\"“]([^\"“”]{12,}?)[\"”]")


@dataclass(frozen=True)
class AskReport:
    """What the check of one question found (``step`` counts from 1)."""

    step: int
    check: str
    observed: str
    truth: tuple[bool | None, ...]
    answer: int
    visible: Message | None = None   # where the answer is on screen before the class predicts
    problem: Message | None = None   # why the check cannot be used

    @property
    def derived(self) -> int | None:
        """The index of the one true choice, or None when not exactly one is true."""
        true = [i for i, t in enumerate(self.truth) if t]
        return true[0] if len(true) == 1 else None


@dataclass(frozen=True)
class LessonCheck:
    """Everything :func:`check_lesson` found: the questions' reports, and findings."""

    asks: tuple[AskReport, ...]
    findings: tuple[Finding, ...]
    results: tuple[StepResult, ...]


def _read_only(node: ast.AST) -> Message | None:
    """Why the check expression ``node`` could change the run (None when it cannot)."""
    for child in ast.walk(node):
        if isinstance(child, ast.Call):
            func = child.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in _CHANGING or (name.endswith("_") and not name.startswith("_")):
                return msg("check.changes_state", name=name)
    return None


def _forms(value: Any) -> tuple[str, ...]:
    if isinstance(value, torch.autograd.graph.Node):
        name = type(value).__name__
        return (name, f"<{name}>")
    forms = [normalize(repr(value))]
    try:
        text = normalize(str(value))
    except Exception:  # a str() that fails is simply not a form
        text = forms[0]
    if text not in forms:
        forms.append(text)
    return tuple(forms)


def _outcome(result: StepResult, conditions: tuple[tuple[str, bool | None], ...] = ()) -> Observed:
    error = None if result.error is None else (result.error.type, result.error.message)
    own = None if result.error is None else result.error.own
    return Observed("outcome", (), error, tuple((w.category, w.message) for w in result.warnings), own, conditions)


# -- "no error: <condition>" and "no warning: <condition>" choices (issue 18, h18e, h18s) ---------------------

def _condition(session: Session, condition: str) -> bool | None:
    """Whether ``condition`` (an expression of the subset that changes nothing) reads True now; None if unreadable."""
    try:
        statement = parse_one(condition, session.limits)
        check_names([statement], session.names)
    except LanguageError:
        return None
    if not isinstance(statement.node, ast.Expr) or _read_only(statement.node):
        return None
    value, error = _evaluate(session, statement.node.value)
    return value if error is None and isinstance(value, bool) else None


def _conditions(session: Session, ask: Ask) -> tuple[tuple[str, bool | None], ...]:
    """The conditions of the question's ``no error: <condition>`` (and ``no warning: …``) choices, each read after
    the step."""
    found = dict.fromkeys(c for c in (no_error_condition(claim_of(choice)) for choice in ask.choices) if c)
    return tuple((condition, _condition(session, condition)) for condition in found)


def _evaluate(session: Session, node: ast.expr) -> tuple[Any, BaseException | None]:
    interpreter = Interpreter(session.namespace, session.limits, lambda text, cut: None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return interpreter.evaluate(node), None
        except Exception as exc:  # a check that raises is an outcome to compare with
            return None, exc


def _plain(value: torch.Tensor) -> Any:
    info = take_snapshot({"v": value}, graphs=False).tensor("v")
    return None if info is None else info.values


def _joined(reasons: list[Message | None]) -> Message | None:
    """Several reasons as one ("a; b"), each once; None unless every one is given."""
    if not reasons or not all(reasons):
        return None
    unique = [r for r in dict.fromkeys(reasons) if r is not None]
    joined = unique[-1]
    for reason in reversed(unique[:-1]):
        joined = msg("check.reasons", first=reason, rest=joined)
    return joined


def _value_visible(node: ast.expr, value: Any, before: Snapshot, after: Snapshot) -> Message | None:
    """Where the previous snapshot already shows ``value`` (None if nowhere).

    A tuple is shown only when each of its items is.
    """
    if isinstance(node, ast.Tuple) and isinstance(value, tuple) and len(node.elts) == len(value):
        return _joined([_value_visible(n, v, before, after) for n, v in zip(node.elts, value)])
    if isinstance(node, ast.Name):
        path: tuple[str, str] | None = (node.id, "values")
    elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.attr in _FIELDS:
        path = (node.value.id, _FIELDS[node.attr])
    else:
        path = None
    if path is not None:
        old, new = before.tensor(path[0]), after.tensor(path[0])
        if old is not None and new is not None and getattr(old, path[1]) == getattr(new, path[1]):
            if path[1] not in ("values", "grad") or (old.shape == new.shape and old.grad_shape == new.grad_shape):
                return msg("check.shown_field", name=path[0], field=path[1])
    if isinstance(value, torch.Tensor):
        plain, shape = _plain(value), tuple(value.shape)
        for info in before.tensors:
            if plain is not None and info.shape == shape and info.values == plain:
                return msg("check.shown_values", name=info.name)
            if plain is not None and info.grad_shape == shape and info.grad == plain:
                return msg("check.shown_values", name=f"{info.name}.grad")
    return None


def _observe(session: Session, ask: Ask, result: StepResult, before: StepResult | None,
             ) -> tuple[Observed | None, Message | None, Message | None]:
    """(what the check read, where it was visible before, a problem with the check)."""
    check = ask.check
    previous = before.snapshot if before is not None else Snapshot()
    if check in OUTCOME_CHECKS:
        observed = _outcome(result, _conditions(session, ask))
        seen: Message | None = None
        if before is not None and observed.error is not None and before.error is not None and \
                (before.error.type, before.error.message) == observed.error:
            seen = msg("check.same_error")
        elif before is not None and observed.error is None and observed.warnings and \
                tuple((w.category, w.message) for w in before.warnings) == observed.warnings:
            seen = msg("check.same_warnings")
        return observed, seen, None
    if check == "output":
        text = result.output if result.output else (result.value or "")
        observed = Observed("output", (normalize(text),))
        seen = None
        shown_before = normalize(before.output or before.value or "") if before is not None else ""
        if shown_before and shown_before == observed.forms[0]:
            seen = msg("check.same_output")
        node = result_statement(result)
        if not seen and isinstance(node, ast.Call) and getattr(node.func, "id", "") == "print" and node.args:
            reasons: list[Message | None] = []
            for arg in node.args:
                if _read_only(arg):
                    reasons = []
                    break
                value, error = _evaluate(session, arg)
                reasons.append(None if error is not None else _value_visible(arg, value, previous, result.snapshot))
            seen = _joined(reasons)
            # print() binds and changes nothing: an identity or a layout it prints was settled before it.
            settled = (settled_item(arg, (), (), previous, result.snapshot) for arg in node.args)
            seen = seen or next((reason for reason in settled if reason is not None), None)
        return observed, seen, None
    try:
        statement = parse_one(check, session.limits)
        check_names([statement], session.names)
    except LanguageError as exc:
        return None, None, msg("check.unreadable", check=check, reason=exc.message)
    if not isinstance(statement.node, ast.Expr):
        return None, None, msg("check.statement", check=check)
    refusal = _read_only(statement.node)
    if refusal:
        return None, None, msg("check.refused", check=check, reason=refusal)
    value, error = _evaluate(session, statement.node.value)
    if error is not None:
        return Observed("outcome", (), (type(error).__name__, str(error)), own=message_of(error), read=True), None, None
    seen = _value_visible(statement.node.value, value, previous, result.snapshot) or \
        _settled(statement.node.value, result, previous, session)
    return Observed("value", _forms(value)), seen, None


def _settled(node: ast.expr, result: StepResult, previous: Snapshot, session: Session) -> Message | None:
    """Where an item of the check was answered before the step (the map, an earlier step), or None.

    One item is enough: a question half given away is given away (:mod:`settled_answers`).
    """
    try:
        step = parse_one(result.code, session.limits)
    except LanguageError:
        return None
    for item in items(node):
        reason = apart_on_the_map(item, step.defines, previous, result.snapshot) or \
            settled_item(item, step.uses, step.defines, previous, result.snapshot)
        if reason is not None:
            return reason
    return None


def result_statement(result: StepResult) -> ast.expr | None:
    """The expression of an expression step (``print(...)``), or None."""
    try:
        module = ast.parse(result.code)
    except SyntaxError:
        return None
    node = module.body[0] if module.body else None
    return node.value if isinstance(node, ast.Expr) else None


def _check_ask(lesson: Lesson, number: int, ask: Ask, session: Session, result: StepResult,
               before: StepResult | None, add: Callable[..., None]) -> AskReport | None:
    if not ask.check:
        add(FindingKind.NO_CHECK, number)
        return None
    if ask.measured is not None or ask.answer is None:
        # Answered by a measurement when it is asked: its fields were checked when the file was read
        # (`verdicts` says what each choice claims, in every language, one choice per verdict, so exactly
        # one is right whatever is measured); there is nothing to run or compare here.
        return None
    observed, seen, problem = _observe(session, ask, result, before)
    if observed is None:
        add(FindingKind.CHECK, number, detail=problem)
        return AskReport(number, ask.check, "", (), ask.answer, problem=problem)
    truth = tuple(compare(choice, observed) for choice in ask.choices)
    report = AskReport(number, ask.check, observed.shown, truth, ask.answer, seen)
    for index, verdict in enumerate(truth):
        if verdict is None:
            korean = ask.text("choices", "ko")
            said = (written_claim(korean[index]) if isinstance(korean, (list, tuple)) and index < len(korean)
                    and isinstance(korean[index], str) else None)
            add(FindingKind.NOT_COMPARABLE, number, choice=index + 1,
                detail=msg("text.lesson_text", en=written_claim(ask.choices[index]),
                           ko=said if said is not None else written_claim(ask.choices[index])))
    _unreadable_conditions(number, ask, session, add)
    true = [i for i, t in enumerate(truth) if t]
    shown = observed.shown_message
    if not true:
        add(FindingKind.NONE_TRUE, number, detail=shown)
    elif len(true) > 1:
        add(FindingKind.SEVERAL_TRUE, number, choice=", ".join(str(i + 1) for i in true), detail=shown)
    elif true[0] != ask.answer:
        add(FindingKind.WRONG_ANSWER, number, choice=true[0] + 1, answer=ask.answer + 1, detail=shown)
    if seen is not None:
        add(FindingKind.VISIBLE, number, detail=seen)
    _translated_claims(number, ask, add)
    return report


def _unreadable_conditions(number: int, ask: Ask, session: Session, add: Callable[..., None]) -> None:
    """A ``no error: <condition>`` (or ``no warning: …``) the subset cannot read is a finding, even where the step
    raised (or warned).

    After a step that raised, every such choice is false whatever its condition, so an unreadable one (`and`, a
    name not on the list) would pass unnoticed until the step no longer raises (issue 18, h18n).
    """
    for condition in dict.fromkeys(c for c in (no_error_condition(claim_of(choice)) for choice in ask.choices) if c):
        try:
            parse_one(condition, session.limits)
        except LanguageError as exc:
            add(FindingKind.CHECK, number, detail=msg("check.unreadable", check=condition, reason=exc.message))


def _translated_claims(number: int, ask: Ask, add: Callable[..., None]) -> None:
    """A translated choice must make the same claim as the English one."""
    for key, translated in ask.translations.items():
        if key.startswith("choices_"):
            for index, (english, other) in enumerate(zip(ask.choices, translated)):
                if claim_of(english) != claim_of(other):
                    add(FindingKind.TRANSLATION, number, choice=index + 1,
                        detail=msg("check.translated_claim", key=key, claim=written_claim(other)))


def _check_step(lesson: Lesson, number: int, result: StepResult, strict: bool,
                add: Callable[..., None]) -> None:
    step = lesson.steps[number - 1]
    for fact in step.facts:
        problem = check_fact(fact, result.snapshot)
        if problem is not None:
            add(FindingKind.FACT, number, detail=problem)
    for problem in note_claims(step.note, result.snapshot):
        add(FindingKind.NOTE, number, detail=problem)
    if strict and FACT_KEYWORDS.search(step.note) and not step.facts:
        add(FindingKind.NO_FACTS, number)
    # A sentence that states a fact of the vocabulary about a tensor lists it in `facts`, so that it is checked.
    listed = listed_facts(step.facts) | read_in_note(step.note)   # the forms note_claims reads are checked already
    names = {t.name for t in result.snapshot.tensors}
    for sentence, name, kind in stated_facts(step.note, names):
        if (name, kind) not in listed:
            add(FindingKind.UNLISTED_FACT, number, detail=sentence, name=name, fact=msg(f"fact.kind.{kind}"))


def check_lesson(lesson: Lesson, device: str = "cpu", limits: Limits = DEFAULT_LIMITS,
                 strict: bool = False, cancelled: Callable[[], bool] = lambda: False,
                 progress: Callable[[int, int], None] | None = None,
                 given: dict[int, ErrorInfo] | None = None, seconds: float | None = None,
                 limit: float | None = None) -> LessonCheck:
    """Run ``lesson`` from a fresh seeded session and check it (see the module docstring).

    ``strict`` (the test suite) also asks every note that speaks of leaves,
    versions or storage to list its ``facts``. ``given`` and ``seconds`` are
    :func:`~tensorlab.core.session.fresh_run.run_fresh`'s: steps that crashed the worker in an
    earlier try, and the run's time limit; such a step is a ``not_run`` finding.
    """
    findings: list[Finding] = []
    asks: list[AskReport] = []
    results: list[StepResult] = []

    kept = History(history_allowance(limits))

    def add(kind: FindingKind, step: int | None = None, **fields: Any) -> None:
        findings.append(Finding(kind, step, tuple(sorted(fields.items()))))

    def after(session: Session, result: StepResult) -> None:
        # Run right after each step, while the session stands there: the question reads it.
        number = len(results) + 1
        step = lesson.steps[number - 1]
        before = results[-1] if results else None
        results.append(result)
        kept.trim(results)   # the quotes need the errors and warnings only; the values of old steps may go
        if result.error is not None and result.error.type in NOT_RUN:
            checked_again = result.error.own is not None and result.error.own.key == "engine.not_checked"
            add(FindingKind.NOT_CHECKED if checked_again else FindingKind.NOT_RUN, number,
                detail=result.error.own or result.error.message)
            return
        if step.ask is not None:
            report = _check_ask(lesson, number, step.ask, session, result, before, add)
            if report is not None:
                asks.append(report)
        _check_step(lesson, number, result, strict, add)

    with contextlib.suppress(Cancelled):   # a cancelled check reports what it found so far
        run_fresh(lesson.statements, device, limits, cancelled, progress, after, given, seconds, limit)
    # Torch's own words only: a note may not quote, as torch's, what a message repeats of a step.
    messages = [normalize(m if own else own_words(m, kind)) for r in results for kind, m, own in
                ([(r.error.type, r.error.message, r.error.own is not None)] if r.error else [])
                + [(w.category, w.message, False) for w in r.warnings]]
    for number, step in enumerate(lesson.steps, start=1):
        texts = [step.note, *step.translations.values()]
        if step.ask is not None:
            texts += [step.ask.explain, *step.ask.choices]
            for value in step.ask.translations.values():
                texts += list(value) if isinstance(value, tuple) else [value]
        for text in texts:
            for quoted in _QUOTED.findall(text):
                fragment = normalize(quoted).strip(" .…")
                # Quoted English in any language is torch's text (a quote in Korean is not).
                if fragment.isascii() and len(fragment.split()) >= 4 and not any(fragment in m for m in messages):
                    add(FindingKind.QUOTE, number, detail=quoted)
    findings.extend(lesson_text_findings(lesson))   # answer cues, error questions, Korean: no torch needed
    return LessonCheck(tuple(asks), tuple(findings), tuple(results))


def lesson_warnings(lesson: Lesson, language: str = "en", device: str = "cpu", strict: bool = False,
                    cancelled: Callable[[], bool] = lambda: False,
                    progress: Callable[[int, int], None] | None = None) -> list[str]:
    """What :func:`check_lesson` found, one sentence each, in ``language`` (empty: all is well).

    Each sentence is one line: the lesson's texts it quotes (a choice, a fact) may hold line breaks
    and controls, written as escapes, so that a choice cannot print what looks like another finding.
    In this process, unbounded: ``tensorlab check`` runs the ``lesson_checks`` job in the worker instead.
    """
    return [visible(m.render(language)) for m in lesson_findings(lesson, device, strict, cancelled, progress)]


def lesson_findings(lesson: Lesson, device: str = "cpu", strict: bool = False,
                    cancelled: Callable[[], bool] = lambda: False,
                    progress: Callable[[int, int], None] | None = None, limits: Limits = DEFAULT_LIMITS,
                    given: dict[int, ErrorInfo] | None = None, seconds: float | None = None,
                    limit: float | None = None) -> list[Message]:
    """What :func:`check_lesson` found, one catalogue message each (empty: all is well)."""
    found = check_lesson(lesson, device, limits, strict=strict, cancelled=cancelled, progress=progress,
                         given=given, seconds=seconds, limit=limit)
    return [finding_message(f) for f in found.findings]


def lesson_checks_job(session: Any, params: dict[str, Any], cancelled: Callable[[], bool],
                      progress: Callable[[int, int], None]) -> tuple[Message, ...]:
    """The ``lesson_checks`` job: params ``text`` (the lesson's TOML) and ``source``.

    Runs beside the session in the worker, in a session of its own on the session's device and
    limits; the result is the findings as catalogue messages (keys and parameters), which the
    window or ``tensorlab check`` renders in its language. It is a fresh-run job (see
    :data:`tensorlab.core.engine.process_engine.FRESH_RUN_JOBS`): ``given`` and ``seconds`` as
    :func:`~tensorlab.core.session.fresh_run.run_fresh` takes them.
    """
    try:
        lesson = parse_lesson(str(params["text"]), str(params.get("source", "<lesson>")))
    except LessonError as exc:
        # A program opened from a learner's file can hold a line a lesson file refuses up front
        # (`model = model.to(device)`: `to` is not available on a Linear): that is what the checks found,
        # never a worker's internal error (review r21d: a traceback in the window as the file opened).
        return (exc.message,)
    given = {int(k): v for k, v in dict(params.get("given") or {}).items() if isinstance(v, ErrorInfo)}
    seconds, limit = params.get("seconds"), params.get("limit")
    return tuple(lesson_findings(lesson, session.device, cancelled=cancelled, progress=progress,
                                 limits=getattr(session, "limits", DEFAULT_LIMITS), given=given,
                                 seconds=float(seconds) if isinstance(seconds, (int, float)) else None,
                                 limit=float(limit) if isinstance(limit, (int, float)) else None))
