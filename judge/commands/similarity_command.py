"""`judge similarity SUBMISSIONS`: which students' submissions to a problem share their code.

Every pair of submissions to each problem is compared on this machine (copydetect's winnowing
over tokens, so renamed names and moved functions still match); the problem's reference and
example solutions count as boilerplate. Pairs at or above --threshold are shown, highest first.
Each file is lexed and fingerprinted within --cpu-per-file and --memory-per-file; one over them
is not compared, and the report says so.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from judge.classroom.budget_worker import Budget
from judge.classroom.similarity import DEFAULT_BUDGET, DEFAULT_THRESHOLD, compare_class
from judge.commands.common import EXIT_OK, add_problems_option, positive_float
from judge.errors import SuiteError, UsageError
from judge.formats.catalog import catalog
from judge.renderers import format_names, load_format


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("submissions", type=Path, help="a folder of student folders: SUBMISSIONS/<student>/<problem>.<ext>")
    parser.add_argument("--problem", action="append", metavar="P",
                        help="compare submissions to P only (repeatable; default: every problem submitted)")
    parser.add_argument("--threshold", type=_fraction, default=None, metavar="SHARE",
                        help="show pairs sharing at least this much of either program: 0.5, or 50%% (default 50%%)")
    parser.add_argument("--format", choices=format_names("similarity"), default="table")
    add_budget_options(parser)
    parser.add_argument("--out", type=Path, help="write the report here instead of printing it")
    add_problems_option(parser)


def handle(args: argparse.Namespace) -> int:
    if not args.submissions.is_dir():
        raise UsageError(f"{args.submissions} is not a folder; expected SUBMISSIONS/<student>/<problem>.<ext>")
    known = catalog(args.problems)
    sources = known.require_some()
    for name in args.problem or []:
        if name not in sources:
            raise SuiteError(known.unknown(name, sources))
    threshold = DEFAULT_THRESHOLD if args.threshold is None else args.threshold
    report = compare_class(args.submissions, sources, threshold, only=args.problem, budget=budget_of(args))
    text = load_format("similarity", args.format).render(report)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
        print(f"wrote {args.out}", file=sys.stderr)
    else:
        print(text)
    return EXIT_OK


def add_budget_options(parser: argparse.ArgumentParser) -> None:
    """Each file's budget for lexing and fingerprinting (`judge similarity`, `judge grade --similarity`)."""
    parser.add_argument("--cpu-per-file", type=positive_float, default=DEFAULT_BUDGET.cpu_seconds, metavar="SECONDS",
                        help="CPU seconds a file may take to lex and fingerprint; a file over it is not compared "
                             f"(default {DEFAULT_BUDGET.cpu_seconds:g})")
    parser.add_argument("--memory-per-file", type=positive_float, default=DEFAULT_BUDGET.memory_bytes >> 20,
                        metavar="MIB", help="memory a file may take to lex and fingerprint, in MiB "
                                            f"(default {DEFAULT_BUDGET.memory_bytes >> 20})")


def budget_of(args: argparse.Namespace) -> Budget:
    return Budget(args.cpu_per_file, int(args.memory_per_file * (1 << 20)))


def _fraction(text: str) -> float:
    """A share between 0 and 1, written as 0.4 or 40%."""
    try:
        value = float(text[:-1]) / 100 if text.endswith("%") else float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a share: write 0.5 or 50%") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text} is not between 0 and 1 (0% and 100%)")
    return value
