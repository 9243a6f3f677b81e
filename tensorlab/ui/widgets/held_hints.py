"""Which panel hints are held back while a prediction is open, so that the screen does not answer it.

A question is asked *before* its step runs; the panels show the state before it. Some of their texts
are true of that state and still say what the step will do: before ``loss.backward()`` the Autograd
graph says "saved mat2: …, changed in place" (so backward fails with the version error), or "freed by
backward()" (so a second backward fails), and even which tensor a node saved says it ("SinBackward0
saved self: x": a write to its output ``s`` cannot break it; "ReluBackward0 saved result: r"); the
Output panel's note "memory changed behind autograd's back" says backward will use the changed values
without an error; the Values panel's "None: only leaves … keep .grad" says what reading a non-leaf's
``.grad`` gives.

While such a question is open (asked and not answered yet), exactly those texts are held: the panels
leave them out, say nothing false in their place, and show a neutral line that a hint is held until
the question is answered (the graph lists no node's saved tensors then, one line in the root's box says
so). The Code panel holds the lines after the asked step for every question: the next line is often the
asked one's retry under ``torch.no_grad()`` or its fix, which says it raises; one muted line says they come
once the question is answered. The graph and the Values panel hold them for *every* question of that kind,
whether or not the state has something alarming to say, so their held line is no cue either. The Output
panel leaves such a note out entirely while the question is open, its box and heading too: the box comes only
after a write autograd cannot see, so its presence alone would answer (that step's own narration already says
what it wrote).
Once the question is answered (or its step runs, or a step back leaves it) the texts are shown again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tensorlab.core.engine.player import PlayerState

__all__ = ["Held", "HOLD_NOTHING", "held_hints", "runs_backward", "reads_grad", "HELD_NOTE_KEYS"]

# A step that runs backward: `loss.backward()`, `torch.autograd.backward(…)`, `torch.autograd.grad(…)`
# (a loop or a `with` block that contains one counts too: the code is read as text).
_BACKWARD = re.compile(r"\bbackward\s*\(|\bautograd\s*\.\s*grad\s*\(")
# `.grad` read or written (not `.grad_fn`, not `requires_grad`).
_GRAD = re.compile(r"\.grad(?![\w])")

# TensorLab's own notes (StepResult.notes, by explanation key) that say what a later backward() does.
HELD_NOTE_KEYS = frozenset({"explain.hidden_write"})


@dataclass(frozen=True)
class Held:
    """The hints held back now (each False: shown as usual)."""

    saved_states: bool = False     # graph: what each node saved (which tensors, their state and versions)
    grad_reasons: bool = False     # values: why a gradient is None
    backward_notes: bool = False   # output: TensorLab's notes on writes autograd cannot see (HELD_NOTE_KEYS)
    # code: the lines after the asked step. The line after a failing one is often its retry or its fix
    # (`with torch.no_grad(): w -= lr * w.grad` under `w -= lr * w.grad`, `y.backward(g)` under `y.backward()`),
    # so it said the asked step raises (reviews r18ae, r18af, r18ag).
    later_code: bool = False

    def __bool__(self) -> bool:
        return self.saved_states or self.grad_reasons or self.backward_notes or self.later_code


HOLD_NOTHING = Held()


def runs_backward(code: str) -> bool:
    """``code`` runs a backward pass (its result depends on the saved tensors' states)."""
    return _BACKWARD.search(code) is not None


def reads_grad(text: str) -> bool:
    """``text`` (a step's code or a question's check) reads or writes a ``.grad``."""
    return _GRAD.search(text) is not None


def held_hints(state: PlayerState, answered: bool) -> Held:
    """What is held while the question of the next step of ``state`` is open.

    ``answered``: that question was answered already (its choice revealed). Nothing is held when the
    next step has no question, or once it is answered.
    """
    if answered or state.position >= len(state.program):
        return HOLD_NOTHING
    step = state.program[state.position]
    ask = step.ask
    if ask is None:
        return HOLD_NOTHING
    backward = runs_backward(step.code)
    grad = backward or reads_grad(step.code) or reads_grad(ask.check)
    return Held(saved_states=backward, grad_reasons=grad, backward_notes=backward, later_code=True)
