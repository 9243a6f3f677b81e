"""Headless teaching tools of the `tensorlab` command: `measure`, `copies` and `export`.

Each runs its torch work in the isolating worker process (like `tensorlab run`),
so a crash inside torch costs a message, never a traceback. See README for the
JSON each prints.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tensorlab.core.files.safe_text import visible
from tensorlab.core.messages.catalogue import Message, MessageError, message_of, msg, render
from tensorlab.core.messages.option_errors import seconds

__all__ = ["COMMANDS", "add_limit_arguments", "add_parsers", "dispatch", "check_in_worker", "in_worker",
           "say_if_trimmed"]

COMMANDS = ("measure", "copies", "export")


def add_limit_arguments(parser: argparse.ArgumentParser, memory_dest: str, in_process: bool = True,
                        time_limit: float | None = None) -> None:
    """The isolation flags of a command that runs in the worker: budget, time limits, and (``in_process``) the
    debugging flag that runs it in this process instead (`run`, `check`, `export`; not `measure`, `copies`)."""
    parser.add_argument("--memory-limit", dest=memory_dest, metavar="SIZE", default=None,
                        help="memory budget of the session, e.g. 2G or 500M (default: the smaller of 2 GB "
                             "and a quarter of this machine's memory)")
    from tensorlab.core.protocol.limits import RUN_SECONDS, STEP_SECONDS

    time_limit = RUN_SECONDS if time_limit is None else time_limit
    parser.add_argument("--step-time-limit", type=seconds, default=STEP_SECONDS, metavar="SECONDS",
                        help=f"stop a step that runs longer (default {STEP_SECONDS:g})")
    parser.add_argument("--time-limit", type=seconds, default=time_limit, metavar="SECONDS",
                        help=f"steps not reached after this many seconds are not run (default {time_limit:g})")
    if in_process:
        parser.add_argument("--in-process", action="store_true",
                            help="run in this process, without the isolating worker (for debugging)")


def add_parsers(commands: Any) -> None:
    """Add the `measure`, `copies` and `export` sub-commands to ``commands`` (argparse subparsers)."""
    from tensorlab.core.protocol.measure_results import METHODS

    measure = commands.add_parser("measure", help="time the ways to copy a tensor on a device")
    measure.add_argument("--sizes", default=None, metavar="N,N,...",
                         help="elements per tensor, comma-separated (default 10,100,...,10000000)")
    measure.add_argument("--methods", default=None, metavar="M;M;...",
                         help="methods separated by ';' (default all: " + "; ".join(METHODS) + ")")
    measure.add_argument("--requires-grad", choices=["both", "yes", "no"], default="both",
                         help="measure with requires_grad=True, False or both (default both)")
    measure.add_argument("--min-run-time", type=seconds, default=0.2, metavar="SECONDS",
                         help="seconds of timing per measurement (default 0.2)")
    measure.add_argument("--device", dest="tool_device", default="cpu", metavar="DEV", help="cpu, cuda:N or mps")
    measure.add_argument("--json", action="store_true", help="print JSON (English) instead of a table")
    measure.add_argument("--language", dest="tool_language", default="en", choices=["en", "ko"],
                         help="language of the table and of TensorLab's messages")
    add_limit_arguments(measure, "tool_memory_limit", in_process=False, time_limit=600.0)
    copies = commands.add_parser("copies", help="every way to get a second tensor from x, facts read from torch")
    copies.add_argument("--device", dest="tool_device", default="cpu", metavar="DEV", help="cpu, cuda:N or mps")
    copies.add_argument("--json", action="store_true", help="print JSON (English) instead of a table")
    copies.add_argument("--language", dest="tool_language", default="en", choices=["en", "ko"],
                        help="language of the table and of TensorLab's messages")
    add_limit_arguments(copies, "tool_memory_limit", in_process=False, time_limit=600.0)
    export = commands.add_parser("export", help="a lesson as a script, a notebook or one PNG per step")
    export.add_argument("lesson", metavar="FILE_OR_LESSON_ID")
    export.add_argument("--py", metavar="OUT.py", help="write a runnable PyTorch script")
    export.add_argument("--ipynb", metavar="OUT.ipynb", help="write a Jupyter notebook (without outputs)")
    export.add_argument("--png", metavar="DIR", help="write one screenshot per step into DIR")
    export.add_argument("--map-only", action="store_true", help="--png: only the storage map, not the window")
    export.add_argument("--size", dest="png_size", default="1280x720", metavar="WxH", help="--png: window size")
    export.add_argument("--language", dest="export_language", default="en", choices=["en", "ko"],
                        help="language of notes, questions and screenshots")
    export.add_argument("--presentation", dest="png_presentation", action="store_true",
                        help="--png: projector mode (large text)")
    export.add_argument("--device", dest="tool_device", default="cpu", metavar="DEV", help="cpu, cuda:N or mps")
    add_limit_arguments(export, "export_memory_limit")


class LessonEngineError(MessageError):
    """The device, the memory budget or the worker process named on the command line cannot be used."""


def open_lesson_engine(device: str, memory_limit: str | None, step_time_limit: float, in_process: bool) -> Any:
    """The engine a command runs in (`run`, `check`, `export`, `measure`, `copies`): the isolating worker
    under the memory budget (its address space capped) and the step time limit, unless ``in_process``."""
    from tensorlab.core.protocol.device_names import DeviceError, canonical_device
    from tensorlab.core.protocol.engine_api import EngineError
    from tensorlab.core.protocol.limits import DEFAULT_LIMITS, parse_size, session_memory_limit

    try:
        device = canonical_device(device)
        memory = parse_size(memory_limit) if memory_limit else session_memory_limit()
        limits = DEFAULT_LIMITS.with_memory(memory)
        if in_process:
            from tensorlab.core.worker.in_process import LocalEngine

            return LocalEngine(device, limits)
        from tensorlab.core.engine.process_engine import ProcessEngine

        return ProcessEngine(device, limits, memory_limit=memory, time_limit=step_time_limit)
    except (DeviceError, ValueError) as exc:
        raise LessonEngineError(message_of(exc)) from exc
    except EngineError as exc:
        raise LessonEngineError(msg("engine.no_start_reason", detail=exc.message)) from exc


def fail(message: Message, language: str = "en") -> int:
    """Say ``message`` on stderr in ``language``; exit status 2 (invalid or unsafe input)."""
    print(f"tensorlab: {message.render(language)}", file=sys.stderr)
    return 2


_fail = fail


def in_worker(work: Callable[[Any], int], language: str, device: str, memory_limit: str | None,
              step_time_limit: float, time_limit: float | None = None) -> int:
    """Run ``work(engine)`` with a worker-process engine under a command's limits (``time_limit``: everything it
    runs, None: the work bounds itself) and stop the worker after; exit status 2 with a message if it cannot
    start, or if the worker died or ran past a limit during the work (the one way `measure`, `copies` and
    `check` open the worker)."""
    from tensorlab.core.protocol.engine_api import Cancelled, EngineError

    try:
        engine = open_lesson_engine(device, memory_limit, step_time_limit, False)
    except LessonEngineError as exc:
        return _fail(exc.message, language)
    try:
        if time_limit is not None:
            engine.run_within(time_limit)
        return work(engine)
    except Cancelled:
        return _fail(msg("cli.stopped"), language)
    except EngineError as exc:   # the work itself could not be finished
        return _fail(exc.message, language)
    finally:
        engine.close()


def _with_engine(args: argparse.Namespace, work: Callable[[Any], int]) -> int:
    """`measure` and `copies`: ``work(engine)`` :func:`in_worker`, under the tool's options."""
    return in_worker(work, args.tool_language, args.tool_device, args.tool_memory_limit, args.step_time_limit,
                     args.time_limit)


