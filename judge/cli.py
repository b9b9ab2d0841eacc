"""The `judge` command: parses arguments and hands them to the subcommand's module
(``judge/commands/``). Heavy modules (Hypothesis, the sandbox, the languages) are imported inside
the commands that need them, so that `judge --help` and `judge list` start fast.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys

from judge.commands import command_modules
from judge.commands.common import EXIT_FAILED, EXIT_USAGE
from judge.docs_links import command_page
from judge.errors import JudgeError
from judge.visible_text import visible


def run() -> int:
    """The `judge` command: ``main`` on the command line's arguments, then a quick exit."""
    status = main()
    # What the judge built stays until the process ends anyway: left out of the collections
    # Python runs while tearing itself down, which took 40 ms of a command of a few seconds.
    gc.freeze()
    return status


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.command_line = list(sys.argv[1:] if argv is None else argv)  # to tell how to run it again
    if not getattr(args, "handler", None):
        parser.print_help()
        return EXIT_USAGE
    if getattr(args, "cold", False):
        from judge.runner import COLD_ENV
        os.environ[COLD_ENV] = "1"
    try:
        with _stop_on_signals():
            return args.handler(args)
    except KeyboardInterrupt as stop:
        print(f"judge: stopped by {stop.args[0] if stop.args else 'SIGINT'}", file=sys.stderr)
        return getattr(stop, "exit_status", 130)
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILED
    except JudgeError as error:  # a person's fault to fix: one line, exit 2; anything else is a bug
        print(f"judge: error: {visible(str(error))}", file=sys.stderr)
        return EXIT_USAGE


def _stop_on_signals():
    """SIGINT, SIGTERM and SIGHUP stop every sandboxed run of this judge at once."""
    import threading
    from contextlib import nullcontext
    if threading.current_thread() is not threading.main_thread():
        return nullcontext()
    from judge.sandbox import stop_on_signals
    return stop_on_signals()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="judge", description="Judge solutions to programming problems "
                                     "against their case suites, safely and quickly.",
                                     epilog=f"docs: {command_page()}")
    parser.add_argument("--version", action="version", version=f"judge {_version()}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    for module in command_modules():
        command = commands.add_parser(module.NAME, help=module.HELP, description=_first_paragraph(module.__doc__),
                                      epilog=f"docs: {command_page(module.NAME)}")
        module.add_arguments(command)
        command.set_defaults(handler=module.handle)
    return parser


def _first_paragraph(text: str) -> str:
    return " ".join(text.strip().split("\n\n")[0].split())


def _version() -> str:
    from judge import __version__
    return __version__


if __name__ == "__main__":
    sys.exit(main())
