"""`judge serve` and its clients for real: a server process on 127.0.0.1 (port 0), real `judge
submit`, `judge status` and `judge roster` processes, the hidden cases kept from students, the
teacher's routes refused to them, every limit a sentence, 50 students at once, and a `kill -9` in
the middle of judging followed by a restart that loses and duplicates nothing."""

from __future__ import annotations

import csv
import http.server
import io
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import ROOT, run_judge

from judge.classroom.store import read_history
from judge.course_server.class_folder import latest_uploads
from judge.course_server.course import pace_sentence
from judge.course_server.queue import FairQueue
from judge.course_server.submissions import CourseStore, Upload
from judge.course_server.tokens import new_token

SUITE = """\
id: addup
title: Add two numbers
statement: Print the sum of the two integers on the line.
limits: {time: 10}
cases:
  - {name: one, visibility: sample, input: "1 2\\n", output: "3\\n"}
  - {name: secret-big, input: "1000000 2000000\\n", output: "3000000\\n"}
  - {name: secret-neg, input: "-5 3\\n", output: "-2\\n", hint: "negative numbers"}
"""
GOOD = "a, b = map(int, input().split())\nprint(a + b)\n"
BAD = "a, b = map(int, input().split())\nprint(abs(a) + b)\n"
# Prints the hidden input where a careless judge would show it: its output and its error stream.
LEAKY = "import sys\nline = input()\nprint('got', line, file=sys.stderr)\nprint(line)\n"
SLOW = "import time\ntime.sleep(3)\n" + GOOD  # long enough to be stopped in the middle
HIDDEN = ("secret-big", "secret-neg", "1000000", "-5 3")
WAIT = 120  # seconds a test waits for the server to do something before it fails


def judge_env(**more: str) -> dict:
    env = {**os.environ, **more}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    return env


@pytest.fixture
def course(tmp_path: Path) -> dict:
    """A course of one problem, a roster of ana and ben, and a teacher, tina: the tokens."""
    problems = tmp_path / "course"
    (problems / "cases").mkdir(parents=True)
    (problems / "cases" / "addup.yaml").write_text(SUITE)
    roster = tmp_path / "roster.csv"
    roster.write_text("student,email\nana,ana@example.org\nben,ben@example.org\n")
    db = tmp_path / "course.db"
    done = run_judge("roster", "issue", str(roster), "--db", str(db), "--teacher", "tina")
    assert done.returncode == 0, done.stderr
    tokens = dict(line.split(",") for line in done.stdout.split())
    return {"problems": problems, "db": db, "tokens": tokens, "dir": tmp_path}


class Server:
    def __init__(self, course: dict, *options: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "judge", "serve", "--problems", str(course["problems"]), "--db", str(course["db"]),
             "--port", "0", *options], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=judge_env(),
            cwd=course["dir"])
        self.url = self.process.stdout.readline().strip().rstrip("/")
        assert self.url.startswith("http://127.0.0.1:"), self.process.stderr.read()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=WAIT)

    def stop_and_read(self) -> str:
        """Stop the server; everything it wrote on its standard error."""
        self.stop()
        return self.process.stderr.read()

    def request(self, token: str, path: str, method: str = "GET", body: bytes | None = None) -> tuple[int, bytes]:
        request = urllib.request.Request(self.url + path, data=body, method=method,
                                         headers={"Authorization": f"Bearer {token}"})
        try:
            with urllib.request.urlopen(request, timeout=WAIT) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()


@pytest.fixture
def server(course):
    running = Server(course, "--min-interval", "0")
    yield running
    running.stop()


def submit(server: Server, token: str, problem: str, file: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "judge", "submit", problem, str(file), "--server", server.url],
                          capture_output=True, text=True, env=judge_env(JUDGE_TOKEN=token), timeout=WAIT, check=False)


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def table_cells(stdout: str) -> list[tuple[str, str]]:
    """(case, verdict) of each row of `judge run`'s table, and its summary's first words."""
    lines = stdout.splitlines()
    rows = [tuple(line.split()[:2]) if not line.startswith("hidden") else (" ".join(line.split()[:2]), line.split()[2])
            for line in lines[2:] if line.strip() and not line.startswith(("AC ", "WA ", "TLE ", "RE "))]
    return rows + [tuple(line.split()[:4]) for line in lines if line.startswith(("AC ", "WA "))]