def _progress(done: int, total: int, language: str = "en") -> None:
    if sys.stderr.isatty():
        sys.stderr.write("\r" + render("cli.measuring", {"done": done, "total": total}, language)
                         + ("\n" if done == total else ""))
        sys.stderr.flush()


def measured_answers(lesson: Any, engine: Any, language: str, measure: bool = True) -> None:
    """After a transcript: each measured question's answer, timed now on the engine's device (or said unknown)."""
    from tensorlab.core.protocol.measure_results import QUESTION_JOB, MeasureResult

    for number, step in enumerate(lesson.steps, start=1):
        ask = step.ask
        if ask is None or ask.measured is None:
            continue
        question = ask.measured
        if not measure:
            print(render("cli.measured_skipped", {"step": number, "size": f"{question.size:,}"}, language))
            continue
        result = engine.job(QUESTION_JOB, question.params().to_dict(),
                            progress=lambda done, total: _progress(done, total, language))
        verdict = question.verdict(result) if isinstance(result, MeasureResult) else None
        choice = question.choice(result) if isinstance(result, MeasureResult) else None
        if verdict is None or choice is None:
            print(render("cli.measured_none", {"step": number, "size": f"{question.size:,}"}, language))
            continue
        choices = ask.text("choices", language)
        print(render("cli.measured", {"step": number, "size": f"{question.size:,}", "device": result.machine.device,
                                      "verdict": verdict.render(language), "choice": choice + 1,
                                      "text": choices[choice]}, language))


