"""The `judge` subcommands, one module each.

A command module has ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``handle(args) -> int``
(the exit status). It imports what it needs inside ``handle``, so that building the parser (and
so `judge --help`) stays cheap. A new command is a new module listed in ``COMMANDS``.
"""

from __future__ import annotations

import importlib
from types import ModuleType

COMMANDS = ("run", "stress", "grade", "similarity", "scoreboard", "list", "show", "test", "generate", "export",
            "doctor")


def command_modules() -> list[ModuleType]:
    return [importlib.import_module(f"judge.commands.{name}_command") for name in COMMANDS]