def test_roster_prints_a_token_per_student_and_keeps_only_their_hashes(course):
    assert set(course["tokens"]) == {"ana", "ben", "tina"}
    with sqlite3.connect(course["db"]) as db:
        stored = db.execute("SELECT token_hash, student, role FROM course_tokens").fetchall()
    assert {(student, role) for _hash, student, role in stored} == {("ana", "student"), ("ben", "student"),
                                                                     ("tina", "teacher")}
    kept = " ".join(row[0] for row in stored)
    assert not any(token in kept for token in course["tokens"].values())


def test_no_token_starts_with_a_dash_that_a_command_line_reads_as_an_option():
    drawn = iter(["-starts-like-an-option", "_fine-token"])
    assert new_token(lambda size: next(drawn)) == "_fine-token"


def test_the_course_store_is_readable_by_its_owner_only(course, server, tmp_path):
    assert submit(server, course["tokens"]["ana"], "addup", write(tmp_path, "a.py", GOOD)).returncode == 0
    files = [course["db"], *course["db"].parent.glob(course["db"].name + "-*")]
    assert {file.name: oct(file.stat().st_mode & 0o777) for file in files} == {file.name: "0o600" for file in files}


def test_a_roster_without_a_student_column_is_refused_with_the_fix(tmp_path):
    roster = write(tmp_path, "roster.csv", "name\nana\n")
    done = run_judge("roster", "issue", str(roster), "--db", str(tmp_path / "db"))
    assert done.returncode == 2
    assert "needs a header line with a 'student' column" in done.stderr


def test_submit_prints_the_rows_and_exit_status_judge_run_gives(course, server, tmp_path):
    for text, status in ((GOOD, 0), (BAD, 1)):
        file = write(tmp_path, "solution.py", text)
        submitted = submit(server, course["tokens"]["ana"], "addup", file)
        ran = run_judge("run", "addup", str(file), "--problems", str(course["problems"]), "--no-record")
        assert submitted.returncode == ran.returncode == status, submitted.stderr
        assert table_cells(submitted.stdout) == table_cells(ran.stdout)
    assert ("hidden 2", "WA") in table_cells(submitted.stdout)


def test_a_failed_sample_is_shown_without_the_hint_of_an_option_submit_lacks(course, server, tmp_path):
    submitted = submit(server, course["tokens"]["ana"], "addup", write(tmp_path, "zero.py", "print(0)\n"))
    assert submitted.returncode == 1 and "one: WA" in submitted.stdout
    assert "--show" not in submitted.stdout  # `judge run --show one` has no `judge submit` form


def test_a_student_never_reads_a_hidden_case(course, server, tmp_path):
    token = course["tokens"]["ana"]
    submitted = submit(server, token, "addup", write(tmp_path, "leaky.py", LEAKY))
    assert submitted.returncode == 1
    assert "one" in submitted.stdout  # the sample is shown whole
    assert "negative numbers" in submitted.stdout  # the author's hint, which this level shows
    for secret in HIDDEN:
        assert secret not in submitted.stdout + submitted.stderr
    status, body = server.request(token, "/api/submissions/1")
    assert status == 200
    record = json.loads(body)
    assert "cases" not in record and not any(secret in body.decode() for secret in HIDDEN)
    status, body = server.request(course["tokens"]["tina"], "/api/submissions/1")  # the teacher sees everything
    assert status == 200 and {case["name"] for case in json.loads(body)["cases"]} == {"one", "secret-big", "secret-neg"}