def _write(args: argparse.Namespace, document: Any, table: Callable[[], str]) -> int:
    """A tool's result on stdout: its JSON with ``--json`` (never NaN), else its table; exit status 0."""
    if args.json:
        json.dump(document, sys.stdout, ensure_ascii=False, allow_nan=False, indent=1)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(table())
    return 0


def _measure(args: argparse.Namespace) -> int:
    from tensorlab.core.protocol.measure_results import MeasureError, MeasureParams
    from tensorlab.core.tools.tables import measure_table

    raw: dict[str, Any] = {"min_run_time": args.min_run_time,
                           "requires_grad": {"both": [True, False], "yes": [True], "no": [False]}[args.requires_grad]}
    try:
        if args.sizes:
            raw["sizes"] = [int(s.replace("_", "")) for s in args.sizes.split(",") if s.strip()]
        if args.methods:
            raw["methods"] = [m.strip() for m in args.methods.split(";") if m.strip()]
        params = MeasureParams.from_dict(raw)
    except ValueError as exc:
        return _fail(exc.message if isinstance(exc, MeasureError) else msg("cli.sizes", detail=str(exc)),
                     args.tool_language)

    def work(engine: Any) -> int:
        result = engine.job("measure", params.to_dict(),
                            progress=lambda done, total: _progress(done, total, args.tool_language))
        return _write(args, result.to_json(), lambda: measure_table(result, args.tool_language))

    return _with_engine(args, work)


def _copies(args: argparse.Namespace) -> int:
    from tensorlab.core.tools.tables import copies_table

    def work(engine: Any) -> int:
        matrix = engine.job("copies", {})
        return _write(args, matrix.to_json(), lambda: copies_table(matrix, args.tool_language))

    return _with_engine(args, work)


def _export(args: argparse.Namespace) -> int:
    from tensorlab.core.lessons.lesson import LessonError
    from tensorlab.core.lessons.source_import import find_program

    language = args.export_language
    try:
        lesson = find_program(args.lesson)   # a .py / .ipynb too: its refused steps are not exported
    except LessonError as exc:
        return _fail(exc.message, language)
    from tensorlab.core.protocol.limits import parse_size

    try:
        # Refused before anything runs or is written: a budget the machine cannot honour, a bad size.
        memory = parse_size(args.export_memory_limit) if args.export_memory_limit else None
        if args.png:
            from tensorlab.ui.window.offscreen import window_size

            window_size(args.png_size)
    except ValueError as exc:
        return _fail(message_of(exc), language)

    if args.py or args.ipynb or not args.png:
        status = _export_code(args, lesson)
        if status:
            return status
    if args.png:
        from tensorlab.ui.window.offscreen import export_slides

        try:
            # The window's worker under the same limits as `run`: the budget, a step's time, the run's time.
            saved = export_slides(lesson, Path(args.png), size=args.png_size, language=language,
                                  presentation=args.png_presentation, map_only=args.map_only,
                                  device=args.tool_device, memory_limit=memory,
                                  step_time_limit=args.step_time_limit, time_limit=args.time_limit)
        except (OSError, ValueError) as exc:
            return _fail(msg("cli.screenshots_failed", detail=message_of(exc)), language)
        print(render("cli.screenshots_saved", {"count": len(saved), "path": args.png}, language), file=sys.stderr)
        if len(saved) < len(lesson.steps):   # cut by the run's time limit: said, and not a whole export
            print(render("cli.slides_cut", {"seconds": args.time_limit, "count": len(saved),
                                            "total": len(lesson.steps)}, language), file=sys.stderr)
            return 1
    return 0


