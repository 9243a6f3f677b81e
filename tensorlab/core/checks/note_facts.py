"""Facts a lesson's note states about the state after its step, checked against the snapshot.

A step may list them in its ``facts`` key, in a small fixed vocabulary, so that
what the narration says about the panels is checked against what the panels show:

- ``x is a leaf`` / ``x is not a leaf``
- ``x requires grad`` / ``x does not require grad``
- ``x is at version 1`` (``x`` and its version counter as the table shows them)
- ``x shares storage with y`` / ``x does not share storage with y`` (``x`` or
  ``y`` may name a NumPy array over a storage)
- ``x has its own storage`` (no other name views it)
- ``x has grad_fn MulBackward0`` / ``x has no grad_fn``
- ``x.grad is None`` / ``x.grad is [1, 1, 1]``
- ``x holds [1, 2, 3]`` (its values; nested lists for more dimensions)
- ``x is on cpu`` (its device as the table shows it: ``cpu``, ``meta``, ``cuda:0``)

Besides, :func:`note_claims` reads a few sentence forms straight from an
English note ("x is a leaf", "x is not a leaf", "x's version is 1") and checks
them the same way. This module imports no torch: it reads snapshots.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from tensorlab.core.messages.catalogue import Message, MessageError, msg
from tensorlab.core.protocol.snapshot import Snapshot, TensorInfo, to_plain

__all__ = ["check_fact", "note_claims", "FACT_KEYWORDS", "stated_facts", "listed_facts", "read_in_note", "FACT_KINDS"]

# Words that make a note state a checkable fact: a step whose note uses one lists its facts.
FACT_KEYWORDS = re.compile(r"\b(leaf|leaves|version|storage|shares?|shared)\b", re.I)

# A name, or the row of a tensor a name reaches (`net[0].weight`, `sd['weight']`, `parts[1]`), as the tables name it.
_PATH = r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*|\[\d+\]|\['[^'\]]*'\])*"
_NAME = rf"`?(?P<name>{_PATH})`?"
_OTHER = rf"`?(?P<other>{_PATH})`?"


def _tensor(snapshot: Snapshot, name: str) -> TensorInfo:
    info = snapshot.tensor(name)
    if info is None:
        raise _Unknown(msg("fact.not_tensor", name=name))
    return info


def _storage_of(snapshot: Snapshot, name: str) -> str | None:
    info = snapshot.tensor(name)
    if info is not None:
        return info.storage
    other = next((o for o in snapshot.others if o.name == name), None)
    if other is None:
        raise _Unknown(msg("fact.not_bound", name=name))
    if other.storage is None:
        raise _Unknown(msg("fact.no_storage", name=name))
    return other.storage


class _Unknown(MessageError):
    pass


def _values(text: str) -> object:
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError, RecursionError, MemoryError):
        raise _Unknown(msg("fact.not_numbers", text=text)) from None
    return value


def _same_values(read: object, stated: object) -> bool:
    if isinstance(stated, (list, tuple)):
        return (isinstance(read, (list, tuple)) and len(read) == len(stated)
                and all(_same_values(r, s) for r, s in zip(read, stated)))
    if isinstance(stated, bool) or isinstance(read, bool):
        return read == stated
    if isinstance(stated, (int, float)) and isinstance(read, (int, float)):
        return float(read) == float(stated)
    return read == stated


def _leaf(s: Snapshot, m: re.Match[str]) -> bool:
    return _tensor(s, m["name"]).is_leaf is (not m["neg"])


def _requires(s: Snapshot, m: re.Match[str]) -> bool:
    return _tensor(s, m["name"]).requires_grad is (not m["neg"])


def _version(s: Snapshot, m: re.Match[str]) -> bool:
    return _tensor(s, m["name"]).version == int(m["version"])


def _shares(s: Snapshot, m: re.Match[str]) -> bool:
    mine, theirs = _storage_of(s, m["name"]), _storage_of(s, m["other"])
    same = mine is not None and mine == theirs
    return same is (not m["neg"])


def _own(s: Snapshot, m: re.Match[str]) -> bool:
    storage = _storage_of(s, m["name"])
    viewers = [t.name for t in s.tensors if t.storage == storage] + [o.name for o in s.others if o.storage == storage]
    return viewers == [m["name"]]


def _grad_fn(s: Snapshot, m: re.Match[str]) -> bool:
    return _tensor(s, m["name"]).grad_fn == (m["fn"] or None)


def _grad(s: Snapshot, m: re.Match[str]) -> bool:
    info = _tensor(s, m["name"])
    if m["values"] == "None":
        return info.grad is None
    return info.grad is not None and _same_values(to_plain(info.grad), _values(m["values"]))


def _device(s: Snapshot, m: re.Match[str]) -> bool:
    return _tensor(s, m["name"]).device == m["device"]


def _holds(s: Snapshot, m: re.Match[str]) -> bool:
    info = _tensor(s, m["name"])
    if info.values is None:
        raise _Unknown(msg("fact.no_values", name=m["name"]))
    return _same_values(to_plain(info.values), _values(m["values"]))


# (pattern, what it claims: the catalogue's fact.claim.<kind>, fact.claim.not_<kind> when negated, test)
_FACTS: tuple[tuple[re.Pattern[str], str, Callable[[Snapshot, re.Match[str]], bool]], ...] = tuple(
    (re.compile(pattern + r"\.?$"), kind, test) for pattern, kind, test in (
        (rf"^{_NAME} is (?P<neg>not )?a leaf", "leaf", _leaf),
        (rf"^{_NAME} (?:(?P<neg>does not )require|requires) grad", "requires", _requires),
        (rf"^{_NAME} is at version (?P<version>\d+)", "version", _version),
        (rf"^{_NAME} (?:(?P<neg>does not )share|shares) storage with {_OTHER}", "shares", _shares),
        (rf"^{_NAME} has its own storage", "own", _own),
        (rf"^{_NAME} has (?:no grad_fn|grad_fn (?P<fn>\w+))", "grad_fn", _grad_fn),
        (rf"^{_NAME}\.grad is (?P<values>None|\[.*\])", "grad", _grad),
        (rf"^{_NAME} holds (?P<values>\[.*\])", "holds", _holds),
        (rf"^{_NAME} is on (?P<device>[a-z]+(?::\d+)?)", "device", _device),
    )
)


def _said(kind: str, m: re.Match[str]) -> Message:
    """The fact ``m`` states, in the catalogue's words (so that a report says it in its own language)."""
    groups = {k: v for k, v in m.groupdict().items() if v is not None}
    if kind == "grad_fn" and "fn" not in groups:
        kind = "no_grad_fn"
    key = f"fact.claim.{'not_' if groups.pop('neg', '') else ''}{kind}"
    return msg(key, **groups)


