"""`judge scoreboard --serve`: a live scoreboard page over HTTP, read from the results store.

The page polls ``/standings.json`` every second and redraws its table, so it follows a running
`judge grade` without reloading. The server only reads: the store is opened read-only for each
request, and any method but GET/HEAD is refused. Standard library only (ThreadingHTTPServer).
"""

from __future__ import annotations

import json
import sqlite3
import sys
import time
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from judge.grade_report import scoreboard_cell
from judge.scoreboard import Scoreboard, scoreboard
from judge.store import StoreError, read_history

POLL_MILLISECONDS = 1000


def standings_json(board: Scoreboard, freeze_at_minutes: float | None) -> dict:
    """What the page draws: problems, rows with their cells, and whether the board is frozen."""
    icpc = board.mode == "icpc"
    return {
        "mode": board.mode,
        "problems": board.problems,
        "frozen": board.frozen_at is not None,
        "freeze_at_minutes": freeze_at_minutes,
        "rows": [{"rank": s.rank, "student": s.student,
                  "cells": [scoreboard_cell(s, problem) for problem in board.problems],
                  "pending": sum(s.pending.values()), "total": f"{s.total:g}",
                  "penalty": s.penalty if icpc else None} for s in board.standings],
    }


class ScoreboardServer(ThreadingHTTPServer):
    daemon_threads = True  # a browser's open connection never holds up Ctrl-C

    def __init__(self, address: tuple[str, int], db: Path, mode: str, freeze_at: float | None) -> None:
        super().__init__(address, ScoreboardHandler)
        self.db, self.mode, self.freeze_at = db, mode, freeze_at
        self.page = _page(mode, freeze_at).encode("utf-8")

    def standings(self) -> dict:
        history = read_history(self.db) if self.db.exists() else []
        data = standings_json(scoreboard(history, self.mode, self.freeze_at), self.freeze_at)
        data["waiting"] = "" if self.db.exists() else f"no results database at {self.db} yet"
        data["submissions"] = len(history)
        data["updated"] = time.strftime("%H:%M:%S")
        return data


class ScoreboardHandler(BaseHTTPRequestHandler):
    server: ScoreboardServer

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        if path in ("/", "/index.html"):
            self._send(HTTPStatus.OK, "text/html; charset=utf-8", self.server.page)
        elif path == "/standings.json":
            try:
                body, status = json.dumps(self.server.standings()).encode("utf-8"), HTTPStatus.OK
            except (StoreError, sqlite3.Error) as error:  # said on the page; the server keeps going
                body, status = json.dumps({"error": str(error)}).encode("utf-8"), HTTPStatus.SERVICE_UNAVAILABLE
            self._send(status, "application/json", body)
        else:
            self._send(HTTPStatus.NOT_FOUND, "text/plain; charset=utf-8", b"not found\n")

    def do_HEAD(self) -> None:
        self.do_GET()

    def _refuse(self) -> None:
        self._send(HTTPStatus.METHOD_NOT_ALLOWED, "text/plain; charset=utf-8", b"read-only\n")

    do_POST = do_PUT = do_DELETE = do_PATCH = _refuse

    def _send(self, status: HTTPStatus, content_type: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args) -> None:
        pass  # one line per poll would bury the terminal


def _page(mode: str, freeze_at: float | None) -> str:
    from judge.html_page import asset, csp_hash, environment

    script = asset("scoreboard.js").replace("POLL_MILLISECONDS", str(POLL_MILLISECONDS))
    return environment().get_template("scoreboard.html.j2").render(
        mode=mode, freeze_at=freeze_at, script=script, script_hash=csp_hash(script), style=asset("report.css"))


def serve(db: Path, mode: str, host: str, port: int, freeze_at: float | None) -> None:
    """Serve the live scoreboard until Ctrl-C (or SIGTERM); says where on stderr."""
    import signal

    server = ScoreboardServer((host, port), db, mode, freeze_at)
    previous = signal.signal(signal.SIGTERM, _interrupt)
    shown_host = f"[{host}]" if ":" in host else host
    print(f"live scoreboard at http://{shown_host}:{server.server_address[1]}/ (Ctrl-C stops it)",
          file=sys.stderr, flush=True)
    if not db.exists():
        print(f"waiting for {db} to be created (by `judge grade --db {db}`)", file=sys.stderr, flush=True)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        print("scoreboard stopped", file=sys.stderr)
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.server_close()


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt
