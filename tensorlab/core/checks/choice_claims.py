"""How a lesson question's choices are compared with what torch did.

A choice is a *claim*, optionally followed by commentary: the claim is the text
before the first " — " (space, em dash, space), or the whole choice when there
is none; surrounding backticks are dropped. ``"None — backward() has not run"``
claims ``None``; ``"RuntimeError — autograd refuses"`` claims a RuntimeError.
The commentary is what the class reads; only the claim is compared, and a
translated choice must make the same claim as the English one.

What a claim is compared with depends on the question's ``check``
(:mod:`tensorlab.core.checks.lesson_checks` reads it after the asked step):

- outcome (``check = "error"`` or ``"warning"``): the claim is ``no error``,
  ``no warning``, ``no error, no warning`` (in Korean: ``오류 없음``, ``경고 없음``,
  ``오류도 경고도 없음``), or an exception or warning type,
  optionally with a fragment of its message: ``RuntimeError: a leaf Variable``.
  ``no error: <condition>`` (in Korean ``오류 없음: <condition>``) claims that the step raised
  nothing *and* that ``condition``, an expression of the code subset read after the step, is
  ``True`` (``no error: x._version == 1``): so that a question where nothing is raised can offer
  two "no error" choices of which one is right (the condition is evaluated by
  :mod:`tensorlab.core.checks.lesson_checks`, and handed in as :attr:`Observed.conditions`).
  ``no warning: <condition>`` (in Korean ``경고 없음: <condition>``) is the same claim for a
  warning question: the step raised no error *and* issued no warning, and ``condition`` holds.
  A type claim is true when the step raised that type (a warning type: issued
  that warning); a fragment must occur in the message (quotes and a trailing
  ``…`` around it are ignored), in torch's own words: never in a part of it that
  repeats a step's argument (:func:`~tensorlab.core.explain.torch_messages.own_words`).
- output (``check = "output"``): the claim is the text the step printed (or the
  value it echoed), compared after collapsing every run of white space to one
  space.
- value (any other ``check``: an expression of the code subset): the claim is the
  value as Python or torch writes it (``repr``/``str``: ``tensor([2., 2.])``,
  ``None``, ``True``, ``torch.float32``, ``(True, False)``; a ``grad_fn`` by its
  type name, ``MulBackward0``), white space collapsed as for output. A claim that
  is not written as a value (it does not parse as a Python expression) is not
  comparable. Where evaluating the check raised, the outcome rules apply.

This module imports no torch: it compares texts.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from tensorlab.core.explain.torch_messages import own_words
from tensorlab.core.messages.catalogue import Message, msg

__all__ = ["Observed", "claim_of", "has_reason", "no_error_condition", "quiet_condition", "written_claim", "normalize",
           "compare", "OUTCOME_CHECKS"]

OUTCOME_CHECKS = frozenset({"error", "warning"})

_DASH = " — "
_TYPE = re.compile(r"^(?P<type>[A-Z]\w*(?:Error|Exception|Warning|Interrupt))(?:\s*:\s*(?P<fragment>.+))?$", re.S)
_QUOTES = "\"'`“”‘’"


@dataclass(frozen=True)
class Observed:
    """What a check read after the asked step.

    ``kind``: "outcome", "output" or "value". ``forms``: the texts the value is
    written as (normalized). ``error``/``warnings``: (type, message) pairs of
    the step (outcome) or of evaluating the check (value that raised); ``own``:
    the error's catalogue message when TensorLab raised it. ``read``: the outcome of evaluating a
    value check that raised (a choice that claims a value is then false, not incomparable). ``conditions``: for each
    ``no error: <condition>`` claim (its condition, normalized), whether the condition read True
    after the step (None: it could not be read as a bool).
    """

    kind: str
    forms: tuple[str, ...] = ()
    error: tuple[str, str] | None = None
    warnings: tuple[tuple[str, str], ...] = ()
    own: Message | None = None
    conditions: tuple[tuple[str, bool | None], ...] = ()
    read: bool = False   # an outcome of reading a value check that raised: a value claim is then simply false

    @property
    def shown_message(self) -> Message:
        """The observed value in one line, for a report (torch's text and values as they are)."""
        if self.kind == "outcome":
            if self.error is not None:
                return msg("check.error", type=self.error[0], text=self.own or self.error[1])
            if self.warnings:
                return msg("check.warning", type=self.warnings[0][0], text=self.warnings[0][1])
            return msg("check.nothing")
        return msg("check.value", value=self.forms[0] if self.forms else "")

    @property
    def shown(self) -> str:
        """:attr:`shown_message` in English."""
        return self.shown_message.render("en")


def normalize(text: str) -> str:
    """``text`` with every run of white space as one space, trimmed."""
    return " ".join(text.split())


# Outcome claims written in Korean: the same claim as the English words.
_SAME_CLAIM = {"오류 없음": "no error", "경고 없음": "no warning", "오류도 경고도 없음": "no error, no warning"}
# "no error: <condition>" (issue 18, h18e): nothing raised, and the condition holds after the step;
# "no warning: <condition>" (h18s): nothing raised or warned, and the condition holds.
_QUIET_IF = re.compile(r"^(?P<quiet>no error|오류 없음|no warning|경고 없음)\s*:\s*(?P<condition>.+)$", re.S | re.I)
_QUIET_WORDS = {"no error": "no error", "오류 없음": "no error", "no warning": "no warning", "경고 없음": "no warning"}


def quiet_condition(claim: str) -> tuple[str, str] | None:
    """``("no error" | "no warning", condition)`` of a ``no error: <condition>`` or ``no warning: <condition>``
    claim (English or Korean), the condition normalized; None: the claim is neither."""
    match = _QUIET_IF.match(claim.strip())
    if match is None:
        return None
    return _QUIET_WORDS[match["quiet"].lower()], normalize(match["condition"])


def no_error_condition(claim: str) -> str | None:
    """The condition of a ``no error: <condition>`` or ``no warning: <condition>`` claim, normalized (None: the
    claim is neither): what the checks read after the step."""
    quiet = quiet_condition(claim)
    return None if quiet is None else quiet[1]


def claim_of(choice: str) -> str:
    """The claim of a choice: the text before " — " (or all of it), without enclosing backticks.

    Korean outcome claims ("오류 없음", "경고 없음", "오류도 경고도 없음") read as their English words, so
    that a translation's claim compares with the English one.
    """
    claim = written_claim(choice)
    quiet = quiet_condition(claim)
    if quiet is not None:
        return f"{quiet[0]}: {quiet[1]}"
    return _SAME_CLAIM.get(claim, claim)


def has_reason(choice: str) -> bool:
    """Whether ``choice`` gives a reason after its claim (" — ")."""
    return _DASH in choice


def written_claim(choice: str) -> str:
    """The claim of a choice as its author wrote it (for a finding to quote: "경고 없음" stays Korean)."""
    claim = choice.split(_DASH, 1)[0].strip()
    if len(claim) >= 2 and claim[0] == claim[-1] == "`":
        claim = claim[1:-1].strip()
    return claim


def _fragment(text: str | None) -> str:
    if not text:
        return ""
    fragment = text.strip().strip(_QUOTES).strip()
    for ellipsis in ("…", "..."):
        fragment = fragment.removeprefix(ellipsis).removesuffix(ellipsis)
    return normalize(fragment.strip().strip(_QUOTES).strip())


def _compare_outcome(claim: str, observed: Observed) -> bool | None:
    lower = normalize(claim).lower().rstrip(".")
    error, warnings = observed.error, observed.warnings
    quiet = quiet_condition(claim)
    if quiet is not None:
        kind, condition = quiet
        if error is not None or (kind == "no warning" and warnings):
            return False
        return dict(observed.conditions).get(condition)
    if observed.read and error is not None and _TYPE.match(claim.strip()) is None and _is_value_text(claim):
        return False   # the check raised, so no value was read (issue 18, h18e: a value question may raise)
    if lower in ("no error, no warning", "no error and no warning"):
        return error is None and not warnings
    if lower == "no error":
        return error is None
    if lower == "no warning":
        return error is None and not warnings
    match = _TYPE.match(claim.strip())
    if match is None:
        return None
    kind, fragment = match["type"], _fragment(match["fragment"])
    if kind.endswith("Warning"):
        candidates = list(warnings)
        own = False
    else:
        candidates = [error] if error is not None else []
        own = observed.own is not None
    # A fragment is looked for in torch's own words only: never inside the part of a message that
    # repeats what a step passed (`torch.device("<any error text>")` says "Invalid device string: '…'").
    return any(t == kind and fragment in normalize(message if own else own_words(message, t))
               for t, message in candidates)


def _is_value_text(claim: str) -> bool:
    if re.fullmatch(r"<\w+>", claim):
        return True
    try:
        ast.parse(claim, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def compare(choice: str, observed: Observed) -> bool | None:
    """Whether ``choice`` is true of ``observed``; None when its claim cannot be compared with it."""
    claim = claim_of(choice)
    if observed.kind == "outcome":
        return _compare_outcome(claim, observed)
    if observed.kind == "value" and not _is_value_text(claim):
        return None
    text = normalize(claim)
    return any(text == form for form in observed.forms)
