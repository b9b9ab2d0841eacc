"""`judge show PROBLEM`: a problem's statement, limits and sample cases."""

from __future__ import annotations

import argparse

from judge.commands.common import EXIT_OK, add_problems_option
from judge.formats import format_of
from judge.formats.catalog import find_problem


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("problem", help="problem name (see `judge list`), suite file or package folder")
    parser.add_argument("--html", action="store_true",
                        help="print the statement and samples as an HTML page instead of text")
    add_problems_option(parser)


def handle(args: argparse.Namespace) -> int:
    # Showing runs no program: a package's time limit not inferred yet is said to be unknown.
    problem = find_problem(args.problem, args.problems).load(run_programs=False)
    if args.html:
        from judge.renderers.statement.html import render  # Jinja2: only for --html

        print(render(problem), end="")
    else:
        print(format_of(problem).describe(problem))
    return EXIT_OK
