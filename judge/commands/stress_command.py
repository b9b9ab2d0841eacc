"""`judge stress PROBLEM SOLUTION`: search for a small input on which a solution fails."""

from __future__ import annotations

import argparse
import json
import sys
import time

from judge.authoring.planned_examples import PlannedExamples
from judge.authoring.stress import SEARCH_EXAMPLES, SEARCH_SECONDS, save_counterexample, stress
from judge.commands.common import (
    EXIT_FAILED,
    EXIT_OK,
    add_cold_option,
    add_jobs_option,
    add_language_option,
    add_problems_option,
    positive_float,
    positive_int,
    readable_source,
)
from judge.errors import UsageError
from judge.formats.catalog import find_problem
from judge.text.output_diff import excerpt, expected_label, first_difference
from judge.text.terminal import terminal_width
from judge.text.visible_text import visible

# A counterexample larger than this (a package's generators may make one of megabytes) is shown
# in part, around where the output first differs; --format json has all of it.
SHOWN_LINES, SHOWN_CHARS = 40, 4000


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("problem", help="problem name (see `judge list`), suite file or package folder (its "
                                        "seeded generators make the inputs)")
    parser.add_argument("solution", help="the solution's source file")
    parser.add_argument("--examples", type=positive_int,
                        help="inputs to try, however long they take (default: as many as --seconds allow)")
    parser.add_argument("--seconds", type=positive_float,
                        help=f"wall seconds to look for a failing input (default {SEARCH_SECONDS:g}, as `judge run`'s "
                             f"search, when --examples is not given); shrinking one found takes more")
    parser.add_argument("--seed", type=int, default=0, help="random seed; the same seed gives the same run")
    parser.add_argument("--time-limit", type=positive_float, help="CPU seconds per run (default: the problem's)")
    parser.add_argument("--save", action="store_true", help="append the counterexample to the suite as a hidden case")
    add_jobs_option(parser, "examples judged")
    parser.add_argument("--format", choices=("table", "json"), default="table")
    add_language_option(parser)
    add_problems_option(parser)
    add_cold_option(parser)


def handle(args: argparse.Namespace) -> int:
    source = find_problem(args.problem, args.problems)
    # The generator process starts before anything else loads: it has Hypothesis to import.
    planned = None
    strategies = source.strategy_path()
    if args.jobs > 1 and strategies is not None and strategies.is_file():
        planned = PlannedExamples(strategies, args.examples or SEARCH_EXAMPLES, args.seed)
    try:
        return _stress_and_report(args, source.load_to_judge(), planned)
    finally:
        if planned:
            planned.close()


def _stress_and_report(args: argparse.Namespace, problem, planned) -> int:
    if args.save and problem.package is not None:
        raise UsageError(f"--save appends the counterexample to a suite's YAML; {problem.id} is a problem package: "
                         f"add the case to its data/ (or generators/generators.yaml) by hand")

    solution = readable_source(args.solution)
    show_progress = args.format == "table" and sys.stderr.isatty()

    def progress(count: int) -> None:
        of = f"/{args.examples}" if args.examples else ""
        print(f"\rexample {count}{of}", end="", file=sys.stderr, flush=True)

    seconds = args.seconds or (None if args.examples else SEARCH_SECONDS)
    deadline = time.monotonic() + seconds if seconds else None
    result = stress(problem, solution, examples=args.examples or SEARCH_EXAMPLES, seed=args.seed,
                    time_limit=args.time_limit, language_name=args.lang,
                    on_example=progress if show_progress else None, jobs=args.jobs, planned=planned,
                    find_deadline=deadline)
    timed_out = deadline is not None and time.monotonic() >= deadline
    if show_progress:
        print("\r" + " " * 30 + "\r", end="", file=sys.stderr)
    saved = save_counterexample(problem, result, args.seed) if args.save and result.found else None
    if args.format == "json":
        print(json.dumps(result.to_json(problem.task), indent=2, ensure_ascii=False))
    else:
        print(render_stress(result, problem, saved, args.examples, seconds if timed_out else None))
    return EXIT_FAILED if result.found else EXIT_OK


def render_stress(result, problem, saved: str | None, asked: int | None, seconds: float | None = None) -> str:
    """What the search found, for a terminal: the program's output and messages, and the
    submission's name, with control characters shown as escapes. ``asked``: the examples asked
    for, if a number was; ``seconds``: the search's time, if it ran out."""
    return visible(_stress_text(result, problem, saved, asked, seconds))


def _stress_text(result, problem, saved: str | None, asked: int | None, seconds: float | None) -> str:
    if not result.found:
        found = f"No difference found in {result.examples_run} examples ({result.problem}, {result.submission})"
        if seconds is not None:
            return f"{found} within {seconds:g} s."
        if asked is None:
            return f"{found}: the strategies gave no other input."
        if result.examples_run >= asked:
            return found + "."
        # Hypothesis may generate an input twice (or run out of new ones); a repeat is not run again.
        return f"{found}: the other {asked - result.examples_run} of the {asked} asked for would repeat inputs already run."
    example = result.counterexample
    if example.input is None:
        return f"{example.verdict} before any example could run:\n{example.message}"
    found = ("smallest failing input found" if result.shrunk else
             "failing input found (made by the package's generators, not shrunk)")
    lines = [f"{example.verdict} after {result.examples_run} examples; {found}:", "",
             *_counterexample_lines(example, problem), "", f"{example.verdict}: {example.message}"]
    if saved:
        lines.append(f"\n{saved}")
    return "\n".join(lines)


def _counterexample_lines(example, problem) -> list[str]:
    """The input, the expected output and the program's: whole when short, else in part (see
    ``_shown``); the first difference pointed at where the expected output is the only right one."""
    task = problem.task
    expected, got = task.show_answer(example.expected), example.got.rstrip("\n")
    pointed = example.verdict == "WA" and problem.one_right_output
    difference = first_difference(expected, got) if pointed else None
    texts = [task.show_value(example.input), expected, got]
    parts = [_shown(text, None if index == 0 else difference) for index, text in enumerate(texts)]
    lines = [f"{task.value_label}:", parts[0], "", f"{expected_label(problem.one_right_output)}:", parts[1], "",
             "got:", parts[2] or "(nothing)"]
    if parts != texts:
        lines.append("(shown in part: `--format json` gives the whole of each)")
    return lines


def _shown(text: str, difference) -> str:
    """``text`` whole when it is short, else the lines around ``difference`` (its first lines
    when there is none), numbered."""
    if len(text) <= SHOWN_CHARS and text.count("\n") < SHOWN_LINES:
        return text
    return "\n".join(excerpt(text, difference, terminal_width(), context=3, head=10))
