"""From a pasted text to a :class:`~tensorlab.core.diagnose.diagnosis.Diagnosis`: choosing the error, explaining it.

The final error of the paste is diagnosed when it is one of the families TensorLab explains; when it is
not, a warning of such a family printed before it is (a non-leaf's ``.grad`` warning, then the
``TypeError`` its ``None`` raised); otherwise nothing is guessed. A message pasted on its own (no
``Type:`` header) is read as one whole message, and named by its form.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tensorlab.core.diagnose.diagnosis import DiagnoseCancelled, Diagnosis
from tensorlab.core.diagnose.families import WARNING_FAMILIES, Family, inner_message, normal_node, read_family
from tensorlab.core.diagnose.lesson_index import lesson_nodes, lessons_for
from tensorlab.core.diagnose.paste import MAX_MESSAGE, Raised, read_paste
from tensorlab.core.diagnose.reproduce import MAX_BUMPS, MAX_ELEMENTS, Reproduction, reproduce
from tensorlab.core.messages.catalogue import CATALOGUE, Message, msg

__all__ = ["diagnose"]


def diagnose(text: str, *, cancelled: Callable[[], bool] | None = None,
             progress: Callable[[float], None] | None = None) -> Diagnosis:
    """The diagnosis of ``text`` (a pasted traceback, warning or message; see :func:`read_input` for bytes).

    Linear in the length of ``text``. ``cancelled`` is polled while it reads (:class:`DiagnoseCancelled`
    when it turns True); ``progress(fraction)`` is told how far it got (0.0 to 1.0).
    """
    paste = read_paste(text, cancelled, progress, on_cancel=DiagnoseCancelled)
    candidates: list[Raised] = []
    if paste.error is not None:
        candidates.append(paste.error)
        if paste.error.short in WRAPPERS:    # a launcher's report of a failed worker: the worker's own error
            candidates += reversed(paste.earlier)
    candidates += reversed(paste.warnings)
    for raised in candidates:
        read = _family_of(raised)
        if read is not None:
            return _explained(read[0], raised.kind, raised.short, raised.line, read[1])
    if paste.loose:
        loose = " ".join(line.strip() for line in paste.loose if line.strip())[:MAX_MESSAGE]
        family = read_family(loose, "") or read_family("".join(paste.loose)[:MAX_MESSAGE], "")
        if family is not None:
            kind = "warning" if family.name in WARNING_FAMILIES else "error"
            return _explained(family, kind, family.type, None, loose)
    first = candidates[0] if candidates else None
    if first is None:
        return Diagnosis(False, None, None, None, None, title=msg("diagnose.unexplained.title"),
                         text=msg("diagnose.unexplained.text"))
    return Diagnosis(False, first.kind, first.short, _message(first), first.line,
                     title=msg("diagnose.unexplained.title"), text=msg("diagnose.unexplained.found", type=first.short))


def _message(raised: Raised) -> str:
    return raised.message(" ")


# Exceptions that report another one raised in a worker process (torchrun, multiprocessing, DataLoader workers
# re-raise as the worker's own type): when one ends the paste, the worker's error printed before it is the one.
WRAPPERS = frozenset({"ChildFailedError", "ProcessRaisedException", "ProcessExitedException", "BackendCompilerFailed"})
_INNER_LINES = 20   # lines of a wrapper's message (torch.compile, DDP) where the wrapped message may start


def _family_of(raised: Raised) -> tuple[Family, str] | None:
    """The family of ``raised``'s message and the message it was read from: its lines joined by spaces, else
    joined as one (a word wrapped mid-way), else from one of its later lines on (a wrapper's own words first,
    "Failed running call_method ...:", and the torch message it wraps under them)."""
    for start in range(min(len(raised.lines), _INNER_LINES) or 1):
        for joiner in (" ", "", "first line"):
            # A message's lines joined (wrapped), as one (cut mid-word), or its line alone (a log line after it).
            message = raised.lines[start].strip() if joiner == "first line" and raised.lines else \
                raised.message(joiner, start)
            found = read_family(message, raised.short if start == 0 else "")
            if found is not None:
                return found, message
        if start < len(raised.lines):      # torch.compile: "... got ValueError('Cannot view a tensor ...')"
            quoted = inner_message(raised.lines[start])
            if quoted is not None:
                found = read_family(quoted[1], "")
                if found is not None:
                    return found, quoted[1]
    return None


# Families whose node is the form itself (which multi-view function): a lesson showing it with another node is
# said. A saved tensor's node is only where it came from (the lessons show it with several): not said.
_NODE_NAMED_FAMILIES = frozenset({"multi_view_inplace"})


def _explained(family: Family, kind: str, type_name: str, line: str | None, message: str) -> Diagnosis:
    made = reproduce(family)
    facts = dict(family.facts)
    text = _with(msg(f"explain.{family.name}.text"), _fact_sentences(family.name, facts))
    if made is not None:
        text = _with(text, _notes(made, facts))
    shown = lesson_nodes(family.name) if family.name in _NODE_NAMED_FAMILIES else ()
    if "node" in facts and shown and normal_node(str(facts["node"])) not in shown:
        # The lessons raise the same family with another node (Split for a pasted Unbind): said, not hidden.
        text = _with(text, [msg("diagnose.note.lesson_nodes", nodes=", ".join(f"`{node}`" for node in shown),
                                   node=facts["node"])])
    if family.name == "mixed_devices" and "meta" not in facts.get("devices", ()) and lessons_for(family.name):
        # The lessons can only mix the CPU with the meta device, whose check torch words differently: said.
        text = _with(text, [msg("diagnose.note.lesson_meta")])
    advice: Message = msg(f"explain.{family.name}.advice")
    extra = f"diagnose.advice.{family.name}"
    if extra in CATALOGUE:
        advice = _with(advice, [msg(extra)])
    return Diagnosis(
        True, kind, type_name, message, line, family.name, facts, lessons_for(family.name),
        made.statements if made is not None else None,
        made.needs if made is not None else None,
        made.runs_here if made is not None else True,
        made.scaled_down if made is not None else False,
        msg(f"explain.{family.name}.title"), text, advice,
    )


def _with(first: Message, more: list[Message]) -> Message:
    """``first`` followed by the sentences ``more``, one message."""
    for sentence in more:
        first = msg("diagnose.then", first=first, then=sentence)
    return first


def _fact_sentences(name: str, facts: dict[str, Any]) -> list[Message]:
    """The facts of the learner's own message, in sentences."""
    out: list[Message] = []
    if name == "saved_changed":
        if "shape" in facts and "tensor_type" in facts:
            out.append(msg("diagnose.facts.saved_tensor", tensor_type=facts["tensor_type"],
                           shape=", ".join(str(size) for size in facts["shape"])))
        if "node" in facts:
            out.append(msg("diagnose.facts.saved_node", output=facts.get("output_index", 0), node=facts["node"]))
        if "version" in facts and "expected_version" in facts:
            if facts["version"] > facts["expected_version"]:
                out.append(msg("diagnose.facts.saved_versions", version=facts["version"],
                               expected=facts["expected_version"],
                               changes=facts["version"] - facts["expected_version"]))
            else:     # torch never writes this pair (a version only goes up): no sentence "raised it by 0"
                out.append(msg("diagnose.facts.saved_versions_inconsistent", version=facts["version"],
                               expected=facts["expected_version"]))
    elif name == "multi_view_inplace" and "node" in facts:
        out.append(msg("diagnose.facts.multi_view", output=facts.get("output_index", 0), node=facts["node"]))
    elif name == "mixed_devices" and facts.get("devices"):
        out.append(msg("diagnose.facts.devices", devices=", ".join(facts["devices"])))
    return out


def _notes(made: Reproduction, facts: dict[str, Any]) -> list[Message]:
    """What the reproduction could not keep of the message, said plainly."""
    out: list[Message] = []
    if made.scaled_down:
        out.append(msg("diagnose.note.scaled", limit=MAX_ELEMENTS, bumps=MAX_BUMPS))
    if made.analogue is not None and "node" in facts:
        same = normal_node(str(facts["node"])) == made.analogue
        out.append(msg("diagnose.note.other_output" if same else "diagnose.note.analogue",
                       analogue=made.analogue, node=facts["node"]))
    if made.node_dropped and "node" in facts:
        out.append(msg("diagnose.note.node_dropped", node=facts["node"]))
    if made.dtype_used is not None and "dtype" in facts:
        out.append(msg("diagnose.note.dtype_used", used=made.dtype_used, dtype=facts["dtype"]))
    needs = made.needs.upper() if made.needs is not None else None     # CUDA, MPS: as the devices are called
    if needs is not None and made.runs_here:
        out.append(msg("diagnose.note.cpu_analogue", needs=needs))
    elif needs is not None:
        out.append(msg("diagnose.note.needs_device", needs=needs))
    return out
