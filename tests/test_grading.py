"""`judge grade` and `judge scoreboard`: formats, ranks, penalties, resume after a kill, bad folders."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import ROOT, make_class, run_judge

from judge.model.scoring import rank
from judge.scoreboard.standings import scoreboard

SOLUTIONS = ROOT / "solutions"


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A small class graded once; every format is rendered from its (complete) database."""
    base = tmp_path_factory.mktemp("class")
    folder = make_class(base / "subs", {
        "ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py",
        "ana/footholds.py": SOLUTIONS / "footholds/accepted/minimax.py",
        "ben/stones.c": SOLUTIONS / "stones/accepted/parity.c",
        "ben/footholds.js": SOLUTIONS / "footholds/wrong_answer/vanish_ignored.js",
        "cy/stones.cpp": SOLUTIONS / "stones/compile_error/type_error.cpp",
        "dee/stones.py": SOLUTIONS / "stones/accepted/game_dp.py",
        "dee/footholds.py": SOLUTIONS / "footholds/accepted/minimax.py",
    })
    db = base / "results.db"
    first = run_judge("grade", str(folder), "--db", str(db), "--format", "json")
    assert first.returncode == 0, first.stderr
    return folder, db, json.loads(first.stdout)


def test_json_report_and_ranks_with_ties(graded):
    _, _, data = graded
    by_name = {student["student"]: student for student in data["students"]}
    assert by_name["ana"]["total"] == by_name["dee"]["total"] == 200
    assert by_name["ana"]["rank"] == by_name["dee"]["rank"] == 1
    assert by_name["ben"]["rank"] == 3 and by_name["cy"]["rank"] == 4
    assert by_name["ben"]["problems"]["footholds"]["verdict"] == "WA"
    assert by_name["cy"]["problems"]["stones"] == {"status": "graded", "score": 0.0, "verdict": "CE"}
    assert [student["student"] for student in data["students"]] == ["ana", "dee", "ben", "cy"]


def test_table_markdown_and_junit(graded, tmp_path):
    folder, db, _ = graded
    table = run_judge("grade", str(folder), "--db", str(db))
    assert "rank" in table.stdout and "200" in table.stdout and "0 CE" in table.stdout
    markdown = run_judge("grade", str(folder), "--db", str(db), "--format", "markdown").stdout
    assert "| Rank" in markdown and "|---" in markdown.replace(":", "-").replace("|--", "|---")
    out = tmp_path / "report.xml"
    assert run_judge("grade", str(folder), "--db", str(db), "--format", "junit", "--out", str(out)).returncode == 0
    root = ET.parse(out).getroot()
    assert root.tag == "testsuites"
    suites = {suite.get("name"): suite for suite in root.findall("testsuite")}
    assert set(suites) == {"ana.stones", "ana.footholds", "ben.stones", "ben.footholds", "cy.stones",
                           "dee.stones", "dee.footholds"}
    ben = suites["ben.footholds"]
    failures = ben.findall("testcase/failure")
    assert failures and int(ben.get("failures")) == len(failures) and failures[0].get("type") == "WA"
    assert int(root.get("tests")) == sum(int(suite.get("tests")) for suite in suites.values())
    compile_failures = suites["cy.stones"].findall("testcase/failure")
    assert compile_failures[0].get("type") == "CE" and "stones.cpp" in compile_failures[0].text
    assert all(failure.text == "the compiler's message is on case sample-1" for failure in compile_failures[1:])


