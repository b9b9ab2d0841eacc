"""`judge serve`'s server: the course's Starlette app on uvicorn, with the live scoreboard's
defences (a deadline on each request's headers, a connection limit, short keep-alive, the
open-file limit the connection limit needs) and one on each request's body, TLS when given a
certificate, and the judging threads started before the first request."""

from __future__ import annotations

import logging
import socket
import sys
from pathlib import Path

import h11
import uvicorn

from judge.course_server.app import build_app
from judge.course_server.course import Course
from judge.errors import UsageError
from judge.scoreboard.app import url_host
from judge.scoreboard.server import (
    CONNECTION_LIMIT,
    GRACE_SECONDS,
    HEADER_BYTES,
    KEEP_ALIVE_SECONDS,
    HeaderDeadlineProtocol,
    allow_open_files,
    run_until_stopped,
)

# A request arrives whole (headers and body) within this many seconds of the connection or of the
# previous answer: 256 KiB at 4 KiB/s. Without it, a body sent a byte a minute holds its
# connection for ever, and CONNECTION_LIMIT such bodies refuse everyone else.
BODY_SECONDS = 60


class RequestDeadlineProtocol(HeaderDeadlineProtocol):
    """The scoreboard's protocol (a deadline on the headers) with one more on the whole request."""

    _request_deadline = None

    def _start_header_deadline(self) -> None:
        super()._start_header_deadline()
        if self._request_deadline is not None:
            self._request_deadline.cancel()
        if not self.transport.is_closing():
            self._request_deadline = self.loop.call_later(BODY_SECONDS, self._drop_if_request_incomplete)

    def _cancel_header_deadline(self) -> None:
        super()._cancel_header_deadline()
        if self._request_deadline is not None:
            self._request_deadline.cancel()
            self._request_deadline = None

    def _drop_if_request_incomplete(self) -> None:
        self._request_deadline = None
        # IDLE or SEND_BODY: its headers or its body are not all here (an answered request is DONE).
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
            self.transport.close()


def serve(course: Course, host: str, port: int, certfile: Path | None = None, keyfile: Path | None = None) -> None:
    """Serve ``course`` until Ctrl-C or SIGTERM; prints the address on standard output once listening."""
    listener = _listen(host, port)
    requeued = course.start()
    allow_open_files(CONNECTION_LIMIT + 100)
    server = uvicorn.Server(uvicorn.Config(
        build_app(course), interface="asgi3", http=RequestDeadlineProtocol, ws="none", lifespan="on",
        limit_concurrency=CONNECTION_LIMIT, timeout_keep_alive=KEEP_ALIVE_SECONDS,
        timeout_graceful_shutdown=GRACE_SECONDS, h11_max_incomplete_event_size=HEADER_BYTES,
        server_header=False, log_config=None, log_level="error", access_log=False,
        ssl_certfile=str(certfile) if certfile else None, ssl_keyfile=str(keyfile) if keyfile else None))
    _log_errors()
    scheme = "https" if certfile else "http"
    print(f"{scheme}://{url_host(host)}:{listener.getsockname()[1]}/", flush=True)
    print(f"judge serve: serving {len(course.open_problems)} problem(s) from {course.db}"
          + (f"; {requeued} submission(s) from before the restart queued again" if requeued else "")
          + " (Ctrl-C stops it)", file=sys.stderr, flush=True)
    try:
        run_until_stopped(server, listener)
    finally:
        course.stop()
    print("judge serve: stopped", file=sys.stderr)


def _listen(host: str, port: int) -> socket.socket:
    try:
        return socket.create_server((host.strip("[]"), port), family=socket.AF_INET6 if ":" in host else socket.AF_INET,
                                    backlog=CONNECTION_LIMIT)
    except OSError as error:
        raise UsageError(f"cannot listen on {host} port {port} ({error.strerror or error}); pass another --port "
                         f"(0 picks a free one) or --host") from None


def _log_errors() -> None:
    for name in ("judge.serve", "uvicorn.error"):
        logger = logging.getLogger(name)
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("judge serve: %(message)s"))
        logger.addHandler(handler)
        logger.setLevel(logging.ERROR)
