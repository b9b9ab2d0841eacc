"""`judge stress PROBLEM SOLUTION`: search for a small input on which a solution fails."""

from __future__ import annotations

import argparse
import json
import sys

from judge.catalog import find_problem
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
from judge.planned_examples import PlannedExamples
from judge.stress import save_counterexample, stress
from judge.visible_text import visible


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("problem", help="problem name (see `judge list`), suite file or package folder (its "
                                        "seeded generators make the inputs)")
    parser.add_argument("solution", help="the solution's source file")
    parser.add_argument("--examples", type=positive_int, default=200, help="inputs to try (default 200)")
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
        planned = PlannedExamples(strategies, args.examples, args.seed)
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
        print(f"\rexample {count}/{args.examples}", end="", file=sys.stderr, flush=True)

    result = stress(problem, solution, examples=args.examples, seed=args.seed, time_limit=args.time_limit,
                    language_name=args.lang, on_example=progress if show_progress else None, jobs=args.jobs,
                    planned=planned)
    if show_progress:
        print("\r" + " " * 30 + "\r", end="", file=sys.stderr)
    saved = save_counterexample(problem, result, args.seed) if args.save and result.found else None
    if args.format == "json":
        print(json.dumps(result.to_json(problem.task), indent=2, ensure_ascii=False))
    else:
        print(render_stress(result, problem.task, saved, args.examples))
    return EXIT_FAILED if result.found else EXIT_OK


def render_stress(result, task, saved: str | None, asked: int) -> str:
    """What the search found, for a terminal: the program's output and messages, and the
    submission's name, with control characters shown as escapes."""
    return visible(_stress_text(result, task, saved, asked))


def _stress_text(result, task, saved: str | None, asked: int) -> str:
    if not result.found:
        found = f"No difference found in {result.examples_run} examples ({result.problem}, {result.submission})"
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
             f"{task.value_label}:", task.show_value(example.input), "",
             "expected:", task.show_answer(example.expected), "", "got:", example.got.rstrip("\n") or "(nothing)", "",
             f"{example.verdict}: {example.message}"]
    if saved:
        lines.append(f"\n{saved}")
    return "\n".join(lines)
