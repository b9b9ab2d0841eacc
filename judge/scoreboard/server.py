"""`judge scoreboard --serve`: the live scoreboard (judge/scoreboard/app.py) served by uvicorn,
made to stand up to whoever can reach the port.

One thread and an event loop serve every connection. A request's headers must arrive within
HEADER_SECONDS of the connection (or of the previous response), and an idle kept-alive connection
closes after KEEP_ALIVE_SECONDS, so held half-sent requests (slowloris) cost a socket for seconds,
never a thread for ever. Past CONNECTION_LIMIT open connections a request is answered 503. SIGTERM
and Ctrl-C stop it within a second or two, whatever is open (uvicorn's own signal handling; open
event streams end at once, and anything still running after GRACE_SECONDS is cancelled)."""

from __future__ import annotations

import logging
import resource
import signal
import socket
import sys
from pathlib import Path

import h11
import uvicorn
from markupsafe import Markup
from uvicorn.protocols.http.h11_impl import H11Protocol

from judge.classroom.assignment import Assignment
from judge.renderers.html_page import asset, csp_hash, environment
from judge.scoreboard.app import ScoreboardApp, url_host
from judge.scoreboard.feed import StandingsFeed
from judge.scoreboard.standings import UNKNOWN_MARK, legend

HEADER_SECONDS = 10
KEEP_ALIVE_SECONDS = 5
CONNECTION_LIMIT = 2000
GRACE_SECONDS = 2
# The most of a request's headers held per connection (h11's own default, said here): larger is 400.
HEADER_BYTES = 16 * 1024


class HeaderDeadlineProtocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline on each request's headers. uvicorn's keep-alive
    timeout starts only once a response is sent, and any byte received cancels it, so without this
    a client sending nothing, or its headers a byte a minute, would hold the connection for ever."""

    _header_deadline = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._start_header_deadline()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._start_header_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_deadline()
        super().connection_lost(exc)

    def _start_header_deadline(self) -> None:
        self._cancel_header_deadline()
        if not self.transport.is_closing():
            self._header_deadline = self.loop.call_later(HEADER_SECONDS, self._drop_if_headers_incomplete)

    def _cancel_header_deadline(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _drop_if_headers_incomplete(self) -> None:
        self._header_deadline = None
        # IDLE: the client has not finished a request's headers (a request being answered is not IDLE).
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


def serve(db: Path, mode: str, host: str, port: int, freeze_at: float | None,
          assignment: Assignment | None = None) -> None:
    """Serve the live scoreboard until Ctrl-C (or SIGTERM); says where on stderr. An address that
    cannot be listened on raises OSError before anything is served. With an ``assignment``, the
    board is its problems at its points, as the printed one is."""
    listener = _listen(host, port)
    allow_open_files(CONNECTION_LIMIT + 100)
    page = _page(mode, freeze_at, assignment).encode("utf-8")
    app = ScoreboardApp(StandingsFeed(db, mode, freeze_at, assignment), page, host,
                        should_stop=lambda: server.should_exit)
    server = uvicorn.Server(uvicorn.Config(
        app, interface="asgi3", http=HeaderDeadlineProtocol, ws="none", lifespan="on",
        limit_concurrency=CONNECTION_LIMIT, timeout_keep_alive=KEEP_ALIVE_SECONDS,
        timeout_graceful_shutdown=GRACE_SECONDS, h11_max_incomplete_event_size=HEADER_BYTES,
        server_header=False, log_config=None, log_level="error", access_log=False))
    _log_errors_only()
    print(f"live scoreboard at http://{url_host(host)}:{listener.getsockname()[1]}/ (Ctrl-C stops it)",
          file=sys.stderr, flush=True)
    if not db.exists():
        print(f"waiting for {db} to be created (by `judge grade --db {db}`)", file=sys.stderr, flush=True)
    run_until_stopped(server, listener)
    print("scoreboard stopped", file=sys.stderr)


def run_until_stopped(server: uvicorn.Server, listener: socket.socket) -> None:
    """Serve on ``listener`` until Ctrl-C or SIGTERM, then close it. uvicorn catches both, shuts
    down, then raises the signal again under the handler it found: this one makes SIGTERM end
    like Ctrl-C does."""
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        server.run(sockets=[listener])
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        listener.close()


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host.strip("[]"), port), family=family, backlog=CONNECTION_LIMIT)


def allow_open_files(count: int) -> None:
    """Raise the soft open-file limit towards ``count``, so that the connection limit, not the file
    limit, is what refuses connections (as far as the hard limit allows)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = count if hard == resource.RLIM_INFINITY else min(count, hard)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def _log_errors_only() -> None:
    """uvicorn's errors on stderr; not its warnings, which any client can cause at will (one line
    per malformed request or refused connection would bury the terminal)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("scoreboard server: %(message)s"))
    for name in ("uvicorn", "uvicorn.error", "uvicorn.asgi"):
        logging.getLogger(name).setLevel(logging.ERROR)
    logging.getLogger("uvicorn").addHandler(handler)


def _page(mode: str, freeze_at: float | None, assignment: Assignment | None) -> str:
    """The page, whose one inline script and one style sheet the CSP allows by their hashes."""
    script, style = asset("scoreboard.js"), asset("report.css") + asset("scoreboard.css")
    return environment().get_template("scoreboard.html.j2").render(
        mode=mode, freeze_at=freeze_at, assignment=assignment, legend=legend(mode), unknown_mark=UNKNOWN_MARK,
        script=Markup(script), script_hash=csp_hash(script), style=Markup(style), style_hash=csp_hash(style))


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt
