"""`judge scoreboard`: standings from every recorded result, printed or served as a live page."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from judge.classroom.assignment import Assignment, assignment_history, load_assignment
from judge.classroom.store import DEFAULT_DB, read_history
from judge.commands.common import EXIT_OK
from judge.errors import UsageError
from judge.scoreboard.server import serve
from judge.scoreboard.standings import scoreboard
from judge.scoreboard.table import render_scoreboard
from judge.text.terminal import colour_wanted


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, help="results database (default .judge/results.db)")
    parser.add_argument("--mode", choices=("ioi", "icpc"), default="ioi")
    parser.add_argument("--freeze-at", type=_minutes, metavar="MINUTES",
                        help="show the standings as they were this many minutes after the first submission; "
                             "later submissions are pending")
    parser.add_argument("--assignment", type=Path, metavar="FILE",
                        help="an assignment file: its problems only, each scored out of its points")
    parser.add_argument("--serve", action="store_true", help="serve a live page that follows the store")
    parser.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1)")
    parser.add_argument("--port", type=_port, default=8000, help="port to serve on (default 8000; 0: any free one)")


def handle(args: argparse.Namespace) -> int:
    db = args.db or DEFAULT_DB
    assignment = load_assignment(args.assignment) if args.assignment is not None else None
    if args.serve:
        return _serve(args, db, assignment)

    if not db.exists():
        print(f"no recorded results yet (no results database at {db})")
        return EXIT_OK
    history = read_history(db, judging=True)
    if assignment is not None:
        history = assignment_history(history, assignment)
    # With an assignment, a problem nobody has submitted yet is still a column.
    board = scoreboard(history, args.mode, args.freeze_at, assignment.points if assignment else None)
    print(render_scoreboard(board, colour=colour_wanted(sys.stdout)))
    return EXIT_OK


def _serve(args: argparse.Namespace, db: Path, assignment: Assignment | None) -> int:
    if db.exists() and not db.is_file():
        raise UsageError(f"{db} is not a file; pass the results database with --db")
    try:
        serve(db, args.mode, args.host, args.port, args.freeze_at, assignment)
    except OSError as error:
        raise UsageError(f"cannot serve on {args.host}:{args.port}: {error.strerror or error}; "
                         f"choose another --port or --host") from None
    return EXIT_OK


def _minutes(text: str) -> float:
    """An argparse type: a finite number of minutes, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of minutes") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number of 0 or more, got {text}")
    return value


def _port(text: str) -> int:
    """An argparse type: a TCP port, 0 to 65535 (0: any free one)."""
    if not text.isdigit() or int(text) > 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port (0 to 65535)")
    return int(text)