def _export_code(args: argparse.Namespace, lesson: Any) -> int:
    """Write the lesson as a script and/or a notebook; what each step raised comes from running it as `run` does."""
    from tensorlab.core.export.program_files import ExportRefused, export_script, notebook_text
    from tensorlab.core.files.atomic_write import write_text_atomic
    from tensorlab.core.lessons.play_through import iter_lesson

    language = args.export_language
    try:
        engine = open_lesson_engine(args.tool_device, args.export_memory_limit, args.step_time_limit,
                                    args.in_process)
    except LessonEngineError as exc:
        return _fail(exc.message, language)
    from tensorlab.core.protocol.engine_api import EngineError

    try:
        # Step by step in the worker, under the same limits as `run`: a step that crashes torch or
        # runs too long becomes a "not run" comment, the other steps are still exported.
        run = iter_lesson(lesson, engine, time_limit=args.time_limit)
        errors = tuple(result.error for result in run)
        # An opened file's step the subset refused as it ran is a refused step now (written as a comment), and so
        # are the steps that read what it binds.
        lesson = run.lesson
    except EngineError as exc:
        return _fail(exc.message, language)
    finally:
        engine.close()
    say_if_trimmed(engine, language)
    try:
        # Every file is made (and checked) before any is written: a refused export writes nothing.
        made = [(path, write(lesson, errors, language, engine.device))
                for path, write in ((args.py, export_script), (args.ipynb, notebook_text)) if path]
        if not (args.py or args.ipynb or args.png):
            sys.stdout.write(export_script(lesson, errors, language, engine.device))
    except ExportRefused as exc:
        return _fail(exc.message, language)
    try:
        for path, text in made:
            write_text_atomic(path, text)
            print(render("cli.saved", {"path": path}, language), file=sys.stderr)
    except OSError as exc:
        return _fail(msg("cli.export_failed", detail=exc.strerror or str(exc)), language)
    return 0


def check_in_worker(args: argparse.Namespace, lesson: Any) -> int:
    """`tensorlab check`: the ``lesson_checks`` job in the isolating worker, under `run`'s limits.

    A step that crashes torch (a SIGFPE), runs past ``--step-time-limit`` or is past ``--time-limit``
    is a finding (the check goes on with the next step); exit 1 when anything was found.
    """
    from tensorlab.core.lessons.lesson import dump_lesson

    language = args.check_language

    def work(engine: Any) -> int:
        # The job bounds itself by --time-limit (its fresh run gives a step past it as "not run").
        found = engine.job("lesson_checks", {"text": dump_lesson(lesson), "source": lesson.source or lesson.id,
                                             "seconds": args.time_limit})
        for message in found:   # one line each: a choice or fact the lesson wrote with line breaks stays one line
            print(visible(message.render(language) if isinstance(message, Message) else str(message)))
        return 1 if found else 0

    return in_worker(work, language, args.check_device, args.check_memory_limit, args.step_time_limit)


def say_if_trimmed(engine: object, language: str) -> None:
    """On stderr: the engine's kept history was trimmed (what was written is whole; memory stayed bounded)."""
    steps = getattr(engine, "history_trimmed", 0)
    if steps:
        print("tensorlab: " + render("history.trimmed", {"step": steps}, language), file=sys.stderr)


def dispatch(args: argparse.Namespace) -> int:
    """Run the sub-command ``args.command`` (one of :data:`COMMANDS`)."""
    return {"measure": _measure, "copies": _copies, "export": _export}[args.command](args)
