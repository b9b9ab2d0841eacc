"""The `judge` subcommands, one module each (``<name>_command.py``).

A command module has ``add_arguments(parser)`` and ``handle(args) -> int`` (the exit status), and
imports what it needs at its top. The judge imports only the module of the command it runs:
`judge --help` lists the commands from ``COMMANDS`` without importing any of them. A new command
is a new module and a line in ``COMMANDS``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from judge.errors import EXIT_FAILED, EXIT_OK, EXIT_USAGE  # noqa: F401 (the commands import them from here)

# Each command, in the order `judge --help` lists them, with its one-line summary.
COMMANDS = {
    "run": "judge one solution on a problem's cases",
    "stress": "search for a small input on which a solution fails",
    "grade": "judge a folder of submissions: SUBMISSIONS/<student>/<problem>.<ext>",
    "similarity": "compare every pair of students' submissions to each problem (nothing leaves the machine)",
    "scoreboard": "standings from every recorded result",
    "list": "list the problems",
    "show": "print a problem's statement and samples",
    "test": "verify problems: suites, validators, strategies, reference, example solutions",
    "generate": "make a problem package's test data from its generators/generators.yaml",
    "export": "write a problem as an ICPC/Kattis problem package",
    "doctor": "check the languages' toolchains and the sandbox, and show the compile cache",
    "resident": "show or stop the resident judge, which keeps the judge loaded between commands",
    "serve": "a course's judge over HTTP: students submit, the hidden cases stay on the server",
    "submit": "send a solution to a course's judge (`judge serve`) and print its rows as they are decided",
    "status": "list your submissions to a course's judge with their verdicts",
    "login": "keep a course judge's address and your token for `judge submit` and `judge status`",
    "roster": "issue or revoke the tokens of a course's judge (`judge serve`)",
}


def command_module(name: str) -> ModuleType:
    """The module of the command ``name`` (one of ``COMMANDS``)."""
    return importlib.import_module(f"judge.commands.{name}_command")
