"""Command-line options refused in the language the command line asks for.

argparse writes its complaints in English ("unrecognized arguments: --bogus"). Both entry points
(the launcher and the headless commands) build their parsers from :class:`OptionParser`, whose
``error`` says in the command line's own ``--language`` that the options were refused, with
argparse's words quoted as they were written (like torch's), the usage line before it, and exit 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from tensorlab.core.messages.catalogue import LANGUAGES, render

__all__ = ["OptionParser", "language_asked", "seconds"]

MAX_SECONDS = 10**6   # about eleven days: a longer limit is no limit, and says so


def language_asked(argv: Sequence[str] | None = None) -> str:
    """The language ``--language`` asks for anywhere in ``argv`` (the process's arguments by default)."""
    words = list(sys.argv[1:] if argv is None else argv)
    for index, word in enumerate(words):
        value = None
        if word == "--language" and index + 1 < len(words):
            value = words[index + 1]
        elif word.startswith("--language="):
            value = word.partition("=")[2]
        if value in LANGUAGES:
            return value
    return "en"


class OptionParser(argparse.ArgumentParser):
    """An ArgumentParser whose refusals are TensorLab's sentence in the asked language."""

    #: the arguments being parsed (set by :meth:`parse_args`), to find ``--language`` in them
    words: Sequence[str] | None = None

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        OptionParser.words = args
        return super().parse_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        language = language_asked(OptionParser.words)
        self.exit(2, f"{self.prog}: {render('cli.bad_options', {'detail': message}, language)}\n")


def seconds(text: str) -> float:
    """A time limit in seconds, for ``type=`` of an option: a finite number over 0, at most :data:`MAX_SECONDS`.

    ``nan`` would mean no limit at all and ``-1`` a limit nothing can meet: both are refused, in the
    command line's language.
    """
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value <= MAX_SECONDS:   # false for nan too
        raise argparse.ArgumentTypeError(render("cli.bad_seconds", {"text": text[:40], "limit": MAX_SECONDS},
                                                language_asked(OptionParser.words)))
    return value
