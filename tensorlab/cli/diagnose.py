"""`tensorlab diagnose [FILE | -] [--json] [--language ko]`: a pasted error explained, reproduced, its lessons named.

Exit 0 when the text holds an error (or warning) TensorLab explains, 3 when it holds none, 2 when the
input cannot be read (over 1 MB, NUL bytes, not UTF-8 or UTF-16, a file that cannot be opened). The
reproduction runs in the isolating worker under the usual limits (``--in-process``: in this process).
What was pasted is printed only escaped (control and bidi characters written as escapes), and never
logged.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from tensorlab.core.files.safe_text import BIDI_CONTROLS, visible
from tensorlab.core.messages.catalogue import msg, render

__all__ = ["add_parser", "diagnose_command", "json_text"]

EXPLAINED, NOT_EXPLAINED, UNREADABLE = 0, 3, 2


def add_parser(commands: Any) -> None:
    """Add the `diagnose` sub-command to ``commands`` (argparse subparsers)."""
    from tensorlab.cli.commands import add_limit_arguments

    diagnose = commands.add_parser("diagnose", help="explain a pasted PyTorch error or warning, reproduce it, "
                                                    "and name the lessons that show it (exit 3: not explained)")
    diagnose.add_argument("file", nargs="?", default="-", metavar="FILE",
                          help="a file holding the traceback (default or -: standard input)")
    diagnose.add_argument("--json", action="store_true", help="print JSON instead of text")
    diagnose.add_argument("--language", dest="diagnose_language", default="en", choices=["en", "ko"],
                          help="language of the explanation (torch's message stays as written)")
    diagnose.add_argument("--no-run", dest="no_run", action="store_true",
                          help="do not run the reproduction (reproduction_raises is then null)")
    add_limit_arguments(diagnose, "diagnose_memory_limit", time_limit=60.0)


# Characters JSON leaves as they are that a terminal would obey (bidi overrides, line separators): escaped.
_SHOWN_ESCAPED = {ord(char): f"\\u{ord(char):04x}" for char in (*BIDI_CONTROLS, "\u2028", "\u2029", "\x85")}


def json_text(document: dict[str, Any]) -> str:
    """``document`` as JSON that is safe in a terminal: Korean as it is, bidi and line-separator characters escaped
    (JSON escapes the control characters itself; these can only occur inside its strings)."""
    return json.dumps(document, ensure_ascii=False, indent=2).translate(_SHOWN_ESCAPED)


def _read(path: str) -> bytes:
    from tensorlab.core.diagnose import DiagnoseInputError
    from tensorlab.core.diagnose.input_text import MAX_BYTES
    from tensorlab.core.files.bounded_read import UnreadableFile, read_regular_file

    if path == "-":
        return sys.stdin.buffer.read(MAX_BYTES + 1)      # read_input refuses what is over the limit
    try:
        return read_regular_file(path, MAX_BYTES)        # a regular file only (not a FIFO or a device), bounded
    except UnreadableFile as exc:
        raise DiagnoseInputError(msg("diagnose.input_unreadable", path=visible(path), reason=exc.message)) from None


def _raises(statements: tuple[str, ...], args: argparse.Namespace) -> str | None:
    """What the reproduction raises, run in the worker (None: it could not be run)."""
    from tensorlab.cli.commands import LessonEngineError, open_lesson_engine
    from tensorlab.core.diagnose import run_reproduction
    from tensorlab.core.protocol.engine_api import EngineError

    try:
        engine = open_lesson_engine("cpu", args.diagnose_memory_limit, args.step_time_limit, args.in_process)
    except LessonEngineError:
        return None
    try:
        engine.run_within(args.time_limit) if hasattr(engine, "run_within") else None
        return run_reproduction(statements, engine)
    except (EngineError, Exception):   # noqa: BLE001 - a reproduction that cannot run has no result, not a crash
        return None
    finally:
        engine.close()


def diagnose_command(args: argparse.Namespace) -> int:
    """Run `tensorlab diagnose`; its exit status."""
    from tensorlab.cli.commands import fail
    from tensorlab.core.diagnose import DiagnoseInputError, diagnose, read_input

    language = args.diagnose_language
    try:
        text = read_input(_read(args.file))
    except DiagnoseInputError as exc:
        return fail(exc.message, language)
    found = diagnose(text)
    raises = None
    if found.explained and found.reproduction is not None and found.runs_here and not args.no_run:
        raises = _raises(found.reproduction, args)
    if args.json:
        sys.stdout.write(json_text(found.to_json(language, raises)) + "\n")
    else:
        _print(found, raises, language)
    return EXPLAINED if found.explained else NOT_EXPLAINED


def _print(found: Any, raises: str | None, language: str) -> None:
    """The diagnosis as text, everything pasted escaped."""
    def say(key: str, **params: Any) -> str:
        return render(key, params, language)

    if found.title is not None:
        print(visible(found.title.render(language)))
    if found.type is not None:
        print(f"  {found.type}: {visible(found.message or '')}")
    if found.line:
        print("  " + say("cli.diagnose.line", line=visible(found.line)))
    if found.text is not None:
        print()
        print(visible(found.text.render(language)))
    if not found.explained:
        return
    if found.advice is not None:
        print()
        print(visible(say("cli.diagnose.advice", advice=found.advice_text(language))))
    print()
    lessons = ", ".join(f"`{lesson}`" for lesson in found.lessons) if found.lessons else say("cli.diagnose.no_lessons")
    print(say("cli.diagnose.lessons", lessons=lessons))
    if found.reproduction is not None:
        print(say("cli.diagnose.reproduction"))
        for statement in found.reproduction:
            for line in statement.split("\n"):
                print(f"    {line}")
        if raises is not None:
            print(say("cli.diagnose.raises", raises=visible(raises)))
