"""`judge resident`: whether a resident judge serves this installation's commands (a judge
process that stays loaded between commands: see judge/resident/), and `--stop` to end it."""

from __future__ import annotations

import argparse

from judge.commands.common import EXIT_OK
from judge.resident import RESIDENT_ENV, allowed, idle_seconds
from judge.resident.control import resident_pid, stop_resident


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stop", action="store_true", help="end it (the commands it is running finish first)")


def handle(args: argparse.Namespace) -> int:
    if not allowed():
        print(f"no resident judge: ${RESIDENT_ENV}=0, or not on Linux; every command runs in its own process")
        return EXIT_OK
    if args.stop:
        pid = stop_resident()
        print(f"stopped the resident judge (process {pid})" if pid else "no resident judge was running")
        return EXIT_OK
    pid = resident_pid()
    if pid is None:
        print("no resident judge is running; a command at a terminal starts one "
              f"(${RESIDENT_ENV}=1 starts one from scripts too)")
    else:
        print(f"a resident judge is running (process {pid}): it takes this installation's commands, "
              f"and ends after {idle_seconds():g} s without one")
    return EXIT_OK
