"""An explanation of an error or warning, as it crosses from the worker to the window (data only)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from tensorlab.core.protocol.snapshot import Snapshot

__all__ = ["Explanation", "HistoryEntry"]


@dataclass(frozen=True)
class Explanation:
    """What an error or warning means, and what to do instead (English, with translations)."""

    title: str
    text: str
    advice: str = ""
    # language -> (title, text, advice)
    translations: Mapping[str, tuple[str, str, str]] = field(default_factory=dict, compare=False)

    def localized(self, language: str) -> Explanation:
        """This explanation in ``language`` (English where there is no translation)."""
        if language not in self.translations:
            return self
        title, text, advice = self.translations[language]
        return Explanation(title, text, advice)

    def as_text(self) -> str:
        """Title, text and advice as one paragraph."""
        parts = [f"{self.title}: {self.text}"]
        if self.advice:
            parts.append(f"Instead: {self.advice}")
        return " ".join(parts)


@dataclass(frozen=True)
class HistoryEntry:
    """One earlier step, as the explanation of a later error may cite it."""

    index: int
    code: str
    snapshot: Snapshot
