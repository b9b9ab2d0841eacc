"""`judge generate PKG [--out DIR]`: make a package's test data from its generators.yaml (or take
them from the cache) and say where they are, or write them into DIR."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from judge.commands.common import EXIT_OK, add_problems_option
from judge.formats.catalog import find_problem
from judge.formats.icpc.generated_data import generate_for, write_tree


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("problem", help="package folder (or its name, see `judge list`)")
    parser.add_argument("--out", type=Path, metavar="DIR",
                        help="write the data/ tree into DIR (a new or empty folder)")
    add_problems_option(parser)


def handle(args: argparse.Namespace) -> int:
    # Loaded without running programs: making the data needs no time limit.
    generated = generate_for(find_problem(args.problem, args.problems).load(run_programs=False))
    count = write_tree(generated, args.out) if args.out is not None else 0
    for warning in generated.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    for line in generated.cases:
        print(line)
    if args.out is None:
        print(f"{len(generated.cases)} cases in {generated.folder} (--out DIR writes them elsewhere)")
    else:
        print(f"wrote {count} files ({len(generated.cases)} cases) to {args.out}")
    return EXIT_OK
