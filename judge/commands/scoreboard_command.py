"""`judge scoreboard`: standings from every recorded result."""

from __future__ import annotations

import argparse
from pathlib import Path

from judge.commands.common import EXIT_OK, open_store

NAME = "scoreboard"
HELP = "standings from every recorded result"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, help="results database (default .judge/results.db)")
    parser.add_argument("--mode", choices=("ioi", "icpc"), default="ioi")


def handle(args: argparse.Namespace) -> int:
    from judge.grade_report import render_scoreboard
    from judge.scoreboard import icpc_standings, ioi_standings

    store = open_store(args.db)
    history = store.history()
    store.close()
    standings = icpc_standings if args.mode == "icpc" else ioi_standings
    print(render_scoreboard(*standings(history), args.mode))
    return EXIT_OK
