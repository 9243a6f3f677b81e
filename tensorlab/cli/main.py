"""The headless commands of `tensorlab`: `run`, `lessons`, `check`, `export`, `measure`, `copies` and `diagnose`.

A composition root: nothing imports it. The `tensorlab` launcher (:mod:`tensorlab.gui.launch`, which
never loads torch) hands a command line with one of :data:`COMMANDS` to ``python -m tensorlab.cli``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from tensorlab import __version__
from tensorlab.core.messages.option_errors import OptionParser

__all__ = ["COMMANDS", "main"]

# Kept equal to the launcher's list (a test compares them): the launcher does not import this module.
COMMANDS = ("run", "lessons", "check", "export", "measure", "copies", "diagnose")


def _parser() -> argparse.ArgumentParser:
    parser = OptionParser(
        prog="tensorlab",
        description="TensorLab's headless commands (`tensorlab` without a command opens the desktop app).",
    )
    parser.add_argument("--version", action="version", version=f"tensorlab {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    from tensorlab.cli.commands import add_limit_arguments, add_parsers

    run = commands.add_parser("run", help="run a lesson start to end and print what happened")
    run.add_argument("lesson", metavar="FILE_OR_LESSON_ID")
    run.add_argument("--json", action="store_true", help="print the contract-3 JSON instead of a transcript")
    run.add_argument("--device", dest="run_device", default="cpu", metavar="DEV", help="cpu, cuda:N or mps")
    add_limit_arguments(run, "run_memory_limit")
    run.add_argument("--language", dest="run_language", default="en", choices=["en", "ko"],
                     help="language of the transcript and of TensorLab's messages (torch's stay as written)")
    run.add_argument("--no-measure", dest="no_measure", action="store_true",
                     help="do not time a lesson's measured questions (their answers are then not known)")
    lessons = commands.add_parser("lessons", help="list the built-in lessons")
    lessons.add_argument("--json", action="store_true", help="print JSON (English) instead of a list")
    lessons.add_argument("--language", dest="lessons_language", default="en", choices=["en", "ko"],
                         help="language of the list's titles and chapters")

    add_parsers(commands)  # measure, copies, export
    from tensorlab.cli.diagnose import add_parser as add_diagnose

    add_diagnose(commands)
    check = commands.add_parser("check", help="check a lesson's questions and notes against torch "
                                              "(exit 1 when something is wrong)")
    check.add_argument("lesson", metavar="FILE_OR_LESSON_ID")
    check.add_argument("--language", dest="check_language", default="en", choices=["en", "ko"])
    check.add_argument("--device", dest="check_device", default="cpu", metavar="DEV", help="cpu, cuda:N or mps")
    add_limit_arguments(check, "check_memory_limit")
    return parser


def _fail(exc: BaseException, language: str = "en") -> int:
    """Say why ``exc`` stopped the command, in ``language`` (TensorLab's own messages; others as they are)."""
    from tensorlab.cli.commands import fail
    from tensorlab.core.messages.catalogue import message_of

    return fail(message_of(exc), language)


def _run(args: argparse.Namespace) -> int:
    from tensorlab.cli.commands import LessonEngineError, open_lesson_engine
    from tensorlab.core.lessons.lesson import LessonError, find_lesson
    from tensorlab.core.lessons.play_through import iter_lesson, write_lesson_json
    from tensorlab.core.lessons.source_import import is_source_file, parse_in_engine, read_source
    from tensorlab.core.lessons.transcript import transcript

    try:
        # A .py / .ipynb file is read here (bounded) and parsed in the worker; its refused steps never run.
        source = read_source(args.lesson) if is_source_file(args.lesson) else None
        lesson = find_lesson(args.lesson) if source is None else None
        engine = open_lesson_engine(args.run_device, args.run_memory_limit, args.step_time_limit, args.in_process)
    except (LessonError, LessonEngineError) as exc:
        return _fail(exc, args.run_language)
    from tensorlab.core.protocol.engine_api import EngineError
    from tensorlab.core.protocol.history import trimmed_result

    if lesson is None:
        assert source is not None
        try:
            lesson = parse_in_engine(*source, engine)
        except (LessonError, EngineError) as exc:
            engine.close()
            return _fail(exc, args.run_language)

    device = engine.device
    try:
        results = iter_lesson(lesson, engine, time_limit=args.time_limit)
        if args.json:
            write_lesson_json(lesson, device, results, sys.stdout)   # each step whole, as it comes (contract 3)
        else:
            # The transcript shows no values but each gradient's (cut) text: a result is kept without values.
            kept = [trimmed_result(result, keep_grad=True) for result in results]
            # The lesson as the run left it: a step of an opened file the subset refused as it ran is a refused one.
            sys.stdout.write(transcript(results.lesson, device, kept, color=sys.stdout.isatty(),
                                        language=args.run_language))
            from tensorlab.cli.commands import measured_answers

            measured_answers(lesson, engine, args.run_language, measure=not args.no_measure)
    except EngineError as exc:  # the worker could not be started again after a crash
        return _fail(exc, args.run_language)
    finally:
        engine.close()
    from tensorlab.cli.commands import say_if_trimmed

    say_if_trimmed(engine, args.run_language)
    return 0



def _lessons(args: argparse.Namespace) -> int:
    from tensorlab.core.files.safe_text import visible
    from tensorlab.core.lessons.lesson import LessonError, builtin_lessons
    from tensorlab.core.messages.catalogue import render

    language = args.lessons_language
    try:
        lessons = builtin_lessons()
    except LessonError as exc:
        return _fail(exc, language)
    if args.json:
        rows = [{"id": l.id, "title": l.title, "steps": len(l.steps), "summary": l.summary, "chapter": l.chapter}
                for l in lessons]
        json.dump(rows, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
        return 0
    width = max(len(l.id) for l in lessons)
    chapter = None
    for lesson in lessons:
        if lesson.chapter and lesson.chapter != chapter:   # the course's chapters, in its order
            chapter = lesson.chapter
            print(("\n" if lessons.index(lesson) else "") + visible(lesson.text("chapter", language)))
        steps = render("cli.lesson_steps", {"count": len(lesson.steps)}, language)
        print(f"  {lesson.id.ljust(width)}  {steps:>8}  {visible(lesson.text('title', language))}")
    return 0


def _check(args: argparse.Namespace) -> int:
    from tensorlab.cli.commands import check_in_worker
    from tensorlab.core.lessons.lesson import LessonError
    from tensorlab.core.lessons.source_import import find_program

    try:
        lesson = find_program(args.lesson)   # a .py / .ipynb too: its supported steps are checked
    except LessonError as exc:
        return _fail(exc, args.check_language)
    from tensorlab.core.checks.text_rules import course_findings_with
    from tensorlab.core.files.safe_text import visible

    # A built-in lesson is also one of the course's questions: the course-wide rule counts it in its place.
    course = [visible(m.render(args.check_language)) for m in course_findings_with(lesson)]
    if not args.in_process:
        status = check_in_worker(args, lesson)
        for line in course:
            print(line)
        return 1 if course else status
    from tensorlab.core.checks.lesson_checks import lesson_warnings

    warnings = lesson_warnings(lesson, args.check_language, args.check_device) + course
    for warning in warnings:
        print(warning)
    return 1 if warnings else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the headless commands; returns the exit status."""
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (`tensorlab run ... | head`): stop quietly, as Unix tools do.
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - so that the exit flush cannot fail again
        except OSError:
            pass
        return 0


def _main(argv: Sequence[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "run":
        return _run(args)
    if args.command == "lessons":
        return _lessons(args)
    if args.command == "diagnose":
        from tensorlab.cli.diagnose import diagnose_command

        return diagnose_command(args)
    if args.command in ("measure", "copies", "export"):
        from tensorlab.cli.commands import dispatch

        return dispatch(args)
    return _check(args)

