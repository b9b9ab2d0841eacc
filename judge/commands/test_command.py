"""`judge test [PROBLEM ...]`: verify problems: suites, validators, strategies, references and
example solutions. Exit 1 if any check fails; 2 if there is no problem to test."""

from __future__ import annotations

import argparse

from judge.commands.common import EXIT_FAILED, EXIT_OK, add_problems_option

NAME = "test"
HELP = "verify problems: suites, validators, strategies, reference, example solutions"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("names", nargs="*", metavar="PROBLEM", help="problem names or paths (default: all)")
    add_problems_option(parser)


def handle(args: argparse.Namespace) -> int:
    from judge.verification import render_checks, verify_problems

    checks = verify_problems(args.names or None, problems_dir=args.problems)
    print(render_checks(checks))
    return EXIT_OK if all(check.ok for check in checks) else EXIT_FAILED
