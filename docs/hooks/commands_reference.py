"""MkDocs hook: the commands reference, written from the `judge` argument parser at build time.

The page ``reference/commands.md`` holds the marker ``<!-- judge:commands -->``; this hook puts
in its place every command with its usage, description and options as ``judge/cli.py`` builds
them (from ``judge/commands/*``), so the reference cannot drift from the command line.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

MARKER = "<!-- judge:commands -->"
CHECKOUT = Path(__file__).resolve().parents[2]  # docs/hooks/ -> the repository holding these docs


def on_page_markdown(markdown: str, page, config, files) -> str:
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, commands_markdown())


def commands_markdown() -> str:
    """Markdown for every `judge` command: a section each, in the order `judge --help` lists them."""
    # The parser of the checkout the docs are built from, whichever judge (if any) is installed.
    if str(CHECKOUT) not in sys.path:
        sys.path.insert(0, str(CHECKOUT))
    from judge.cli import build_parser

    parser = build_parser(only=None)
    subcommands = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    summaries = {choice.dest: choice.help for choice in subcommands._choices_actions}
    return "\n".join(command_section(name, command, summaries.get(name, ""))
                     for name, command in subcommands.choices.items())


def command_section(name: str, command: argparse.ArgumentParser, summary: str) -> str:
    lines = [f"## judge {name} {{#judge-{name}}}", "", command.description or summary, "",
             "```text", usage(command), "```", "",
             "| argument | meaning |", "|---|---|"]
    formatter = command._get_formatter()
    for action in command._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        lines.append(f"| {cell(argument_name(action))} | {cell(meaning(action, formatter))} |")
    return "\n".join(lines) + "\n"


def usage(command: argparse.ArgumentParser) -> str:
    """The usage line, wrapped at 100 columns whatever the terminal that builds the docs."""
    wide = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "100"
    try:
        return command.format_usage().strip()
    finally:
        os.environ.pop("COLUMNS") if wide is None else os.environ.__setitem__("COLUMNS", wide)


def argument_name(action: argparse.Action) -> str:
    if not action.option_strings:
        return f"`{action.metavar or action.dest.upper()}`"
    takes = "" if action.nargs == 0 else " " + (action.metavar or action.dest.upper())
    return ", ".join(f"`{option}{takes}`" for option in action.option_strings)


def meaning(action: argparse.Action, formatter: argparse.HelpFormatter) -> str:
    text = formatter._expand_help(action) if action.help else ""
    if action.choices:
        text = f"one of {', '.join(f'`{choice}`' for choice in action.choices)}" + (f"; {text}" if text else "")
    return text or "(no description)"


def cell(text: str) -> str:
    """Text for a Markdown table cell: one line, its pipes escaped."""
    return " ".join(str(text).split()).replace("|", "\\|")
