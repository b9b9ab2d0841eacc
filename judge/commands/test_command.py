"""`judge test [PROBLEM ...]`: verify problems: suites, validators, strategies, references and
example solutions. Exit 1 if any check fails (with ``--strict``, or could not be made: a validator
the judge cannot run, an example submission it cannot judge); 2 if there is no problem to test, or
one is broken beyond checking (a package's validator that does not build)."""

from __future__ import annotations

import argparse

from judge.authoring.verification import check_line, checks_of, checks_summary, not_made
from judge.commands.common import EXIT_FAILED, EXIT_OK, add_problems_option, positive_float


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("names", nargs="*", metavar="PROBLEM", help="problem names or paths (default: all)")
    parser.add_argument("--time-limit", type=positive_float, metavar="SECONDS",
                        help="CPU seconds per case instead of each problem's own (a package's given, inferred or default)")
    add_problems_option(parser)
    parser.add_argument("--strict", action="store_true",
                        help="fail (exit 1) when a check could not be made: a validator the judge cannot run "
                             "(not checked), an example submission it cannot judge (not judged)")


def handle(args: argparse.Namespace) -> int:
    """Each check is printed when it is made; stopped by a signal, the judge says how far it got."""
    checks = []
    try:
        for check in checks_of(args.names or None, problems_dir=args.problems, time_limit=args.time_limit):
            checks.append(check)
            print(check_line(check), flush=True)
    except KeyboardInterrupt as stop:
        print(f"\nstopped by {stop.args[0] if stop.args else 'SIGINT'} after {checks_summary(checks)}; "
              f"the checks not printed were not made", flush=True)
        raise
    print(f"\n{checks_summary(checks)}")
    failed = not all(check.ok for check in checks) or (args.strict and not_made(checks))
    return EXIT_FAILED if failed else EXIT_OK
