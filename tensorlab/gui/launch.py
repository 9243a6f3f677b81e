"""`tensorlab`: the desktop app, a screenshot of it, or a headless command handed to ``tensorlab.cli``.

A composition root: nothing imports it, and it never loads torch (nor anything that does; an
import-linter contract says so). A command line whose first word is a headless command
(:data:`HEADLESS`) runs ``python -m tensorlab.cli`` in this process's place, so the window's
process never holds the headless side.
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tensorlab import __version__
from tensorlab.core.messages.option_errors import OptionParser

if TYPE_CHECKING:
    from tensorlab.core.messages.catalogue import Message

__all__ = ["HEADLESS", "main"]

# The headless commands of tensorlab.cli.main (a test checks the two lists agree).
HEADLESS = ("run", "lessons", "check", "export", "measure", "copies", "diagnose")


def _parser() -> argparse.ArgumentParser:
    parser = OptionParser(
        prog="tensorlab",
        usage="tensorlab [--lesson ID] [--step N] [--device DEV] [--language {en,ko}] [--presentation] "
              "[--screenshot PNG [--size WxH]] [--memory-limit SIZE]\n       tensorlab COMMAND ... "
              "(" + ", ".join(HEADLESS) + ")",
        description="TensorLab: see how PyTorch tensors are copied, shared and differentiated. "
        "Without a command, opens the desktop app.",
        epilog="commands (headless; `tensorlab COMMAND --help` for each): "
               "run (run a lesson and print what happened), lessons (list the built-in lessons), "
               "check (check a lesson's questions and notes against torch), "
               "export (a lesson as a script, a notebook or one PNG per step), "
               "measure (time the ways to copy a tensor), copies (the copy matrix)",
    )
    parser.add_argument("--version", action="version", version=f"tensorlab {__version__}")
    parser.add_argument("--lesson", help="open this built-in lesson id or lesson file")
    parser.add_argument("--step", type=int, default=None, metavar="N", help="go to this step (0 = before the first)")
    parser.add_argument("--device", default=None, metavar="DEV", help="cpu, cuda:N or mps")
    parser.add_argument("--language", default=None, choices=["en", "ko"], help="language of the window")
    parser.add_argument("--presentation", action="store_true", help="large text, for a projector")
    parser.add_argument("--screenshot", metavar="PNG", help="render the window offscreen to PNG and exit")
    parser.add_argument("--size", default="1280x720", metavar="WxH", help="window size for --screenshot")
    parser.add_argument("--memory-limit", default=None, metavar="SIZE",
                        help="memory budget of the session, e.g. 2G or 500M (default: as set in Preferences, "
                             "else the smaller of 2 GB and a quarter of this machine's memory)")
    return parser


_VALUED = frozenset({"--lesson", "--step", "--device", "--language", "--screenshot", "--size", "--memory-limit"})


def _first_word(argv: Sequence[str]) -> int | None:
    """Where the first word that is neither an option nor an option's value stands in ``argv``."""
    value_next = False
    for index, word in enumerate(argv):
        if value_next:
            value_next = False
        elif word in _VALUED:
            value_next = True
        elif not word.startswith("-"):
            return index
    return None


def _language(words: Sequence[str]) -> str:
    """The language the command line asks for (`--language ko`), for its own messages; English otherwise."""
    for index, word in enumerate(words[:-1]):
        if word == "--language" and words[index + 1] in ("en", "ko"):
            return words[index + 1]
    return "en"


def msg(key: str, **params: object) -> Message:
    """A catalogue message, loaded only when the launcher has something to say (a headless command starts
    without it)."""
    from tensorlab.core.messages import catalogue

    return catalogue.msg(key, **params)


def message_of(exc: BaseException) -> Message:
    """What ``exc`` says, as a catalogue message."""
    from tensorlab.core.messages import catalogue

    return catalogue.message_of(exc)