def test_a_students_token_is_refused_others_submissions_and_the_teachers_routes(course, server, tmp_path):
    assert submit(server, course["tokens"]["ana"], "addup", write(tmp_path, "a.py", GOOD)).returncode == 0
    ben = course["tokens"]["ben"]
    for path, method in (("/api/submissions/1", "GET"), ("/api/submissions/1/rows", "GET"),
                         ("/api/class/report", "GET"), ("/api/class/download", "GET"),
                         ("/api/class/rejudge-preview", "POST")):
        status, body = server.request(ben, path, method)
        assert status == 403, path
        assert json.loads(body)["error"]
    status, body = server.request(ben, "/api/submissions?all=1")
    assert status == 403 and json.loads(body)["error"]  # the class's list is a teacher's, as the API says
    status, _ = server.request("not-a-token", "/api/submissions")
    assert status == 401


def test_the_teacher_downloads_the_class_as_judge_grade_reads_it(course, server, tmp_path):
    assert submit(server, course["tokens"]["ana"], "addup", write(tmp_path, "mine.py", BAD)).returncode == 1
    assert submit(server, course["tokens"]["ana"], "addup", write(tmp_path, "mine.py", GOOD)).returncode == 0
    assert submit(server, course["tokens"]["ben"], "addup", write(tmp_path, "his.py", BAD)).returncode == 1
    teacher = course["tokens"]["tina"]
    status, data = server.request(teacher, "/api/class/download")
    assert status == 200
    zipfile.ZipFile(io.BytesIO(data)).extractall(tmp_path / "download")
    graded = run_judge("grade", str(tmp_path / "download" / "class"), "--problems", str(course["problems"]),
                       "--db", str(tmp_path / "grade.db"), "--format", "json")
    scores = {student["student"]: student["total"] for student in json.loads(graded.stdout)["students"]}
    assert scores == {"ana": 100, "ben": 66.67}  # each student's latest upload
    status, page = server.request(teacher, "/api/class/report")
    assert status == 200 and b"ana" in page and b"ben" in page
    status, body = server.request(teacher, "/api/class/rejudge-preview", "POST")
    assert status == 200 and json.loads(body) == {"changes": []}  # nothing changed since it was judged
    status, body = server.request(teacher, "/api/submissions?all=1")
    assert [upload["student"] for upload in json.loads(body)["submissions"]] == ["ana", "ana", "ben"]


@pytest.mark.skipif(shutil.which("unzip") is None, reason="needs Info-ZIP's unzip, as the tutorial uses")
def test_the_class_download_dates_each_file_when_it_was_uploaded(course, server, tmp_path):
    ana = course["tokens"]["ana"]
    assert submit(server, ana, "addup", write(tmp_path, "mine.py", GOOD)).returncode == 0
    [upload] = json.loads(server.request(ana, "/api/submissions")[1])["submissions"]
    status, data = server.request(course["tokens"]["tina"], "/api/class/download")
    assert status == 200
    (tmp_path / "class.zip").write_bytes(data)
    unzipped = subprocess.run(["unzip", "-q", "class.zip"], cwd=tmp_path, env={**os.environ, "TZ": "Asia/Tokyo"},
                              capture_output=True, text=True, check=False)
    assert unzipped.returncode == 0, unzipped.stderr
    # Whatever the zone unzip runs in: a deadline reads the time it was sent, not the download's.
    assert int((tmp_path / "class" / "ana" / "addup.py").stat().st_mtime) == int(upload["submitted_at"])


def test_status_lists_the_students_own_submissions_with_their_verdicts(course, server, tmp_path):
    submit(server, course["tokens"]["ana"], "addup", write(tmp_path, "a.py", GOOD))
    submit(server, course["tokens"]["ana"], "addup", write(tmp_path, "b.py", BAD))
    submit(server, course["tokens"]["ben"], "addup", write(tmp_path, "c.py", GOOD))
    listed = subprocess.run([sys.executable, "-m", "judge", "status"], capture_output=True, text=True,
                            env=judge_env(JUDGE_TOKEN=course["tokens"]["ana"], JUDGE_SERVER=server.url),
                                timeout=WAIT, check=False)
    assert listed.returncode == 0, listed.stderr
    rows = [line.split() for line in listed.stdout.splitlines()[1:]]
    assert [(row[5], row[6], row[7]) for row in rows] == [("a.py", "done", "AC"), ("b.py", "done", "WA")]
    everyone = subprocess.run([sys.executable, "-m", "judge", "status", "--all"], capture_output=True, text=True,
                              env=judge_env(JUDGE_TOKEN=course["tokens"]["ana"], JUDGE_SERVER=server.url),
                              timeout=WAIT, check=False)
    assert everyone.returncode == 2 and "only a teacher's token may use this" in everyone.stderr


