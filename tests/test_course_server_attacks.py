"""`judge serve` against a hostile student, or anyone who can reach its port, for real: a server
process on 127.0.0.1 and raw sockets. A submission number past what the store can hold, a login
form with no end (too big, or sent a byte at a time), an upload cut off in the middle, another
site's form logging the student in as someone else, more connections than the open-file limit it
was started with, one student's flood of submissions, a student named as a teacher. And the
clients, given an address where something else answers."""

from __future__ import annotations

import http.client
import http.server
import json
import resource
import socket
import subprocess
import sys
import threading
import urllib.parse

import pytest
from conftest import run_judge
from test_course_server import GOOD, SLOW, WAIT, Server, course, judge_env, submit, wait_for_state, write  # noqa: F401 (fixture)
from test_scoreboard_server import half_sent_requests

from judge.course_server.serving import BODY_SECONDS


@pytest.fixture
def server(course):  # noqa: F811 (the fixture imported above)
    running = Server(course, "--min-interval", "0")
    yield running
    running.stop()


def port_of(server: Server) -> int:
    return int(server.url.rsplit(":", 1)[1])


def post(server: Server, path: str, body: bytes, headers: dict[str, str] | None = None) -> tuple[int, dict, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port_of(server), timeout=WAIT)
    try:
        connection.request("POST", path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def login_form(token: str) -> bytes:
    return urllib.parse.urlencode({"token": token}).encode()


def test_a_submission_number_past_the_stores_integers_or_not_ascii_is_no_such_submission(course, server):  # noqa: F811
    huge = "9" * 30
    for path in (f"/api/submissions/{huge}", f"/api/submissions/{huge}/rows", f"/api/submissions/-{huge}",
                 "/api/submissions/%C2%B2"):  # a superscript two: a digit to str.isdigit, not to int
        status, body = server.request(course["tokens"]["ana"], path)
        assert (status, body) == (404, b'{"error":"there is no such submission"}'), path


def test_a_route_or_method_the_server_has_not_is_refused_in_json_as_every_refusal_is(course, server):  # noqa: F811
    for path, method, status, sentence in (("/api/nosuch", "GET", 404, "there is nothing at /api/nosuch"),
                                           ("/api/submissions", "PUT", 405, "PUT is not answered at /api/submissions"),
                                           ("/api/submissions/1", "DELETE", 405, "DELETE is not answered")):
        answer_status, body = server.request(course["tokens"]["ana"], path, method)
        assert answer_status == status and sentence in json.loads(body)["error"], (path, method, body)


def test_the_login_form_is_read_only_up_to_its_cap(course, server):  # noqa: F811
    padded = login_form(course["tokens"]["ana"]) + b"&padding=" + b"x" * (1 << 20)
    status, _headers, body = post(server, "/login", padded)
    assert status == 413 and b"login form" in body

    def chunks():  # no Content-Length: the cap is counted as it arrives
        yield login_form(course["tokens"]["ana"]) + b"&padding="
        for _ in range(64):
            yield b"x" * (16 << 10)

    connection = http.client.HTTPConnection("127.0.0.1", port_of(server), timeout=WAIT)
    try:
        connection.request("POST", "/login", body=chunks(), encode_chunked=True,
                           headers={"Transfer-Encoding": "chunked"})
        assert connection.getresponse().status == 413
    finally:
        connection.close()
    status, headers, _ = post(server, "/login", login_form(course["tokens"]["ana"]))
    assert status == 303 and headers["location"] == "/"  # a form of the right size still logs in


def test_a_request_whose_body_never_ends_is_dropped(course, server):  # noqa: F811
    held = socket.create_connection(("127.0.0.1", port_of(server)))
    try:
        held.sendall(b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\ntoken=")
        held.settimeout(BODY_SECONDS + WAIT)  # a hang check only
        try:
            while held.recv(1024):  # whatever it answers, the server then closes the connection
                pass
        except TimeoutError:
            pytest.fail(f"the server kept a request whose body never ends open for {BODY_SECONDS + WAIT} s")
    finally:
        held.close()
    stopped = server.stop_and_read()
    assert "ClientDisconnect" not in stopped and "Traceback" not in stopped


@pytest.mark.parametrize("headers", [{"Origin": "http://evil.example", "Sec-Fetch-Site": "cross-site"},
                                     {"Sec-Fetch-Site": "same-site"},
                                     {"Origin": "http://evil.example"}],
                         ids=["cross-site", "sibling-site", "older-browser"])
def test_another_sites_form_cannot_log_a_student_in(course, server, headers):  # noqa: F811
    """A page elsewhere posting the attacker's own token to /login would log the victim in as the
    attacker, whose account then receives the victim's work."""
    status, answer_headers, body = post(server, "/login", login_form(course["tokens"]["ben"]),
                                        {"Content-Type": "application/x-www-form-urlencoded", **headers})
    assert status == 403 and "set-cookie" not in answer_headers
    assert b"another site" in body


def test_the_pages_own_login_form_logs_in(course, server):  # noqa: F811
    own = f"http://127.0.0.1:{port_of(server)}"
    for headers in ({"Origin": own, "Sec-Fetch-Site": "same-origin"}, {"Origin": own}, {}):
        status, answer_headers, _ = post(server, "/login", login_form(course["tokens"]["ana"]), headers)
        assert status == 303 and answer_headers["location"] == "/", headers
        assert "judge_token=" in answer_headers["set-cookie"]


def test_connections_past_the_open_file_limit_it_started_with_are_neither_logged_nor_fatal(course, tmp_path):  # noqa: F811
    """The server raises its open-file limit to what its connection limit needs (as the live
    scoreboard does): started under 256, it holds 400 half-sent requests and still judges."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 3000:
        pytest.skip(f"needs a hard open-file limit of 3000; it is {hard}")
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
    try:
        server = Server(course, "--min-interval", "0")
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    try:
        with half_sent_requests(port_of(server), 400) as held:
            judged = submit(server, course["tokens"]["ana"], "addup", write(tmp_path, "a.py", GOOD))
        assert len(held) == 400
        assert judged.returncode == 0, judged.stdout + judged.stderr
    finally:
        said = server.stop_and_read()
    assert "Too many open files" not in said


def test_a_client_gone_in_the_middle_of_an_upload_leaves_nothing(course, server):  # noqa: F811
    """An upload cut off (the student's connection lost) is not recorded, and the server says nothing."""
    cut = socket.create_connection(("127.0.0.1", port_of(server)))
    cut.sendall(b"POST /api/submissions?problem=addup&file=a.py HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Authorization: Bearer " + course["tokens"]["ana"].encode() + b"\r\nContent-Length: 1000\r\n\r\n"
                + GOOD.encode())
    cut.close()
    status, body = server.request(course["tokens"]["tina"], "/api/submissions?all=1")
    assert status == 200 and b'"submissions":[]' in body
    said = server.stop_and_read()
    assert "Traceback" not in said, said


def test_one_students_flood_of_submissions_holds_up_no_one_else(course):  # noqa: F811
    """ana sends four slow submissions, then ben one: ben's is judged before ana's third (the
    students take turns), not after all of ana's."""
    server = Server(course, "--min-interval", "0", "--workers", "1")
    try:
        ana, ben, tina = (course["tokens"][name] for name in ("ana", "ben", "tina"))
        for number in range(4):
            status, _ = server.request(ana, f"/api/submissions?problem=addup&file=slow{number}.py", "POST", SLOW.encode())
            assert status == 201
        status, body = server.request(ben, "/api/submissions?problem=addup&file=good.py", "POST", GOOD.encode())
        assert status == 201
        wait_for_state(server, ben, json.loads(body)["id"], "done")
        _status, body = server.request(tina, "/api/submissions?all=1")
        done = [upload["file_name"] for upload in json.loads(body)["submissions"] if upload["state"] == "done"]
        assert "good.py" in done and len(done) <= 3, done  # at most ana's first two before it
    finally:
        server.stop()


def test_a_name_is_a_students_or_a_teachers_never_both(course, tmp_path):  # noqa: F811
    """Submissions are kept by name: a student named as a teacher would list the teacher's as theirs."""
    both = run_judge("roster", "issue", str(write(tmp_path, "r.csv", "student\ncy\n")), "--teacher", "cy",
                     "--db", str(course["db"]))
    later = run_judge("roster", "issue", str(write(tmp_path, "more.csv", "student\ndan\ntina\n")),
                      "--db", str(course["db"]))  # tina holds a teacher's token already
    for done, name in ((both, "cy"), (later, "tina")):
        assert done.returncode == 2 and done.stdout == ""  # no token issued to anyone
        assert f"{name} would be both a student and a teacher" in done.stderr


class NotAJudge(http.server.BaseHTTPRequestHandler):
    """What a network's login page, or another site, answers to anything: 200 and HTML."""

    def answer(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        page = b"<html><p>Accept this network's terms to go on.</p></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)

    do_GET = do_POST = answer

    def log_message(self, *_args) -> None:
        pass


def test_the_clients_say_when_the_address_answers_as_no_course_judge_does(tmp_path):
    other = http.server.ThreadingHTTPServer(("127.0.0.1", 0), NotAJudge)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    address = f"http://127.0.0.1:{other.server_address[1]}"
    try:
        for command in (["status"], ["submit", "addup", str(write(tmp_path, "a.py", GOOD))],
                        ["login", "--token", "t"]):
            done = subprocess.run([sys.executable, "-m", "judge", *command, "--server", address], capture_output=True,
                                  text=True, env=judge_env(JUDGE_TOKEN="t", JUDGE_CONFIG=str(tmp_path / "login.json")),
                                  timeout=WAIT, check=False)
            assert done.returncode == 2, (command, done.stderr)
            assert f"{address} did not answer as a course judge does" in done.stderr
            assert "Traceback" not in done.stderr
    finally:
        other.shutdown()
        other.server_close()
