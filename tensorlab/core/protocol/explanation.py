"""An explanation of an error or warning, as it crosses from the worker to the window (data only).

An :class:`Explanation` is catalogue keys and parameters, never finished text: the
window and the transcript render it in their language (:meth:`Explanation.localized`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from tensorlab.core.messages.catalogue import CATALOGUE, Message, render
from tensorlab.core.protocol.snapshot import Snapshot

__all__ = ["Explanation", "HistoryEntry"]


@dataclass(frozen=True)
class Explanation:
    """What an error or warning means, and what to do instead, as catalogue keys.

    ``key`` names it in the catalogue: ``<key>.title``, ``<key>.text`` and, where there is
    one, ``<key>.advice``, filled with ``params``; ``more`` are sentences added to the text
    (the step that changed a saved tensor, for example; ``culprit_steps`` and ``culprit_names``
    say the same as data). :attr:`title`, :attr:`text` and
    :attr:`advice` say it in ``language`` (English unless :meth:`localized` chose another).
    """

    key: str
    params: tuple[tuple[str, Any], ...] = ()
    more: tuple[Message, ...] = ()
    language: str = "en"
    # A changed saved tensor: the steps (0-based indices) whose write changed it, and the names over its
    # memory (the storage map marks those steps' writes; both empty when it cannot be told).
    culprit_steps: tuple[int, ...] = ()
    culprit_names: tuple[str, ...] = ()

    def _part(self, part: str) -> str:
        key = f"{self.key}.{part}"
        return render(key, dict(self.params), self.language) if key in CATALOGUE else ""

    def localized(self, language: str) -> Explanation:
        """This explanation said in ``language`` (English for a language the catalogue does not have)."""
        return replace(self, language=language)

    @property
    def title(self) -> str:
        """The title."""
        return self._part("title")

    @property
    def text(self) -> str:
        """The text, with the sentences added to it."""
        return " ".join([self._part("text"), *(m.render(self.language) for m in self.more)])

    @property
    def advice(self) -> str:
        """What to do instead ("" when there is no advice)."""
        return self._part("advice")

    def as_text(self) -> str:
        """Title, text and advice as one paragraph."""
        if self.advice:
            return render("explain.paragraph_advice", {"title": self.title, "text": self.text,
                                                       "advice": self.advice}, self.language)
        return render("explain.paragraph", {"title": self.title, "text": self.text}, self.language)


@dataclass(frozen=True)
class HistoryEntry:
    """One earlier step, as the explanation of a later error may cite it."""

    index: int
    code: str
    snapshot: Snapshot
