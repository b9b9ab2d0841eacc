"""`judge serve` against a hostile student, or anyone who can reach its port, for real: a server
process on 127.0.0.1 and raw sockets."""

from __future__ import annotations

import pytest
from test_course_server import Server, course  # noqa: F401 (fixture)


@pytest.fixture
def server(course):  # noqa: F811 (the fixture imported above)
    running = Server(course, "--min-interval", "0")
    yield running
    running.stop()


def test_a_submission_number_past_the_stores_integers_or_not_ascii_is_no_such_submission(course, server):  # noqa: F811
    huge = "9" * 30
    for path in (f"/api/submissions/{huge}", f"/api/submissions/{huge}/rows", f"/api/submissions/-{huge}",
                 "/api/submissions/%C2%B2"):  # a superscript two: a digit to str.isdigit, not to int
        status, body = server.request(course["tokens"]["ana"], path)
        assert (status, body) == (404, b'{"error":"there is no such submission"}'), path