def _fail(message: Message, language: str = "en") -> int:
    print(f"tensorlab: {message.render(language)}", file=sys.stderr)
    return 2


def _run_headless(argv: Sequence[str]) -> int:
    """Run ``python -m tensorlab.cli ARGV`` in this process's place (POSIX) or as a child (elsewhere)."""
    command = [sys.executable, "-m", "tensorlab.cli", *argv]
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":
        os.execv(sys.executable, command)
    return subprocess.call(command)   # pragma: no cover - Windows


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the `tensorlab` command; returns the exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    first = _first_word(words)
    if first is not None:
        command = words[first]
        if command == "help":
            _parser().print_help()
            return 0
        if command not in HEADLESS:
            return _fail(msg("launch.no_command", command=command,
                             commands=", ".join(f"`{name}`" for name in HEADLESS)), _language(words))
        if first > 0:
            # The window's options mean nothing to a headless command: say so rather than drop them.
            return _fail(msg("launch.window_option", options=" ".join(words[:first]), command=command),
                         _language(words))
        return _run_headless(words)
    args = _parser().parse_args(words)
    if args.step is not None and args.step < 0:
        return _fail(msg("launch.step_negative", step=args.step), _language(words))
    from tensorlab.ui.window import qt_check

    found = [] if os.environ.get("QT_QPA_PLATFORM") == "offscreen" else qt_check.problems()
    if found and args.screenshot:
        os.environ["QT_QPA_PLATFORM"] = "offscreen"   # a screenshot needs no screen
    elif found:
        sys.stderr.write(qt_check.explain(found))
        return 1
    qt_check.no_core_dumps()
    from tensorlab.core.engine.process_engine import prestart, stop_fork_server

    # Torch loads in the fork server while Qt loads and the window builds itself here.
    prestart()
    try:
        return _open(args)
    finally:
        stop_fork_server()   # no process outlives the command


def _open(args: argparse.Namespace) -> int:
    from tensorlab.core.lessons.lesson import LessonError
    from tensorlab.core.lessons.source_import import find_program, is_source_file, read_source
    from tensorlab.core.protocol.device_names import DeviceError, canonical_device
    from tensorlab.core.protocol.limits import parse_size

    device = args.device
    language = args.language or "en"
    try:
        if device is not None:
            device = canonical_device(device)
        if args.lesson is not None and args.lesson != "scratchpad":
            if is_source_file(args.lesson) and not args.screenshot:
                read_source(args.lesson)    # readable; the window parses it in the worker
            else:
                find_program(args.lesson)   # a lesson file, a .py or a notebook, or a lesson's id
        memory_limit = parse_size(args.memory_limit) if args.memory_limit else None
    except (DeviceError, LessonError, ValueError) as exc:
        return _fail(message_of(exc), language)
    if args.screenshot:
        from tensorlab.ui.window.offscreen import screenshot

        try:
            screenshot(args.screenshot, args.lesson, args.step, args.size, device, args.presentation,
                       args.language, memory_limit)
        except ValueError as exc:
            return _fail(message_of(exc), language)
        except OSError as exc:
            return _fail(msg("launch.cannot_write", path=args.screenshot, detail=exc.strerror or str(exc)), language)
        print(msg("cli.saved", path=args.screenshot).render(language))
        return 0
    from tensorlab.ui.window import crash_report
    from tensorlab.ui.window.build import application, build_window

    app = application()
    crash_report.install(crash_report.setup_logging())
    window = build_window(lesson=args.lesson, device=device, language=args.language, wait=False,
                          memory_limit=memory_limit)
    if args.presentation:
        window.set_presentation(True)
    if args.step is not None:
        window.controller.go_to(args.step)
    window.show()
    # What start-up made lives as long as the window: kept out of the collector's full passes, which
    # would otherwise walk it all again (a 20 ms pause in the middle of a step).
    gc.freeze()
    status: int = app.exec()
    return status
