"""The live scoreboard as an ASGI application: the page, ``/standings.json``, and ``/events``,
the standings pushed as server-sent events whenever they change.

It only reads (GET and HEAD; anything else is 405), and answers only requests addressed to it: the
Host header must name the address it serves (127.0.0.1, localhost, the --host given, or the address
the connection came in on, with the port). A page elsewhere that rebinds its own domain name to
127.0.0.1 can reach the port, but its requests say ``Host: that-domain``, and get 421."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from judge.scoreboard.feed import StandingsFeed

# A comment line this often keeps an idle stream open through proxies and finds closed pages.
HEARTBEAT_SECONDS = 15
RECONNECT_MILLISECONDS = 3000
COMMON_HEADERS = [(b"cache-control", b"no-store"), (b"x-content-type-options", b"nosniff")]
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def url_host(host: str) -> str:
    """A host as it is written in a URL (an IPv6 address in brackets)."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def allowed_hosts(served_host: str, local_address: str, port: int) -> list[str]:
    """The Host header values (lowercase, with the port) a request to this server may carry."""
    names = (*LOOPBACK_NAMES, url_host(served_host), url_host(local_address))
    return list(dict.fromkeys(f"{name.lower()}:{port}" for name in names))


def addressed(host_header: str, hosts: list[str]) -> bool:
    host = host_header.strip().lower()
    return host in hosts or f"{host}:80" in hosts  # a browser leaves out the default port


class ScoreboardApp:
    def __init__(self, feed: StandingsFeed, page: bytes, served_host: str, should_stop: Callable[[], bool]) -> None:
        self.feed, self.page, self.served_host, self.should_stop = feed, page, served_host, should_stop
        self._watcher: asyncio.Task | None = None

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "http":
            await self._http(scope, receive, send)

    async def _lifespan(self, receive: Callable, send: Callable) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await self.feed.refresh()  # the first request already finds the standings
                self._watcher = asyncio.create_task(self.feed.watch(self.should_stop))
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.feed.stop()
                if self._watcher is not None:
                    self._watcher.cancel()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _http(self, scope: dict, receive: Callable, send: Callable) -> None:
        head = scope["method"] == "HEAD"
        refusal = self._misdirected(scope)
        if refusal:
            await _respond(send, *refusal, head=head)
        elif scope["method"] not in ("GET", "HEAD"):
            await _respond(send, 405, b"read-only\n", extra=[(b"allow", b"GET, HEAD")])
        elif scope["path"] in ("/", "/index.html"):
            await _respond(send, 200, self.page, "text/html; charset=utf-8", head=head)
        elif scope["path"] == "/standings.json":
            status = 503 if "error" in self.feed.latest else 200
            await _respond(send, status, self.feed.latest_json(), "application/json", head=head)
        elif scope["path"] == "/events":
            await self._events(receive, send, head)
        else:
            await _respond(send, 404, b"not found\n", head=head)

    def _misdirected(self, scope: dict) -> tuple[int, bytes] | None:
        """(status, message) when the request is not addressed to this server, else None."""
        given = [value.decode("latin-1") for name, value in scope["headers"] if name == b"host"]
        if not given:
            return 400, b"the request has no Host header; this server answers only requests naming it\n"
        local_address, port = scope["server"]
        hosts = allowed_hosts(self.served_host, local_address, port)
        if addressed(given[0], hosts):
            return None
        working = ", ".join(f"http://{host}/" for host in hosts)
        return 421, (f"this scoreboard answers only at {working} (the request was for {given[0]!r}); "
                     f"open one of those, or serve it with --host NAME to reach it by NAME\n").encode("utf-8")

    async def _events(self, receive: Callable, send: Callable, head: bool) -> None:
        """The standings now, then again each time they change, until the page goes or the server stops."""
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", b"text/event-stream; charset=utf-8"), *COMMON_HEADERS]})
        if head:
            await send({"type": "http.response.body", "body": b""})
            return
        gone = asyncio.create_task(_disconnected(receive))
        try:
            await _send_part(send, b"retry: %d\n\n" % RECONNECT_MILLISECONDS)
            while not (gone.done() or self.feed.stopped):
                change = self.feed.next_change()  # taken before sending, so no change is missed
                await _send_part(send, b"data: " + self.feed.latest_json() + b"\n\n")
                while not (change.is_set() or gone.done()):
                    if not await _wait_either(change, gone, HEARTBEAT_SECONDS):
                        await _send_part(send, b": still following the store\n\n")
        finally:
            gone.cancel()
        await send({"type": "http.response.body", "body": b""})


async def _disconnected(receive: Callable) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


async def _wait_either(change: asyncio.Event, gone: asyncio.Task, timeout: float) -> bool:
    """Wait until ``change`` is set or ``gone`` is done; False if ``timeout`` passed first."""
    changed = asyncio.create_task(change.wait())
    try:
        done, _ = await asyncio.wait({changed, gone}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        changed.cancel()
    return bool(done)


async def _send_part(send: Callable, body: bytes) -> None:
    await send({"type": "http.response.body", "body": body, "more_body": True})


async def _respond(send: Callable, status: int, body: bytes, content_type: str = "text/plain; charset=utf-8",
                   head: bool = False, extra: list[tuple[bytes, bytes]] = ()) -> None:
    headers = [(b"content-type", content_type.encode("ascii")), (b"content-length", str(len(body)).encode("ascii")),
               *COMMON_HEADERS, *extra]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": b"" if head else body})