def test_login_keeps_the_server_and_token_for_submit(course, server, tmp_path):
    env = judge_env(JUDGE_CONFIG=str(tmp_path / "login.json"))
    env.pop("JUDGE_TOKEN", None)
    logged = subprocess.run([sys.executable, "-m", "judge", "login", "--server", server.url, "--token",
                             course["tokens"]["ben"]], capture_output=True, text=True, env=env,
                                 timeout=WAIT, check=False)
    assert logged.returncode == 0, logged.stderr
    assert (tmp_path / "login.json").stat().st_mode & 0o077 == 0
    sent = subprocess.run([sys.executable, "-m", "judge", "submit", "addup", str(write(tmp_path, "b.py", GOOD))],
                          capture_output=True, text=True, env=env, timeout=WAIT, check=False)
    assert sent.returncode == 0, sent.stderr
    wrong = subprocess.run([sys.executable, "-m", "judge", "login", "--server", server.url, "--token", "nope"],
                           capture_output=True, text=True, env=env, timeout=WAIT, check=False)
    assert wrong.returncode == 2 and "no valid token" in wrong.stderr


def test_login_reads_a_piped_token_without_a_warning(course, server, tmp_path):
    env = judge_env(JUDGE_CONFIG=str(tmp_path / "login.json"))
    env.pop("JUDGE_TOKEN", None)
    logged = subprocess.run([sys.executable, "-m", "judge", "login", "--server", server.url],
                            input=course["tokens"]["ana"] + "\n", capture_output=True, text=True, env=env,
                            timeout=WAIT, check=False)
    assert logged.returncode == 0 and "logged in" in logged.stdout, logged.stderr
    assert logged.stderr == ""  # no warning that a piped token could not be hidden


def test_a_revoked_token_is_refused(course, server, tmp_path):
    done = run_judge("roster", "revoke", "ben", "--db", str(course["db"]))
    assert done.returncode == 0 and "1 token(s) revoked" in done.stdout
    refused = submit(server, course["tokens"]["ben"], "addup", write(tmp_path, "b.py", GOOD))
    assert refused.returncode == 2
    assert "no valid token" in refused.stderr


def test_every_limit_is_a_sentence_and_a_failed_exit(course, tmp_path):
    assignment = write(tmp_path, "week1.yaml", "name: Week 1\nproblems: {addup: 10}\nsubmissions: 2\n"
                                               "languages: [python]\n")
    server = Server(course, "--assignment", str(assignment), "--max-upload", "200", "--min-interval", "0")
    try:
        ana = course["tokens"]["ana"]
        cases = [
            ("addup", write(tmp_path, "big.py", GOOD + "#" * 300), "accepts files of up to 200 bytes"),
            ("nosuch", write(tmp_path, "a.py", GOOD),
             "there is no problem 'nosuch' on this judge; the problems are: addup"),
            ("addup", write(tmp_path, "a.c", "int main(){}\n"), "Week 1 accepts python for addup, not c"),
            ("addup", write(tmp_path, "a.txt", GOOD),
             "cannot tell the language of a.txt from its extension .txt; name the file with one of .py"),
        ]
        for problem, file, sentence in cases:
            refused = submit(server, ana, problem, file)
            assert refused.returncode == 2 and sentence in refused.stderr, refused.stderr
            assert "--lang" not in refused.stderr  # an option judge submit does not have
        for _ in range(2):
            assert submit(server, ana, "addup", write(tmp_path, "a.py", GOOD)).returncode == 0
        refused = submit(server, ana, "addup", write(tmp_path, "a.py", GOOD))
        assert refused.returncode == 2
        assert "you have used all 2 submissions of addup that Week 1 allows" in refused.stderr
    finally:
        server.stop()
    paced = Server(course, "--min-interval", "3600")
    try:
        ben = course["tokens"]["ben"]
        assert submit(paced, ben, "addup", write(tmp_path, "b.py", GOOD)).returncode == 0
        refused = submit(paced, ben, "addup", write(tmp_path, "b.py", GOOD))
        assert refused.returncode == 2 and "one submission every 3600 s" in refused.stderr
    finally:
        paced.stop()