def check_fact(fact: str, snapshot: Snapshot) -> Message | None:
    """None when ``fact`` holds in ``snapshot``; otherwise why not (false, or not a known form)."""
    text = fact.strip()
    for pattern, kind, test in _FACTS:
        match = pattern.match(text)
        if match is None:
            continue
        said = _said(kind, match)
        try:
            return None if test(snapshot, match) else msg("fact.false", fact=said)
        except _Unknown as exc:
            return msg("fact.unchecked", fact=said, reason=exc.message)
    return msg("fact.unknown", fact=text)


# Sentence forms read from English notes: (pattern, fact template).
_SENTENCE = r"(?:^|[.;:!?(]\s+|\b(?:and|so|but|because|now|still|here|then)\s+|,\s+)"
_NOTE_FORMS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(_SENTENCE + r"`?([A-Za-z_]\w*)`? is (not|no longer|still)?\s*a leaf\b"),
     lambda m: f"{m.group(1)} is {'not ' if m.group(2) in ('not', 'no longer') else ''}a leaf"),
    (re.compile(_SENTENCE + r"`?([A-Za-z_]\w*)`?'s version(?: counter)? (?:is|goes to|becomes|reads|is now) (\d+)\b"),
     lambda m: f"{m.group(1)} is at version {m.group(2)}"),
)


