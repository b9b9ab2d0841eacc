"""Fitting text to the terminal: its width, cutting a line with an ellipsis, tables whose
free-text columns shrink so that no line is wider than the terminal, and colour where the
terminal shows it."""

from __future__ import annotations

import os
import shutil
from typing import TextIO

from judge.text.visible_text import visible

ELLIPSIS = "…"
NARROWEST = 8  # a shrinkable column keeps at least this many characters


LOG_WIDTH = 200  # when the output is no terminal (a CI log, a file): wide, but still bounded


def terminal_width() -> int:
    """The width to fit: $COLUMNS when set, else the terminal's when standard output is one,
    else LOG_WIDTH."""
    return shutil.get_terminal_size((LOG_WIDTH, 24)).columns


def discard_output(stream: TextIO) -> None:
    """What is written to ``stream`` from now on goes nowhere: its reader is gone (`judge run |
    head`), and the rest of the command's output, the interpreter's last flush included, must not
    fail on the closed pipe."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


def cut(text: str, width: int) -> str:
    """``text`` on one line, at most ``width`` characters, ending with an ellipsis if cut; its
    control characters shown as escapes (judge/text/visible_text.py), counted in the width."""
    text = visible(" ".join(text.splitlines()), one_line=True)
    if len(text) <= width:
        return text
    return text[:max(0, width - 1)] + ELLIPSIS if width > 0 else ""


def colour_wanted(stream: TextIO) -> bool:
    """Whether to colour what goes to ``stream``: only a terminal, and not when $NO_COLOR is set
    (no-color.org) or the terminal is "dumb"."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def coloured(text: str, style: str) -> str:
    """``text`` in an ANSI (SGR) ``style`` such as "30;42" (black on green), reset after it;
    as it is when ``style`` or ``text`` is empty."""
    return f"\x1b[{style}m{text}\x1b[0m" if style and text else text


def fitted_table(rows: list[list[str]], headers: list[str], shrinkable: list[int], width: int | None = None,
                 styles: list[list[str]] | None = None) -> str:
    """A tabulate "simple" table no wider than ``width`` (default: the terminal's), made so by
    cutting the cells of the ``shrinkable`` columns (last first); the other columns are never cut,
    so a table of them alone may stay wider. Control characters in cells are shown as escapes.
    ``styles``: an ANSI style per cell (judge.text.terminal.coloured; "" for none), laid over the
    fitted cells, so colour never changes the layout."""
    width = terminal_width() if width is None else width
    rows = [[visible(" ".join(str(cell).splitlines()), one_line=True) for cell in row] for row in rows]
    headers = [visible(header, one_line=True) for header in headers]
    text = _table(rows, headers)
    for index in reversed(shrinkable):
        excess = max(map(len, text.splitlines()), default=0) - width
        if excess <= 0:
            break
        current = max([len(row[index]) for row in rows], default=0)
        room = max(NARROWEST, len(headers[index]), current - excess)
        rows = [[cut(cell, room) if position == index else cell for position, cell in enumerate(row)]
                for row in rows]
        text = _table(rows, headers)
    if styles is not None:
        text = _table([[coloured(cell, style) for cell, style in zip(row, row_styles)]
                       for row, row_styles in zip(rows, styles)], headers)
    return text


def _table(rows: list[list[str]], headers: list[str]) -> str:
    # deferred: tabulate loads importlib.metadata and wcwidth (30-50 ms), which the run table,
    # cut() and a one-case `judge run` never need
    from tabulate import tabulate
    return tabulate(rows, headers=headers, tablefmt="simple", disable_numparse=True)