def test_the_wait_a_rate_limit_names_is_rounded_up():
    assert pace_sentence(5, 0.3).endswith("send this one again in 1 s")
    assert pace_sentence(5, 4.2).endswith("send this one again in 5 s")


def test_the_scoreboard_shows_a_submission_pending_while_judged_and_counts_when_it_was_sent(course, tmp_path):
    server = Server(course, "--min-interval", "0")
    ana = course["tokens"]["ana"]
    try:
        status, body = server.request(ana, "/api/submissions?problem=addup&file=slow.py", "POST", SLOW.encode())
        assert status == 201, body
        upload_id = json.loads(body)["id"]
        seen_pending = False
        while not seen_pending and json.loads(server.request(ana, f"/api/submissions/{upload_id}")[1])["state"] != "done":
            seen_pending = any(row["verdict"] is None for row in read_history(course["db"], judging=True))
            time.sleep(0.05)
        wait_for_state(server, ana, upload_id, "done")
        sent = json.loads(server.request(ana, f"/api/submissions/{upload_id}")[1])["submitted_at"]
    finally:
        server.stop()
    assert seen_pending  # judged for seconds: the board showed it pending meanwhile
    [recorded] = read_history(course["db"])
    assert recorded["verdict"] == "AC" and recorded["submitted_at"] == sent  # not when its judging ended


def test_the_class_is_each_students_latest_upload_by_the_deadline_as_a_repository_is_graded(tmp_path):
    store = CourseStore(tmp_path / "course.db")
    ids = [store.add_upload("ana", "addup", f"v{number}.py", GOOD.encode(), "verdict") for number in range(3)]
    with sqlite3.connect(tmp_path / "course.db") as db:  # sent at 100, 200 and 300
        for number, upload_id in enumerate(ids):
            db.execute("UPDATE course_uploads SET submitted_at=? WHERE id=?", (100.0 * (number + 1), upload_id))
    store = CourseStore(tmp_path / "course.db")

    def graded(until):
        return [upload.file_name for upload in latest_uploads(store, until)]

    assert graded(None) == ["v2.py"]
    assert graded({"addup": 250.0}) == ["v1.py"]  # the one after the deadline does not replace it
    assert graded({"addup": 50.0}) == ["v2.py"]  # all late: the latest, which grading calls too late
    assert graded({"other": 250.0}) == ["v2.py"]


def test_the_queue_takes_students_in_turn():
    queue = FairQueue()

    def upload(number: int, student: str) -> Upload:
        return Upload(number, student, "addup", "a.py", 0.0, "verdict", "queued", None, None, None, None)

    for number in range(1, 6):
        queue.put(upload(number, "ana"))  # ana's five first
    queue.put(upload(6, "ben"))
    queue.put(upload(7, "cy"))
    order = [queue.take().id for _ in range(7)]
    assert order == [1, 6, 7, 2, 3, 4, 5]


def wait_for_state(server: Server, token: str, upload_id: int, state: str) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        status, body = server.request(token, f"/api/submissions/{upload_id}")
        if status == 200 and json.loads(body)["state"] == state:
            return
        time.sleep(0.05)
    raise AssertionError(f"submission {upload_id} never reached {state}")