def test_gradescope_results_per_student(graded, tmp_path):
    folder, db, _ = graded
    out = tmp_path / "gs"
    assert run_judge("grade", str(folder), "--db", str(db), "--format", "gradescope", "--out", str(out)).returncode == 0
    ben = json.loads((out / "ben" / "results.json").read_text())
    tests = {test["name"]: test for test in ben["tests"]}
    assert ben["score"] == pytest.approx(sum(test["score"] for test in ben["tests"]))
    assert tests["stones"]["score"] == 100 and 0 < tests["footholds"]["score"] < 100
    assert tests["stones"]["status"] == "passed" and tests["footholds"]["status"] == "failed"
    assert all({"name", "score", "max_score", "output"} <= set(test) for test in ben["tests"])
    cy = {test["name"]: test for test in json.loads((out / "cy" / "results.json").read_text())["tests"]}
    compile_error = cy["stones"]["output"]
    assert compile_error.startswith("CE: the submission did not compile")
    assert compile_error.count("error:") == 1 and "sample-1" not in compile_error  # the message once, no case lines
    single = make_class(tmp_path / "one", {"solo/stones.py": SOLUTIONS / "stones/accepted/game_dp.py"})
    target = tmp_path / "results" / "results.json"
    run_judge("grade", str(single), "--db", str(tmp_path / "one.db"), "--format", "gradescope", "--out", str(target))
    assert json.loads(target.read_text())["score"] == 100


def test_regrading_reuses_complete_results(graded):
    folder, db, data = graded
    query = "SELECT submission_id, case_name, wall_time FROM case_results ORDER BY 1, 2"
    with sqlite3.connect(db) as connection:
        before = connection.execute(query).fetchall()
    again = run_judge("grade", str(folder), "--db", str(db), "--format", "json")
    assert json.loads(again.stdout) == data
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM submissions").fetchone()[0] == 7
        after = connection.execute(query).fetchall()
    assert after == before  # no case was judged again: a rerun would have replaced its wall time


def test_fail_under(graded):
    folder, db, _ = graded
    assert run_judge("grade", str(folder), "--db", str(db), "--fail-under", "100").returncode == 1
    assert run_judge("grade", str(folder), "--db", str(db), "--fail-under", "0").returncode == 0


@pytest.mark.slow
def test_parallel_grading_gives_the_same_results(graded, tmp_path):
    folder, _, data = graded
    parallel = run_judge("grade", str(folder), "--db", str(tmp_path / "p.db"), "-j", "3", "--format", "json")
    serial = run_judge("grade", str(folder), "--db", str(tmp_path / "s.db"), "-j", "1", "--format", "json")
    assert json.loads(parallel.stdout) == json.loads(serial.stdout) == data


def test_bad_submission_folders_are_reported_not_fatal(tmp_path):
    folder = make_class(tmp_path / "subs", {
        "ok/stones.py": SOLUTIONS / "stones/accepted/game_dp.py",
        "odd/chess.py": "print(1)\n",
        "odd/stones.rb": "puts 1\n",
        "twice/stones.py": SOLUTIONS / "stones/accepted/game_dp.py",
        "twice/stones.c": SOLUTIONS / "stones/accepted/parity.c",
        "locked/stones.py": "print(1)\n",
        "stray.txt": "notes\n",
    })
    (folder / "empty").mkdir()
    os.chmod(folder / "locked" / "stones.py", 0)
    done = run_judge("grade", str(folder), "--db", str(tmp_path / "r.db"), "--format", "json")
    os.chmod(folder / "locked" / "stones.py", 0o644)
    assert done.returncode == 0, done.stderr
    issues = "\n".join(json.loads(done.stdout)["issues"])
    assert "odd/chess.py: no problem called 'chess'" in issues
    assert "odd/stones.rb: unsupported file type .rb" in issues
    assert "twice: 2 files for stones" in issues
    assert "stray.txt: not a student folder" in issues
    assert "empty: empty folder" in issues
    if os.geteuid() != 0:  # root reads everything
        assert "locked/stones.py: cannot be read" in issues
    assert run_judge("grade", str(tmp_path / "missing")).returncode == 2


