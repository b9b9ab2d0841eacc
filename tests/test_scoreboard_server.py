"""The live scoreboard's server (`judge scoreboard --serve`) for real on 127.0.0.1, against the
clients a public page meets: half-sent requests held open or flooded (slowloris), more connections
than it takes, a page on another site reaching it by DNS rebinding (a foreign Host header), and
SIGTERM or Ctrl-C while connections are open; and its live updates, pushed as server-sent events."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import resource
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import ROOT, make_class, run_judge

SOLUTIONS = ROOT / "solutions"
# A request whose headers never end: the client sends this much and then nothing more.
HALF_SENT = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: "
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class Scoreboard:
    """A real `judge scoreboard --serve --port 0` and the port it printed; its stderr is kept."""

    def __init__(self, db: Path, *options: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "judge", "scoreboard", "--serve", "--port", "0", "--db", str(db), *options],
            cwd=ROOT, stderr=subprocess.PIPE, text=True)
        first = self.process.stderr.readline()
        match = re.search(r"http://[^/]+:(\d+)/", first)
        assert match, first
        self.port = int(match.group(1))
        self.stderr = [first]
        # Read on, so that whatever the server says never fills the pipe and stalls it.
        threading.Thread(target=lambda: self.stderr.extend(self.process.stderr), daemon=True).start()

    def stop(self, signum: int = signal.SIGINT, timeout: float = 20) -> int:
        """Signals the server; its exit status, or a failure if it has not ended after ``timeout``."""
        self.process.send_signal(signum)
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            pytest.fail(f"the scoreboard server was still running {timeout} s after signal {signum}")

    def said(self) -> str:
        time.sleep(0.2)  # the reader thread's last lines
        return "".join(self.stderr)


@pytest.fixture
def scoreboard(tmp_path):
    server = Scoreboard(tmp_path / "results.db")
    yield server
    if server.process.poll() is None:
        server.process.kill()
        server.process.wait()


def allow_open_files(count: int) -> None:
    """Raise this process's open-file limit to ``count`` (the servers started inherit it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= count:
        return
    if hard != resource.RLIM_INFINITY and hard < count:
        pytest.skip(f"needs {count} open files; the hard limit is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (count, hard))


def connect_half_sent(port: int, count: int, seconds: float = 20) -> list[socket.socket]:
    """``count`` connections opened at once, as a flood does (not one after another), each sent
    a request whose headers never end; those connected within ``seconds`` (a server that takes
    them slowly makes the test fail on what it checks, not hang)."""
    allow_open_files(count + 200)
    connecting = selectors.DefaultSelector()
    for _ in range(count):
        attacker = socket.socket()
        attacker.setblocking(False)
        attacker.connect_ex(("127.0.0.1", port))
        connecting.register(attacker, selectors.EVENT_WRITE)
    connected = []
    ends = time.monotonic() + seconds
    while connecting.get_map() and time.monotonic() < ends:
        for key, _ in connecting.select(timeout=0.5):
            connecting.unregister(key.fileobj)
            if key.fileobj.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0:
                key.fileobj.send(HALF_SENT)
                connected.append(key.fileobj)
            else:
                key.fileobj.close()
    for key in list(connecting.get_map().values()):
        key.fileobj.close()
    connecting.close()
    return connected


@contextlib.contextmanager
def half_sent_requests(port: int, count: int, seconds: float = 60):
    """Up to ``count`` half-sent requests (connect_half_sent), held until the block ends or
    ``seconds`` pass, whichever is first (so a hung test never holds them for ever); the block
    gets the list of those held."""
    sockets = connect_half_sent(port, count)
    lock = threading.Lock()

    def close_all() -> None:
        with lock:
            for held in sockets:
                held.close()
            sockets.clear()

    timer = threading.Timer(seconds, close_all)
    timer.start()
    try:
        yield list(sockets)
    finally:
        timer.cancel()
        close_all()


def get(port: int, path: str = "/standings.json", host: str | None = None) -> tuple[int, bytes]:
    """A normal request; its status and body. Fails (instead of hanging) if not answered in 20 s."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        connection.putrequest("GET", path, skip_host=True)
        connection.putheader("Host", host or f"127.0.0.1:{port}")
        connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def thread_count(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"^Threads:\s+(\d+)", status, re.MULTILINE).group(1))


def cpu_ticks(pid: int) -> int:
    """User plus system CPU time of the process so far, in clock ticks (/proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of the whole line)


def test_held_half_sent_requests_neither_stall_a_normal_request_nor_cost_threads(scoreboard):
    with half_sent_requests(scoreboard.port, 1000) as held:
        threads = thread_count(scoreboard.process.pid)
        status, body = get(scoreboard.port)
        opened = len(held)
    assert threads < 20, f"{threads} threads for {opened} held connections"
    assert status == 200 and json.loads(body)["rows"] == []
    assert opened == 1000


def test_after_a_flood_of_half_sent_requests_closes_the_server_goes_idle_and_answers(scoreboard):
    with half_sent_requests(scoreboard.port, 3000) as held:
        time.sleep(5)  # long enough for a server to have taken them all
    time.sleep(1)  # closing them may cost a moment
    before = cpu_ticks(scoreboard.process.pid)
    time.sleep(3)
    used = cpu_ticks(scoreboard.process.pid) - before
    # Idle is a tick or two; the bound is loose (a quarter of one core) so a busy machine passes.
    assert used < 0.25 * 3 * CLOCK_TICKS, f"{used / CLOCK_TICKS:.2f} s of CPU in 3 s after the flood closed"
    assert get(scoreboard.port)[0] == 200
    assert len(held) == 3000


def test_a_half_sent_request_is_dropped_after_the_header_deadline(scoreboard):
    with half_sent_requests(scoreboard.port, 1) as held:
        held[0].settimeout(30)  # a hang check only: the deadline is seconds
        try:
            assert held[0].recv(1024) == b""  # closed by the server, no answer
        except TimeoutError:
            pytest.fail("the server kept a request whose headers never end open for 30 s")
    assert get(scoreboard.port)[0] == 200


def test_past_the_connection_limit_a_request_is_refused_with_503_until_connections_close(scoreboard):
    with half_sent_requests(scoreboard.port, 2000) as held:
        status, _ = get(scoreboard.port)
    assert status == 503
    assert len(held) == 2000
    assert get(scoreboard.port)[0] == 200


def test_a_foreign_host_header_is_refused(scoreboard):
    """A DNS-rebinding page (evil.example resolving to 127.0.0.1) reaches the port, but its
    requests say `Host: evil.example:PORT`; only the addresses the server serves are answered."""
    port = scoreboard.port
    for host in (f"evil.example:{port}", "evil.example", f"127.0.0.1:{port + 1}", f"127.0.0.1.evil.example:{port}"):
        for path in ("/", "/standings.json", "/events"):
            status, body = get(port, path, host=host)
            assert status == 421, (host, path, status)
            assert b"localhost:" in body  # says which addresses do work
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LocalHost:{port}"):
        assert get(port, "/", host=host)[0] == 200, host


def test_a_host_given_by_name_is_answered_by_that_name(tmp_path):
    server = Scoreboard(tmp_path / "results.db", "--host", "localhost")
    try:
        assert get(server.port, "/", host=f"localhost:{server.port}")[0] == 200
        assert get(server.port, "/", host=f"example.org:{server.port}")[0] == 421
    finally:
        assert server.stop() == 0


def read_event(stream) -> dict:
    """The next `data:` event of a server-sent event stream (comments skipped)."""
    data = []
    for line in stream:
        line = line.decode("utf-8").rstrip("\n")
        if line.startswith("data: "):
            data.append(line[len("data: "):])
        elif line == "" and data:
            return json.loads("\n".join(data))
    raise AssertionError("the event stream ended")


def open_events(port: int):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", "/events")
    response = connection.getresponse()
    assert response.status == 200
    assert response.getheader("Content-Type").startswith("text/event-stream")
    return connection, response


def test_the_standings_are_pushed_as_server_sent_events_when_a_result_is_recorded(tmp_path):
    db = tmp_path / "results.db"
    server = Scoreboard(db)
    try:
        connection, events = open_events(server.port)
        first = read_event(events)
        assert first["rows"] == [] and "no results database" in first["waiting"]
        folder = make_class(tmp_path / "subs", {"ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py"})
        assert run_judge("grade", str(folder), "--db", str(db)).returncode == 0
        update = read_event(events)
        # The store is created, then the submission recorded (pending), then its result.
        while not update["rows"] or update["rows"][0]["cells"][0]["state"] == "pending":
            update = read_event(events)
        assert [(row["student"], row["total"]) for row in update["rows"]] == [("ana", "100")]
        connection.close()
    finally:
        assert server.stop() == 0


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_the_server_promptly_with_connections_open(scoreboard, signum):
    """Half-sent requests held, and pages following the event stream (a response that never ends
    by itself): the server ends the streams and stops."""
    with half_sent_requests(scoreboard.port, 1000) as held:
        streams = [open_events(scoreboard.port) for _ in range(20)]
        for _, events in streams:
            read_event(events)
        # A generous bound: this checks that it stops at all, not how fast.
        assert scoreboard.stop(signum, timeout=15) == 0
        for connection, events in streams:
            assert events.read() == b""  # the stream was ended, not left hanging
            connection.close()
    assert len(held) == 1000
    assert "scoreboard stopped" in scoreboard.said()


def test_an_assignments_live_board_shows_exactly_its_problems_at_its_points(tmp_path):
    """`--serve --assignment FILE` serves what `judge scoreboard --assignment FILE` prints: the
    assignment's problems (one nobody submitted too, none it leaves out), scores at its points."""
    folder = make_class(tmp_path / "subs", {"ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py",
                                            "ana/footholds.py": SOLUTIONS / "footholds/accepted/minimax.py",
                                            "ben/stones.py": SOLUTIONS / "stones/wrong_answer/multiple_of_four.py"})
    db = tmp_path / "results.db"
    assert run_judge("grade", str(folder), "--db", str(db)).returncode == 0
    assignment = tmp_path / "week3.yaml"
    assignment.write_text("name: Week 3\nproblems: {stones: 60, omok: 40}\n")
    server = Scoreboard(db, "--assignment", str(assignment))
    try:
        status, body = get(server.port)
        assert status == 200
        standings = json.loads(body)
        assert standings["problems"] == ["stones", "omok"]
        assert standings["headers"] == ["rank", "student", "stones /60", "omok /40", "total /100"]
        rows = {row["student"]: row for row in standings["rows"]}
        assert [(row["rank"], row["total"]) for row in rows.values()] == [(1, "60"), (2, "46.36")]
        assert [cell["text"] for cell in rows["ana"]["cells"]] == ["60 *", ""]
        assert rows["ben"]["cells"][0]["label"] == "ben, stones /60: not solved: 46.36 of 60 points in 1 try"
        status, page = get(server.port, "/")
        assert status == 200 and b"Scoreboard: Week 3" in page and b"(100 in all)" in page
    finally:
        assert server.stop() == 0
    printed = run_judge("scoreboard", "--db", str(db), "--assignment", str(assignment))
    assert [line.split()[:4] for line in printed.stdout.splitlines()[2:4]] == [
        ["1", "ana", "60", "*"], ["2", "ben", "46.36", "46.36"]]


def test_a_live_board_with_an_unusable_assignment_is_refused_before_serving(tmp_path):
    assignment = tmp_path / "week3.yaml"
    assignment.write_text("problems: {stones: sixty}\n")
    done = subprocess.run([sys.executable, "-m", "judge", "scoreboard", "--serve", "--port", "0", "--db",
                           str(tmp_path / "results.db"), "--assignment", str(assignment)],
                          check=False, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "problems.stones" in done.stderr and "Traceback" not in done.stderr
    assert "live scoreboard at" not in done.stderr