def test_kill_9_while_judging_then_a_restart_judges_everything_once(course, tmp_path):
    server = Server(course, "--min-interval", "0", "--workers", "1")
    teacher = course["tokens"]["tina"]
    try:
        sent = [server.request(course["tokens"][student], f"/api/submissions?problem=addup&file={name}", "POST",
                               text.encode()) for student, name, text in
                (("ana", "slow.py", SLOW), ("ben", "good.py", GOOD), ("ana", "bad.py", BAD))]
        assert [status for status, _ in sent] == [201, 201, 201]
        wait_for_state(server, teacher, 1, "judging")
    finally:
        server.process.kill()  # SIGKILL: nothing of the server's own runs
        server.process.wait()
    restarted = Server(course, "--min-interval", "0")
    try:
        for upload_id in (1, 2, 3):
            wait_for_state(restarted, teacher, upload_id, "done")
        _status, body = restarted.request(teacher, "/api/submissions?all=1")
        uploads = json.loads(body)["submissions"]
        assert [(upload["id"], upload["verdict"]) for upload in uploads] == [(1, "AC"), (2, "AC"), (3, "WA")]
        for upload_id in (1, 2, 3):
            lines = json.loads(restarted.request(teacher, f"/api/submissions/{upload_id}")[1])["lines"]
            assert sum(line.startswith("case ") for line in lines) == 1  # one table, no row twice
            assert len([line for line in lines if line.startswith(("one ", "hidden "))]) == 3
        with sqlite3.connect(course["db"]) as db:
            recorded = db.execute("SELECT student, verdict FROM submissions ORDER BY id").fetchall()
        assert sorted(recorded) == [("ana", "AC"), ("ana", "WA"), ("ben", "AC")]
    finally:
        restarted.stop()


def test_fifty_students_submit_at_once(course, tmp_path):
    roster = tmp_path / "class.csv"
    roster.write_text("student\n" + "".join(f"s{number:02}\n" for number in range(50)))
    issued = run_judge("roster", "issue", str(roster), "--db", str(course["db"]))
    tokens = dict(line.split(",") for line in issued.stdout.split())
    good, bad = write(tmp_path, "good.py", GOOD), write(tmp_path, "bad.py", BAD)
    server = Server(course, "--workers", "2")
    try:
        def one(student: str) -> tuple[str, int, str]:
            file = good if int(student[1:]) % 2 == 0 else bad
            done = submit(server, tokens[student], "addup", file)
            return student, done.returncode, done.stdout + done.stderr

        with ThreadPoolExecutor(50) as pool:
            outcomes = list(pool.map(one, tokens))
    finally:
        server.stop()
    for student, status, output in outcomes:
        assert status == int(student[1:]) % 2, output
        assert ("AC  3/3" if status == 0 else "WA  2/3") in output
    with sqlite3.connect(course["db"]) as db:
        assert db.execute("SELECT COUNT(*), COUNT(DISTINCT student) FROM course_uploads").fetchone() == (50, 50)


def test_the_roster_csv_module_reads_a_spreadsheets_export(tmp_path):
    from judge.course_server.tokens import roster_names

    roster = tmp_path / "roster.csv"
    with roster.open("w", newline="", encoding="utf-8-sig") as file:
        csv.writer(file).writerows([["email", "student"], ["a@x", "ana"], ["b@x", ""], ["c@x", "ana"]])
    assert roster_names(roster) == ["ana"]


def test_serving_in_a_weak_sandbox_is_refused_as_grading_is(course):
    done = run_judge("serve", "--problems", str(course["problems"]), "--db", str(course["db"]), "--port", "0",
                     env={"JUDGE_SANDBOX": "none", "JUDGE_ALLOW_WEAK_SANDBOX": ""})
    assert done.returncode == 2
    assert "refusing serving a course's judge" in done.stderr and "--allow-weak-sandbox" in done.stderr


def test_ctrl_c_stops_watching_and_leaves_the_submission_judging(course, server, tmp_path):
    watching = subprocess.Popen([sys.executable, "-m", "judge", "submit", "addup", str(write(tmp_path, "s.py", SLOW)),
                                 "--server", server.url], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=judge_env(JUDGE_TOKEN=course["tokens"]["ana"]))
    wait_for_state(server, course["tokens"]["ana"], 1, "judging")
    watching.send_signal(signal.SIGINT)
    _out, err = watching.communicate(timeout=WAIT)
    assert watching.returncode == 130
    assert "submission 1 is still judged on the server" in err
    wait_for_state(server, course["tokens"]["ana"], 1, "done")