@pytest.mark.slow
def test_a_killed_run_loses_nothing_and_resumes(tmp_path):
    folder = make_class(tmp_path / "subs", {
        "slow/stones.py": SOLUTIONS / "stones/time_limit_exceeded/plain_recursion.py",
    })
    db = tmp_path / "r.db"
    command = [sys.executable, "-m", "judge", "grade", str(folder), "--db", str(db), "-j", "1"]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    recorded = _wait_for_rows(db, at_least=14, process=process)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    with sqlite3.connect(db) as connection:
        before = connection.execute("SELECT case_name, wall_time FROM case_results").fetchall()
        assert connection.execute("SELECT complete FROM submissions").fetchone()[0] == 0
    assert recorded <= len(before) < 22
    done = run_judge("grade", str(folder), "--db", str(db), "--format", "json")
    result = json.loads(done.stdout)["students"][0]["problems"]["stones"]
    with sqlite3.connect(db) as connection:
        after = dict(connection.execute("SELECT case_name, wall_time FROM case_results").fetchall())
        assert connection.execute("SELECT complete FROM submissions").fetchone()[0] == 1
    assert len(after) == 22
    assert all(after[name] == wall for name, wall in before)  # recorded cases were not run again
    fresh = run_judge("grade", str(folder), "--db", str(tmp_path / "fresh.db"), "--format", "json")
    assert json.loads(fresh.stdout)["students"][0]["problems"]["stones"] == result


def test_the_resume_hint_after_ctrl_c_repeats_the_commands_own_options(tmp_path):
    folder = make_class(tmp_path / "subs", {
        "slow/stones.py": SOLUTIONS / "stones/time_limit_exceeded/plain_recursion.py",
    })
    db, out = tmp_path / "r.db", tmp_path / "my report.html"
    command = [sys.executable, "-m", "judge", "grade", str(folder), "--db", str(db), "-j", "1", "--format", "html",
               "--out", str(out)]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _wait_for_rows(db, at_least=2, process=process)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    assert f"--format html --out '{out}'" in stderr and f"--db {db}" in stderr, stderr


def _wait_for_rows(db: Path, at_least: int, process: subprocess.Popen, timeout: float = 120) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, "the grading run ended before it could be interrupted"
        try:
            with sqlite3.connect(db) as connection:
                count = connection.execute("SELECT COUNT(*) FROM case_results").fetchone()[0]
            if count >= at_least:
                return count
        except sqlite3.OperationalError:
            pass
        time.sleep(0.05)
    raise AssertionError("no case results were recorded in time")


def test_ranks_share_places():
    assert rank([10, 30, 30, 20]) == [4, 1, 1, 3]
    assert rank([]) == []


def test_icpc_penalty_counts_minutes_and_rejections():
    start = 1_000_000.0
    history = [
        {"student": "a", "problem": "p", "verdict": "WA", "score": 0, "max_score": 100, "submitted_at": start},
        {"student": "a", "problem": "p", "verdict": "TLE", "score": 0, "max_score": 100, "submitted_at": start + 300},
        {"student": "a", "problem": "p", "verdict": "AC", "score": 100, "max_score": 100, "submitted_at": start + 1200},
        {"student": "a", "problem": "p", "verdict": "WA", "score": 0, "max_score": 100, "submitted_at": start + 1500},
        {"student": "b", "problem": "p", "verdict": "AC", "score": 100, "max_score": 100, "submitted_at": start + 3000},
        {"student": "b", "problem": "q", "verdict": "WA", "score": 40, "max_score": 100, "submitted_at": start + 3100},
        {"student": "c", "problem": "p", "verdict": "AC", "score": 100, "max_score": 100, "submitted_at": start + 3000},
    ]
    standings = scoreboard(history, "icpc").standings
    by_name = {s.student: s for s in standings}
    assert by_name["a"].penalty == 20 + 2 * 20 and by_name["a"].total == 1
    assert by_name["b"].penalty == 50 and by_name["c"].penalty == 50
    assert [(s.student, s.rank) for s in standings] == [("b", 1), ("c", 1), ("a", 3)]
    ioi = scoreboard(history, "ioi").standings
    assert [(s.student, s.total, s.rank) for s in ioi] == [("b", 140, 1), ("a", 100, 2), ("c", 100, 2)]


