"""The `judge` command: parses arguments and hands them to the subcommand's module
(``judge/commands/``). Only the module of the command that runs is imported, with what it
imports: `judge --help` imports none, and `judge run` nothing of grading or the cluster.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import threading
from contextlib import nullcontext

from judge import __version__
from judge.commands import COMMANDS, EXIT_FAILED, EXIT_USAGE, command_module
from judge.errors import JudgeError
from judge.model.vocabulary import COLD_ENV
from judge.text.docs_links import command_page
from judge.text.terminal import discard_output
from judge.text.visible_text import visible


def run() -> int:
    """The `judge` command: ``main`` on the command line's arguments, then a quick exit."""
    status = main()
    # What the judge built stays until the process ends anyway: left out of the collections
    # Python runs while tearing itself down, which took 40 ms of a command of a few seconds.
    gc.freeze()
    return status


def main(argv: list[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else argv
    first = arguments[0] if arguments else ""
    parser = build_parser(only=first if first in COMMANDS else "")
    args = parser.parse_args(arguments)
    args.command_line = list(arguments)  # to tell how to run it again
    if not getattr(args, "handler", None):
        parser.print_help()
        return EXIT_USAGE
    if getattr(args, "cold", False):
        os.environ[COLD_ENV] = "1"
    try:
        with _stop_on_signals():
            return args.handler(args)
    except KeyboardInterrupt as stop:
        print(f"judge: stopped by {stop.args[0] if stop.args else 'SIGINT'}", file=sys.stderr)
        return getattr(stop, "exit_status", 130)
    except BrokenPipeError:
        discard_output(sys.stdout)
        return EXIT_FAILED
    except JudgeError as error:  # a person's fault to fix: one line, exit 2; anything else is a bug
        print(f"judge: error: {visible(str(error))}", file=sys.stderr)
        return EXIT_USAGE


def _stop_on_signals():
    """SIGINT, SIGTERM and SIGHUP stop every sandboxed run of this judge at once."""
    if threading.current_thread() is not threading.main_thread():
        return nullcontext()
    # The sandbox only once a command runs (and has imported it already): `judge --help` and a
    # mistyped command line import none of it.
    from judge.sandbox import stop_on_signals

    return stop_on_signals()


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The `judge` parser. ``only``: the one command whose arguments are wanted, the others only
    listed with their summaries, their modules not imported ("": none, for `judge --help`);
    None: every command in full (for the commands reference)."""
    parser = argparse.ArgumentParser(prog="judge", description="Judge solutions to programming problems "
                                     "against their case suites, safely and quickly.",
                                     epilog=f"docs: {command_page()}")
    parser.add_argument("--version", action="version", version=f"judge {__version__}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    for name, summary in COMMANDS.items():
        if only is not None and name != only:
            commands.add_parser(name, help=summary)
            continue
        module = command_module(name)
        command = commands.add_parser(name, help=summary, description=_first_paragraph(module.__doc__),
                                      epilog=f"docs: {command_page(name)}")
        module.add_arguments(command)
        command.set_defaults(handler=module.handle)
    return parser


def _first_paragraph(text: str) -> str:
    return " ".join(text.strip().split("\n\n")[0].split())


if __name__ == "__main__":
    sys.exit(main())