def test_the_class_report_counts_the_assignments_points_as_judge_grade_does(course, tmp_path):
    assignment = write(tmp_path, "week1.yaml", "name: Week 1\nproblems: {addup: 10}\n")
    server = Server(course, "--assignment", str(assignment), "--min-interval", "0")
    try:
        assert submit(server, course["tokens"]["ana"], "addup", write(tmp_path, "a.py", BAD)).returncode == 1
        status, page = server.request(course["tokens"]["tina"], "/api/class/report")
    finally:
        server.stop()
    assert status == 200
    text = page.decode()
    assert "<strong>Week 1</strong>, 10 points" in text and "6.67" in text and "66.67" not in text


def test_the_class_report_applies_the_assignments_deadline_to_the_upload_times(course, tmp_path):
    assignment = write(tmp_path, "week1.yaml", 'name: Week 1\nproblems: {addup: 10}\ndue: "2020-01-01"\n')
    server = Server(course, "--assignment", str(assignment), "--min-interval", "0")
    try:
        assert submit(server, course["tokens"]["ana"], "addup", write(tmp_path, "a.py", GOOD)).returncode == 0
        status, page = server.request(course["tokens"]["tina"], "/api/class/report")
    finally:
        server.stop()
    assert status == 200
    assert "changed after the deadline" in page.decode()  # uploaded long after 2020: not graded


def test_an_assignment_sets_what_students_see(course, tmp_path):
    assignment = write(tmp_path, "week1.yaml", "problems: {addup: 10}\nfeedback: hints\nhints: false\n")
    server = Server(course, "--assignment", str(assignment), "--min-interval", "0")
    try:
        shown = submit(server, course["tokens"]["ana"], "addup", write(tmp_path, "a.py", BAD))
    finally:
        server.stop()
    assert shown.returncode == 1 and ("hidden 2", "WA") in table_cells(shown.stdout)
    assert "negative numbers" not in shown.stdout  # hints: false