def test_judge_run_records_and_scoreboard_shows_it(tmp_path):
    db = tmp_path / "r.db"
    run_judge("run", "stones", str(SOLUTIONS / "stones/wrong_answer/even_wins.py"), "--db", str(db), "--student", "zed")
    run_judge("run", "stones", str(SOLUTIONS / "stones/accepted/parity.c"), "--db", str(db), "--student", "zed")
    icpc = run_judge("scoreboard", "--db", str(db), "--mode", "icpc")
    assert "zed" in icpc.stdout and "2 / 0 *" in icpc.stdout  # two tries, solved first in minute 0
    ioi = run_judge("scoreboard", "--db", str(db))
    assert "zed" in ioi.stdout and "100" in ioi.stdout


def test_a_corrupt_database_is_a_clear_error(tmp_path):
    db = tmp_path / "bad.db"
    db.write_text("this is not sqlite" * 100)
    done = run_judge("scoreboard", "--db", str(db))
    assert done.returncode == 2 and "not a usable results database" in done.stderr


def test_a_frozen_scoreboard_counts_later_submissions_as_pending():
    start = 1_000_000.0
    row = lambda student, problem, verdict, minutes: {
        "student": student, "problem": problem, "verdict": verdict, "score": 100 if verdict == "AC" else 10,
        "max_score": 100, "submitted_at": start + minutes * 60}
    history = [row("a", "p", "WA", 0), row("b", "p", "AC", 30), row("a", "p", "AC", 90), row("a", "p", "WA", 95),
               row("c", "q", "AC", 100)]
    open_board = scoreboard(history, "icpc")
    assert [(s.student, s.rank, s.penalty) for s in open_board.standings] == [("b", 1, 30), ("c", 2, 100), ("a", 3, 110)]
    frozen = scoreboard(history, "icpc", freeze_at_minutes=60)
    assert frozen.frozen_at == start + 3600 and frozen.problems == ["p", "q"]
    by_name = {s.student: s for s in frozen.standings}
    assert [(s.student, s.rank) for s in frozen.standings] == [("b", 1), ("a", 2), ("c", 2)]
    assert by_name["a"].cells["p"].text() == "1 + 2 ?" and by_name["a"].cells["p"].frozen == 2
    assert by_name["c"].cells["q"].text() == "0 + 1 ?" and by_name["c"].cells["q"].state == "pending"
    ioi = scoreboard(history, "ioi", freeze_at_minutes=60)
    assert [(s.student, s.total, s.rank) for s in ioi.standings] == [("b", 100, 1), ("a", 10, 2), ("c", 0, 3)]


def test_the_scoreboard_can_be_frozen(graded):
    _, db, _ = graded
    done = run_judge("scoreboard", "--db", str(db), "--freeze-at", "0", "--mode", "icpc")
    assert done.returncode == 0, done.stderr
    assert "The scoreboard is frozen since" in done.stdout and " + 1 ?" in done.stdout
    assert run_judge("scoreboard", "--db", str(db), "--freeze-at", "-1").returncode == 2


def test_every_format_says_which_files_were_not_graded_and_why(tmp_path):
    folder = make_class(tmp_path / "subs", {
        "ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py",
        "ana/chess.py": "print(1)\n",
        "bo/Stones.rb": "puts 1\n",
        "bo/footholds.py": SOLUTIONS / "footholds/accepted/minimax.py",
    })
    db = tmp_path / "r.db"
    data = json.loads(run_judge("grade", str(folder), "--db", str(db), "--format", "json").stdout)
    assert {(entry["student"], entry["file"]) for entry in data["not_graded"]} == {("ana", "chess.py"), ("bo", "Stones.rb")}
    assert all(entry["reason"] for entry in data["not_graded"])
    markdown = run_judge("grade", str(folder), "--db", str(db), "--format", "markdown").stdout
    assert "- ana/chess.py: no problem called 'chess'" in markdown
    junit = ET.fromstring(run_judge("grade", str(folder), "--db", str(db), "--format", "junit").stdout)
    skipped = {case.get("name"): case.find("skipped") for case in junit.iterfind("testsuite[@name='not graded']/testcase")}
    assert set(skipped) == {"chess.py", "Stones.rb"} and "no problem called 'chess'" in skipped["chess.py"].get("message")
    assert junit.get("skipped") == "2"
    out = tmp_path / "gs"
    run_judge("grade", str(folder), "--db", str(db), "--format", "gradescope", "--out", str(out))
    bo = json.loads((out / "bo" / "results.json").read_text())
    stones = next(test for test in bo["tests"] if test["name"] == "stones")
    assert "Stones.rb" in stones["output"] and "no submission" not in stones["output"]
    # ana's chess.py is for no problem: listed in her overall output, not under footholds.
    ana = json.loads((out / "ana" / "results.json").read_text())
    footholds = next(test for test in ana["tests"] if test["name"] == "footholds")
    assert "chess.py" not in footholds["output"] and "chess.py" in ana["output"]
    html = run_judge("grade", str(folder), "--db", str(db), "--format", "html").stdout
    assert "<td>Stones.rb</td>" in html and "Not graded" in html