def note_claims(note: str, snapshot: Snapshot) -> list[Message]:
    """Problems with what ``note`` says in the sentence forms TensorLab reads (empty when all agree).

    Only names bound to tensors in ``snapshot`` are checked; other matches are
    ordinary words ("a clone is not a leaf").
    """
    problems = []
    for pattern, fact in _NOTE_FORMS:
        for match in pattern.finditer(note):
            if snapshot.tensor(match.group(1)) is None:
                continue
            problem = check_fact(fact(match), snapshot)
            if problem is not None:
                problems.append(msg("fact.note_false", fact=problem.values["fact"]))
    return problems


# -- which facts a note states, and which a step lists (issue 18: a stated fact must be listed) ---------------

# The kind of fact each vocabulary form checks (what a note's sentence about a tensor must have a `facts` entry for).
FACT_KINDS = ("leaf", "requires", "storage", "version", "grad_fn", "grad")
_KIND_OF = {"leaf": "leaf", "requires": "requires", "version": "version", "shares": "storage", "own": "storage",
            "grad_fn": "grad_fn", "grad": "grad", "holds": "holds", "device": "device"}
_N = r"`?(?P<name>[A-Za-z_]\w*)`?"
# Sentence forms that state one of the kinds about a named tensor (English notes).
_STATES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(p), kind) for p, kind in (
    (_N + r",? (?:is|stays|becomes|remains|is still|is now|is no longer|is not|was) "
     r"(?:not |still |now )?a (?:new )?leaf\b", "leaf"),
    (_N + r" (?:requires|does not require|no longer requires|still requires|stops requiring) grad\b", "requires"),
    (_N + r" (?:shares|does not share) (?:`?\w+`?'s |the same |its )?(?:storage|memory)\b", "storage"),
    (_N + r" has (?:a storage|memory|a strip) of its own\b", "storage"),
    (_N + r" has its own (?:storage|memory)\b", "storage"),
    (_N + r"'s version(?: counter)? (?:is|goes to|becomes|reads|is now|is still|moves to) \d+", "version"),
    (_N + r" (?:is|stays|is still|goes to) (?:at )?version \d+", "version"),
    (_N + r"'s grad_fn (?:is|becomes|is now) (?:None|\w+Backward\d*|CopySlices)", "grad_fn"),
    (_N + r" has no grad_fn\b", "grad_fn"),
    (_N + r"\.grad (?:is|stays|holds|is still) ", "grad"),
))
_SENTENCES = re.compile(r"(?<=[.;:!?])\s+")


def listed_facts(facts: tuple[str, ...] | list[str]) -> set[tuple[str, str]]:
    """The (tensor, kind) pairs the step's ``facts`` cover (a storage fact covers both of its tensors)."""
    listed: set[tuple[str, str]] = set()
    for fact in facts:
        for pattern, kind, _test in _FACTS:
            match = pattern.match(fact.strip())
            if match is not None:
                listed.add((match["name"], _KIND_OF[kind]))
                if kind == "shares":
                    listed.add((match["other"], "storage"))
                break
    return listed


def read_in_note(note: str) -> set[tuple[str, str]]:
    """The (tensor, kind) pairs :func:`note_claims` checks straight from the note's words (no `facts` needed)."""
    kinds = ("leaf", "version")
    return {(m.group(1), kind) for (pattern, _), kind in zip(_NOTE_FORMS, kinds) for m in pattern.finditer(note)}


def stated_facts(note: str, names: set[str]) -> list[tuple[str, str, str]]:
    """(sentence, tensor, kind) for each fact of :data:`FACT_KINDS` the English ``note`` states about a tensor.

    ``names`` are the tensors bound after the step.

    Only the forms above are read, about a name bound to a tensor; other sentences ("a clone is
    not a leaf", "a leaf that requires grad") state nothing about a tensor.
    """
    found: list[tuple[str, str, str]] = []
    for sentence in _SENTENCES.split(note):
        for pattern, kind in _STATES:
            for match in pattern.finditer(sentence):
                name = match["name"]
                start = match.start("name")
                # "a" and "I" are words too: a one-letter English word counts as a name only in backticks.
                quoted = start > 0 and sentence[start - 1] == "`"
                if name in names and (quoted or name not in ("a", "A", "I")) and \
                        (sentence.strip(), name, kind) not in found:
                    found.append((sentence.strip(), name, kind))
    return found
