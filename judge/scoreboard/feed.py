"""The live scoreboard's feed: one task watches the results store and, when the standings change,
publishes them to every page at once. Pages wait on the feed and never read the store themselves,
so a thousand open pages cost one read per change, not a thousand per second."""

from __future__ import annotations

import asyncio
import json
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from judge.classroom.assignment import Assignment, assignment_history
from judge.classroom.store import StoreError, read_history
from judge.scoreboard.standings import Scoreboard, scoreboard
from judge.scoreboard.table import scoreboard_headers

# How often the store's files are looked at (a stat each, no read unless they changed).
WATCH_SECONDS = 0.5


def standings_json(board: Scoreboard) -> dict:
    """What the page draws: the columns, rows with their cells (each its state, text and label), and
    since when the board is frozen."""
    icpc = board.mode == "icpc"
    headers = scoreboard_headers(board)
    return {
        "mode": board.mode,
        "problems": board.problems,
        "headers": headers,
        "frozen": board.frozen_at is not None,
        "freeze_at_minutes": board.freeze_at_minutes,
        "frozen_since": board.freeze_banner(),
        "rows": [{"rank": s.rank, "student": s.student,
                  "cells": [_cell_json(board.cell(s, problem), s.student, header)
                            for problem, header in zip(board.problems, headers[2:])],
                  "pending": sum(cell.unknown for cell in s.cells.values()), "total": f"{s.total:g}",
                  "penalty": s.penalty if icpc else None} for s in board.standings],
    }


def _cell_json(cell, student: str, problem: str) -> dict:
    return {"state": cell.state, "text": cell.text(), "label": f"{student}, {problem}: {cell.label()}"}


def store_signature(db: Path) -> tuple:
    """What changes whenever the store is written: the database's and its write-ahead log's
    identity, size and modification time (None for a file that does not exist)."""
    def one(path: Path):
        try:
            status = os.stat(path)
        except OSError:
            return None
        return status.st_ino, status.st_size, status.st_mtime_ns
    return one(db), one(db.with_name(db.name + "-wal"))


class StandingsFeed:
    """The latest standings (as the JSON the page reads) and a way to wait for the next ones."""

    def __init__(self, db: Path, mode: str, freeze_at: float | None, assignment: Assignment | None = None) -> None:
        self.db, self.mode, self.freeze_at, self.assignment = db, mode, freeze_at, assignment
        self.latest: dict = {}
        self.stopped = False
        self._signature: tuple | None = None
        self._next = asyncio.Event()

    def latest_json(self) -> bytes:
        return json.dumps(self.latest).encode("utf-8")

    def next_change(self) -> asyncio.Event:
        """An event set when the standings next change, or when the feed stops."""
        return self._next

    async def refresh(self) -> None:
        """Read the store if its files changed, and publish the standings if they did."""
        signature = store_signature(self.db)
        if signature == self._signature:
            return
        standings = await asyncio.to_thread(self._read)
        # A read that failed is tried again on the next look, in case the failure was passing.
        self._signature = None if "error" in standings else signature
        if _without_time(standings) != _without_time(self.latest):
            self.latest = standings
            self._publish()

    async def watch(self, should_stop: Callable[[], bool]) -> None:
        """Refresh until ``should_stop()``; then stop, which ends every page's stream."""
        while not should_stop():
            await self.refresh()
            await asyncio.sleep(WATCH_SECONDS)
        self.stop()

    def stop(self) -> None:
        self.stopped = True
        self._next.set()

    def _publish(self) -> None:
        self._next.set()
        self._next = asyncio.Event()

    def _read(self) -> dict:
        try:
            history = read_history(self.db, judging=True) if self.db.exists() else []
        except (StoreError, sqlite3.Error) as error:  # said on the page; the server keeps going
            return {"error": str(error)}
        if self.assignment is not None:
            history = assignment_history(history, self.assignment)
        points = self.assignment.points if self.assignment is not None else None
        data = standings_json(scoreboard(history, self.mode, self.freeze_at, points))
        data["waiting"] = "" if self.db.exists() else f"no results database at {self.db} yet"
        data["submissions"] = sum(row["verdict"] is not None for row in history)
        data["judging"] = sum(row["verdict"] is None for row in history)
        data["updated"] = time.strftime("%H:%M:%S")
        return data


def _without_time(standings: dict) -> dict:
    return {key: value for key, value in standings.items() if key != "updated"}
