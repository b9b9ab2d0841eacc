"""`judge export PROBLEM DIR`: write a built-in problem as an ICPC/Kattis problem package."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from judge.authoring.export import export_problem
from judge.commands.common import EXIT_OK, add_problems_option
from judge.formats.catalog import load_problem


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("problem", help="problem name (see `judge list`) or suite file")
    parser.add_argument("directory", type=Path, help="where to write the package (a new or empty folder)")
    add_problems_option(parser)


def handle(args: argparse.Namespace) -> int:
    notes = export_problem(load_problem(args.problem, args.problems), args.directory)
    for note in notes:
        print(f"note: {note}", file=sys.stderr)
    print(f"wrote {args.directory}")
    return EXIT_OK
