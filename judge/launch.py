"""The `judge` command's entry point: the command goes to the resident judge when one serves
this installation (``judge/resident/``), else it runs in this process, which then leaves a
resident behind where one is wanted (at a terminal).

This module imports nothing of the judge but the resident's client before it knows which way
the command goes: the client's way costs the interpreter's start and little more.
"""

from __future__ import annotations

import sys

from judge import resident
from judge.resident import client

TYPE_CHECKING = False  # typing's import costs every command more than this module's work
if TYPE_CHECKING:
    from typing import NoReturn

# The commands a resident imports before its first one (the others import theirs when they run):
# the student's and the setter's everyday commands, every built-in language, and what `judge run`
# imports only once it runs (its report's formats, the counterexample search).
PRELOADED_COMMANDS = ("run", "test", "stress", "show", "list", "doctor", "submit", "status")
PRELOADED_MODULES = ("judge.renderers.run.table", "judge.renderers.run.json", "judge.authoring.explain")


def run() -> NoReturn:
    """`judge ARGUMENTS`, ending the process with the command's exit status."""
    status = client.run_in_resident(sys.argv[1:])
    if status is None:
        status = _run_here()
    resident.end_process(status)


def _run_here() -> int:
    from judge import cli

    try:
        status = cli.run()
    except SystemExit as stop:  # argparse's --help and usage errors
        status = resident.exit_status(stop)
    if resident.wanted_after_command() and resident.socket_path(resident.identity()) is not None:
        start_resident()
    return status


def start_resident() -> None:
    """A resident judge for this installation, started in the background (it returns at once if
    one is running already)."""
    import subprocess

    command = [sys.executable, "-c", "from judge.launch import serve_resident; serve_resident()"]
    try:
        subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         cwd="/", start_new_session=True, close_fds=True)
    except OSError:  # no resident: every command then runs in its own process
        pass


def serve_resident() -> None:
    """The resident judge's process (judge/resident/server.py)."""
    from judge import cli
    from judge.resident import server

    server.serve(cli.main, _preload)


def _preload() -> None:
    import importlib

    from judge.commands import command_module
    from judge.languages import BUILTIN

    for name in PRELOADED_COMMANDS:
        command_module(name)
    # The languages' modules, not the languages: a language asked for is shown in every
    # sandbox's view from then on, and the resident's children ask for their own.
    for module in [*dict.fromkeys(module for module, _class in BUILTIN.values()), *PRELOADED_MODULES]:
        importlib.import_module(module)
