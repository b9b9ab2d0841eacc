"""`judge list`: the problems in force, each with its I/O style and limits (a broken one is
listed as broken, with the reason, and the others still are)."""

from __future__ import annotations

import argparse

from tabulate import tabulate

from judge.commands.common import EXIT_FAILED, EXIT_OK, add_problems_option
from judge.errors import SuiteError
from judge.formats.catalog import catalog


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_problems_option(parser)


def handle(args: argparse.Namespace) -> int:
    rows, broken = [], 0
    for source in catalog(args.problems).require_some().values():
        try:
            problem = source.load(run_programs=False)  # listing runs nothing
        except SuiteError as error:
            broken += 1
            rows.append([source.id, f"BROKEN: {error}", "", "", "", ""])
            continue
        rows.append([problem.id, problem.title, problem.task.describe(), source.format.time_limit_text(problem),
                     f"{problem.memory_limit >> 20} MiB", len(problem.cases)])
    print(tabulate(rows, headers=["id", "title", "I/O", "time", "memory", "cases"], disable_numparse=True))
    return EXIT_FAILED if broken else EXIT_OK