def test_the_client_commands_import_nothing_of_one_system():
    probe = ("import sys, judge.commands.submit_command, judge.commands.status_command, judge.commands.login_command\n"
             "print(sorted(m for m in sys.modules if m.startswith(('judge.sandbox', 'judge.runner', 'judge.sandbox.host', "
             "'starlette', 'uvicorn', 'resource', 'fcntl'))))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=judge_env(),
        timeout=WAIT, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_hidden_failure_comes_with_a_counterexample_of_the_judges_own(course, tmp_path):
    problems = course["problems"]
    (problems / "reference").mkdir()
    (problems / "reference" / "addup.py").write_text(
        "import sys\n\ndef solve(text):\n    a, b = map(int, text.split())\n    return f'{a + b}\\n'\n\n"
        "if __name__ == '__main__':\n    sys.stdout.write(solve(sys.stdin.read()))\n")
    (problems / "validators").mkdir()
    (problems / "validators" / "addup.py").write_text(
        "def validate(text):\n    if len(text.split()) != 2:\n        raise ValueError('expected two integers')\n")
    (problems / "strategies").mkdir()
    (problems / "strategies" / "addup.py").write_text(
        "from hypothesis import strategies as st\n\ndef inputs():\n"
        "    return st.tuples(st.integers(-9, 9), st.integers(-9, 9)).map(lambda p: f'{p[0]} {p[1]}\\n')\n")
    server = Server(course, "--min-interval", "0", "--explain", "30")
    try:
        shown = submit(server, course["tokens"]["ana"], "addup", write(tmp_path, "bad.py", BAD))
    finally:
        server.stop()
    assert shown.returncode == 1
    assert "counterexample (an input of the judge's own, not a hidden case" in shown.stdout
    assert "-5 3" not in shown.stdout and str(problems) not in shown.stdout


def test_only_the_roster_in_force_may_submit(course, tmp_path):
    roster = write(tmp_path, "now.csv", "student\nana\n")  # ben has left the course
    server = Server(course, "--roster", str(roster), "--min-interval", "0")
    try:
        assert submit(server, course["tokens"]["ana"], "addup", write(tmp_path, "a.py", GOOD)).returncode == 0
        refused = submit(server, course["tokens"]["ben"], "addup", write(tmp_path, "b.py", GOOD))
        assert refused.returncode == 2 and "ben is not on this course's roster" in refused.stderr
    finally:
        server.stop()


def test_the_rejudge_preview_names_whose_verdict_a_changed_problem_changes(course, server, tmp_path):
    assert submit(server, course["tokens"]["ana"], "addup", write(tmp_path, "a.py", BAD)).returncode == 1
    assert submit(server, course["tokens"]["ben"], "addup", write(tmp_path, "b.py", GOOD)).returncode == 0
    suite = course["problems"] / "cases" / "addup.yaml"
    suite.write_text(suite.read_text().replace('{name: secret-neg, input: "-5 3\\n", output: "-2\\n"',
                                               '{name: secret-neg, input: "5 3\\n", output: "8\\n"'))
    status, body = server.request(course["tokens"]["tina"], "/api/class/rejudge-preview", "POST")
    assert status == 200
    changes = json.loads(body)["changes"]
    assert [(change["student"], change["before"]["verdict"], change["verdict"]) for change in changes
            if change["before"]["verdict"] != change["verdict"]] == [("ana", "WA", "AC")]
    status, body = server.request(course["tokens"]["tina"], "/api/submissions?all=1")
    assert [upload["verdict"] for upload in json.loads(body)["submissions"]] == ["WA", "AC"]  # nothing recorded


def test_a_port_in_use_and_a_server_not_there_are_sentences(course, server, tmp_path):
    port = server.url.rsplit(":", 1)[1]
    taken = run_judge("serve", "--problems", str(course["problems"]), "--db", str(tmp_path / "other.db"),
                      "--port", port)
    assert taken.returncode == 2
    assert f"cannot listen on 127.0.0.1 port {port}" in taken.stderr and "Traceback" not in taken.stderr
    server.stop()
    gone = submit(server, course["tokens"]["ana"], "addup", write(tmp_path, "a.py", GOOD))
    assert gone.returncode == 2
    assert f"cannot reach the course judge at {server.url}" in gone.stderr


@pytest.fixture
def not_a_judge():
    """Another web server at the address given (a course's site): HTML for every GET, 405 for a POST;
    under /down/, a proxy's 502 for a judge that is down."""
    class Site(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # http.server's name
            if self.path.startswith("/down/"):  # a proxy whose judge is down
                self.send_error(502)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(b"<!doctype html><title>Course</title>")

        def do_POST(self):
            self.send_error(405)

        def log_message(self, *args):
            pass

    site = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Site)
    threading.Thread(target=site.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{site.server_address[1]}"
    site.shutdown()


def test_an_address_that_is_not_a_course_judge_is_a_sentence(not_a_judge, tmp_path):
    env = judge_env(JUDGE_TOKEN="x", JUDGE_CONFIG=str(tmp_path / "login.json"))
    for command in (["status"], ["submit", "addup", str(write(tmp_path, "a.py", GOOD))]):
        done = subprocess.run([sys.executable, "-m", "judge", *command, "--server", not_a_judge], capture_output=True,
                              text=True, env=env, timeout=WAIT, check=False)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert f"{not_a_judge} did not answer as a course judge does" in done.stderr \
            or f"{not_a_judge} answered 405" in done.stderr, done.stderr
        assert "the address your teacher gave you" in done.stderr
    down = subprocess.run([sys.executable, "-m", "judge", "status", "--server", not_a_judge + "/down"],
                          capture_output=True, text=True, env=env, timeout=WAIT, check=False)
    assert down.returncode == 2 and "answered 502 Bad Gateway: the course judge behind it is down" in down.stderr


def test_the_scoreboard_ranks_what_the_course_judge_judged(course, server, tmp_path):
    assert submit(server, course["tokens"]["ana"], "addup", write(tmp_path, "a.py", GOOD)).returncode == 0
    assert submit(server, course["tokens"]["ben"], "addup", write(tmp_path, "b.py", BAD)).returncode == 1
    board = run_judge("scoreboard", "--db", str(course["db"]))
    assert board.returncode == 0, board.stderr
    table = board.stdout.split("\n\n")[0]  # the legend follows the table after a blank line
    ranked = [line.split()[1] for line in table.splitlines() if line[:1].isdigit()]
    assert ranked == ["ana", "ben"]
