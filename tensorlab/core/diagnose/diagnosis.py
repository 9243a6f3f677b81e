"""A diagnosis: what the pasted text's final error (or warning) is, what it means, how to see it again.

:func:`~tensorlab.core.diagnose.explain_paste.diagnose` reads a traceback (:mod:`tensorlab.core.diagnose.paste`),
reads the facts of torch's message through the one parser of torch's message forms
(:mod:`tensorlab.core.diagnose.families`), builds a reproduction from those facts alone
(:mod:`tensorlab.core.diagnose.reproduce`) and names the built-in lessons whose run raises the same
family (:mod:`tensorlab.core.diagnose.lesson_index`). A :class:`Diagnosis` holds what it found; its
:meth:`~Diagnosis.to_json` is the ``tensorlab diagnose --json`` document. Torch-free: the window
runs it in a thread, and only a reproduction is run in the worker.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tensorlab.core.messages.catalogue import Message, msg
from tensorlab.core.protocol.engine_api import Cancelled

__all__ = ["Diagnosis", "DiagnoseCancelled"]


class DiagnoseCancelled(Cancelled):
    """:func:`~tensorlab.core.diagnose.explain_paste.diagnose` stopped because its ``cancelled()`` turned True."""


@dataclass(frozen=True)
class Diagnosis:
    """What :func:`~tensorlab.core.diagnose.explain_paste.diagnose` found in a pasted text.

    ``explained``: the final error (or warning) is one TensorLab explains (exit 0), else nothing is
    guessed (exit 3): no facts read as meaning, no lessons, no reproduction. ``kind``: "error" or
    "warning" (None: no error or warning found at all). ``type``: the exception or warning class as
    written, without its module ("RuntimeError"). ``message``: torch's message unwrapped (lines joined),
    as pasted (escape it where it is shown). ``line``: the learner's own failing line (the last frame
    outside the libraries), or None. ``family``: the form of torch's message (``torch_messages`` kinds).
    ``facts``: tensor_type, dtype, shape, node, output_index, version, expected_version, devices (those
    the message holds). ``lessons``: ids of built-in lessons whose run raises this family.
    ``reproduction``: statements of the code subset that raise it again (None: none), built only from
    parsed integers and known names. ``needs``: the device the pasted error needs ("cuda"), None for
    any. ``runs_here``: the reproduction runs on CPU (False: it needs ``needs``). ``scaled_down``: the
    reproduction's shape or versions are smaller than the message's (the text says so).
    ``title``/``text``/``advice``: the explanation, as catalogue messages.
    """

    explained: bool
    kind: str | None
    type: str | None
    message: str | None
    line: str | None
    family: str | None = None
    facts: Mapping[str, Any] = field(default_factory=dict)
    lessons: tuple[str, ...] = ()
    reproduction: tuple[str, ...] | None = None
    needs: str | None = None
    runs_here: bool = True
    scaled_down: bool = False
    title: Message | None = None
    text: Message | None = None
    advice: Message | None = None

    def program_title(self, language: str = "en") -> str:
        """The name of the program a diagnosis opens as ("Diagnosis: A saved tensor was changed in place")."""
        title = self.title if self.title is not None else msg("diagnose.unexplained.title")
        return msg("diagnose.program_title", title=title).render(language)

    def advice_text(self, language: str = "en") -> str:
        """The advice as a paragraph of its own: its first letter capitalised ("change a `clone()` ..." follows
        "What to do:" in a lesson; standing alone it is "Change a `clone()` ..."). Code (in backticks) and
        scripts without capitals (Korean) stay as they are."""
        text = self.advice.render(language) if self.advice is not None else ""
        return text[:1].upper() + text[1:] if text[:1].isascii() and text[:1].islower() else text

    def to_json(self, language: str = "en", reproduction_raises: str | None = None) -> dict[str, Any]:
        """The ``tensorlab diagnose --json`` document, its explanation in ``language``.

        ``reproduction_raises``: "Type: message" of what running :attr:`reproduction` raised (None: not run).
        """
        explanation = None
        if self.explained and self.title is not None and self.text is not None:
            explanation = {"title": self.title.render(language), "text": self.text.render(language),
                           "advice": self.advice_text(language)}
        return {
            "kind": self.kind,
            "type": self.type,
            "message": self.message,
            "line": self.line,
            "explanation": explanation,
            "facts": dict(self.facts) if self.explained else {},
            "lessons": list(self.lessons),
            "reproduction": list(self.reproduction) if self.reproduction is not None else None,
            "reproduction_raises": reproduction_raises,
            "needs": self.needs,
        }