def test_a_file_graded_under_a_download_copy_name_is_not_listed_as_not_graded_in_any_format(tmp_path):
    """`stones (1).py` is graded as stones; the note saying so is not a file that was skipped."""
    folder = make_class(tmp_path / "subs", {"cy/stones (1).py": SOLUTIONS / "stones/accepted/game_dp.py"})
    db = tmp_path / "r.db"
    data = json.loads(run_judge("grade", str(folder), "--db", str(db), "--format", "json").stdout)
    assert data["students"][0]["problems"]["stones"]["verdict"] == "AC"
    assert data["not_graded"] == []
    assert any("graded as stones" in issue for issue in data["issues"])
    table = run_judge("grade", str(folder), "--db", str(db)).stdout
    assert "100 AC" in table and "not graded" not in table
    assert "Not graded" not in run_judge("grade", str(folder), "--db", str(db), "--format", "markdown").stdout
    assert "Not graded" not in run_judge("grade", str(folder), "--db", str(db), "--format", "html").stdout
    junit = ET.fromstring(run_judge("grade", str(folder), "--db", str(db), "--format", "junit").stdout)
    assert junit.find("testsuite[@name='not graded']") is None and junit.get("skipped") == "0"
    out = tmp_path / "gs"
    run_judge("grade", str(folder), "--db", str(db), "--format", "gradescope", "--out", str(out))
    assert "Not graded" not in json.loads((out / "cy" / "results.json").read_text())["output"]


def test_the_grade_table_fits_80_columns(tmp_path):
    folder = make_class(tmp_path / "subs", {
        "a-student-with-a-really-very-long-folder-name-from-an-lms-export/stones.py":
            SOLUTIONS / "stones/accepted/game_dp.py",
        "b/footholds.py": SOLUTIONS / "footholds/accepted/minimax.py",
        "b/a-file-whose-name-goes-on-and-on-and-on-and-on-and-on-and-on-and-on.py": "print(1)\n",
    })
    done = run_judge("grade", str(folder), "--db", str(tmp_path / "r.db"), env={"COLUMNS": "80"})
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stdout.splitlines() if len(line) > 80] == []
    assert "100 AC" in done.stdout and "a-student-with-a-really" in done.stdout
    assert "not graded:" in done.stdout


def test_hidden_cases_carry_verdict_and_message_only_in_every_format(tmp_path):
    """A program that prints its input to stderr and fails: no report shows a hidden input."""
    folder = make_class(tmp_path / "subs", {
        "eve/stones.py": "import sys\nn = input()\nsys.exit('secret input: ' + n)\n"})
    db = tmp_path / "r.db"
    junit = run_judge("grade", str(folder), "--db", str(db), "--format", "junit").stdout
    cases = {case.get("name"): case.find("failure") for case in ET.fromstring(junit).iter("testcase")}
    assert cases["sample-1"].get("message") == "RE: exit code 1: secret input: 5"
    assert cases["largest"].get("message") == "RE: exit code 1" and cases["largest"].text == "exit code 1"
    for output_format in ("json", "markdown", "html", "table"):
        text = run_judge("grade", str(folder), "--db", str(db), "--format", output_format).stdout
        assert "secret input: 1000" not in text and "secret input: 1\n" not in text
    out = tmp_path / "gs"
    run_judge("grade", str(folder), "--db", str(db), "--format", "gradescope", "--out", str(out))
    assert "secret input: 1000" not in (out / "eve" / "results.json").read_text()


