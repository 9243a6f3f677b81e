"""The one catalogue of TensorLab's own texts, and the one function that renders them.

Every message TensorLab writes outside the Qt widgets' labels (refusals, limits,
lesson-file errors, check findings, explanations, export labels, the transcript) is
defined once, under a stable key such as ``subset.undefined_name``, with its English
and its Korean template and named parameters. The texts live by area in the
``text_*`` modules beside this one and are registered here; a :class:`Message` (a
key and its parameters, plain data that crosses from the worker to the window)
renders itself in a language with :func:`render`, which fills the Korean templates
with the particles of :mod:`tensorlab.core.messages.korean_particles`.

A parameter is plain text or a number (inserted as it is: a name, a shape, torch's
own text, which is never translated), another :class:`Message` (rendered in the
same language) or a tuple of them (rendered one after the other, with commas).
TensorLab's own exceptions derive from :class:`MessageError`: they carry their
:class:`Message`, and ``str(exc)`` is its English text. This module imports no
torch and no Qt.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tensorlab.core.messages import (
    text_checks,
    text_diagnose,
    text_explanations,
    text_files,
    text_limits,
    text_output,
    text_refusals,
)
from tensorlab.core.messages.korean_particles import ko

__all__ = ["Entry", "Message", "MessageError", "CATALOGUE", "LANGUAGES", "msg", "render", "verbatim"]

LANGUAGES = ("en", "ko")


@dataclass(frozen=True)
class Entry:
    """One text of the catalogue: its key, English and Korean templates, and whether it is code only.

    A code-only entry (a value shown as code, a name list) may read the same in both
    languages and need not contain Hangul.
    """

    key: str
    en: str
    ko: str
    code_only: bool = False

    def template(self, language: str) -> str:
        """The template in ``language`` (English for a language the catalogue does not have)."""
        return self.ko if language == "ko" else self.en


def _register(*modules: Any) -> dict[str, Entry]:
    entries: dict[str, Entry] = {}
    for module in modules:
        code_only = frozenset(getattr(module, "CODE_ONLY", ()))
        for key, (english, korean) in module.TEXTS.items():
            if key in entries:
                raise ValueError(f"the message key {key!r} is defined twice")
            entries[key] = Entry(key, english, korean, key in code_only)
        unknown = code_only - set(module.TEXTS)
        if unknown:
            raise ValueError(f"code-only keys without a text: {sorted(unknown)}")
    return entries


CATALOGUE: Mapping[str, Entry] = _register(text_refusals, text_limits, text_files, text_checks,
                                            text_explanations, text_output, text_diagnose)

Param = Any  # str | int | float | Message


@dataclass(frozen=True)
class Message:
    """A catalogue key and its parameters: plain data that renders itself in any language."""

    key: str
    params: tuple[tuple[str, Param], ...] = ()

    @property
    def values(self) -> dict[str, Param]:
        """The parameters as a mapping."""
        return dict(self.params)

    def render(self, language: str = "en") -> str:
        """This message in ``language`` ("en", "ko"; English for any other)."""
        return render(self.key, self.values, language)

    def __str__(self) -> str:
        return self.render("en")


def msg(key: str, /, **params: Param) -> Message:
    """The message ``key`` with ``params``; KeyError at once for a key the catalogue does not define."""
    if key not in CATALOGUE:
        raise KeyError(f"no message {key!r} in the catalogue")
    return Message(key, tuple(params.items()))


def verbatim(text: str) -> Message:
    """Text TensorLab passes on as it was written (torch's, Python's, a file's): the same in every language."""
    return msg("text.verbatim", text=text)


def render(key: str, params: Mapping[str, Param] | None = None, language: str = "en") -> str:
    """The text of ``key`` in ``language``, its parameters filled in (messages among them rendered too)."""
    entry = CATALOGUE[key]
    values = {name: _param(value, language) for name, value in (params or {}).items()}
    return ko(entry.template(language), **values)


def _param(value: Param, language: str) -> Param:
    if isinstance(value, Message):
        return value.render(language)
    if isinstance(value, (tuple, list)):  # a list of messages or texts: one after the other, with commas
        return ", ".join(str(_param(item, language)) for item in value)
    return value


class MessageError(Exception):
    """An exception TensorLab raises with a catalogue :class:`Message`: ``str(exc)`` is its English text."""

    def __init__(self, message: Message | str) -> None:
        self.message = message if isinstance(message, Message) else verbatim(message)
        super().__init__(self.message.render("en"))

    def render(self, language: str = "en") -> str:
        """The message in ``language``."""
        return self.message.render(language)


def message_of(exc: BaseException) -> Message:
    """The catalogue message of ``exc`` (its text, verbatim, for an exception TensorLab did not raise)."""
    if isinstance(exc, MessageError):
        return exc.message
    return verbatim(str(exc))


__all__ += ["message_of"]