def test_the_formats_are_the_modules_in_judge_renderers_grade():
    from judge.renderers import format_names
    assert format_names("grade") == ["table", "csv", "gradescope", "html", "json", "junit", "markdown"]
    assert "{table,csv,gradescope,html,json,junit,markdown}" in run_judge("grade", "--help").stdout
    assert format_names("similarity") == ["table", "html", "json"]
    assert format_names("run") == ["table", "json"]


def test_the_scoreboard_server_only_reads(graded):
    import re
    import urllib.error
    import urllib.request

    _, db, data = graded
    before = db.read_bytes()
    server = subprocess.Popen([sys.executable, "-m", "judge", "scoreboard", "--serve", "--port", "0", "--db", str(db)],
                              cwd=ROOT, stderr=subprocess.PIPE, text=True)
    try:
        url = re.search(r"http://127\.0\.0\.1:\d+/", server.stderr.readline()).group(0)
        standings = json.loads(urllib.request.urlopen(url + "standings.json", timeout=10).read())
        assert [row["student"] for row in standings["rows"]] == [s["student"] for s in data["students"]]
        assert [row["rank"] for row in standings["rows"]] == [s["rank"] for s in data["students"]]
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(urllib.request.Request(url, data=b"x", method="POST"), timeout=10)
        assert refused.value.code == 405
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(url + "../results.db", timeout=10)
        assert missing.value.code == 404
    finally:
        server.send_signal(signal.SIGINT)
        _, stderr = server.communicate(timeout=20)
    assert server.returncode == 0 and "scoreboard stopped" in stderr
    assert db.read_bytes() == before


def test_a_preview_after_the_problem_changed_shows_what_would_change_and_records_nothing(tmp_path):
    problems = tmp_path / "problems"
    (problems / "cases").mkdir(parents=True)
    (problems / "reference").mkdir()
    shutil.copy(ROOT / "cases" / "stones.yaml", problems / "cases")
    reference = problems / "reference" / "stones.py"
    shutil.copy(ROOT / "reference" / "stones.py", reference)
    folder = make_class(tmp_path / "subs", {
        "ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py",
        "ben/stones.py": SOLUTIONS / "stones/wrong_answer/even_wins.py",
    })
    db = tmp_path / "r.db"
    grade = ["grade", str(folder), "--db", str(db), "--problems", str(problems), "--format", "json"]
    assert run_judge(*grade).returncode == 0
    unchanged = json.loads(run_judge(*grade, "--preview").stdout)
    assert unchanged == {"changes": [], "unchanged": 0, "never_judged": []}
    # The teacher "fixes" the reference the wrong way round: every case but the sample flips.
    reference.write_text(reference.read_text().replace("n % 2 == 1", "n % 2 == 0"))
    with sqlite3.connect(db) as connection:
        rows_before = connection.execute("SELECT COUNT(*) FROM submissions").fetchone()[0]
    done = run_judge(*grade, "--preview")
    assert done.returncode == 0, done.stderr
    changes = {change["student"]: change for change in json.loads(done.stdout)["changes"]}
    assert changes["ana"]["before"]["verdict"] == "AC" and changes["ana"]["after"]["verdict"] == "WA"
    assert changes["ben"]["before"]["verdict"] == "WA" and changes["ben"]["after"]["score"] > changes["ben"]["before"]["score"]
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*) FROM submissions").fetchone()[0] == rows_before
    table = run_judge(*grade[:-2], "--preview").stdout
    assert "100 AC" in table and "nothing was recorded" in table
    assert run_judge(*grade).returncode == 0  # now recorded: a preview shows nothing left to change
    assert json.loads(run_judge(*grade, "--preview").stdout)["changes"] == []
