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
from conftest import ROOT, run_judge

from judge.scoreboard import icpc_standings, ioi_standings
from judge.scoring import rank

SOLUTIONS = ROOT / "solutions"


def make_class(folder: Path, files: dict[str, Path | str]) -> Path:
    """files maps 'student/problem.ext' to a solution path (copied) or text (written)."""
    for name, source in files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(source, Path):
            shutil.copy(source, target)
        else:
            target.write_text(source)
    return folder


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
    assert by_name["cy"]["problems"]["stones"] == {"score": 0.0, "verdict": "CE"}
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
    compile_failure = suites["cy.stones"].find("testcase/failure")
    assert compile_failure.get("type") == "CE" and "main.cpp" in compile_failure.text


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
    _, standings = icpc_standings(history)
    by_name = {s.student: s for s in standings}
    assert by_name["a"].penalty == 20 + 2 * 20 and by_name["a"].total == 1
    assert by_name["b"].penalty == 50 and by_name["c"].penalty == 50
    assert [(s.student, s.rank) for s in standings] == [("b", 1), ("c", 1), ("a", 3)]
    _, ioi = ioi_standings(history)
    assert [(s.student, s.total, s.rank) for s in ioi] == [("b", 140, 1), ("a", 100, 2), ("c", 100, 2)]


def test_judge_run_records_and_scoreboard_shows_it(tmp_path):
    db = tmp_path / "r.db"
    run_judge("run", "stones", str(SOLUTIONS / "stones/wrong_answer/even_wins.py"), "--db", str(db), "--student", "zed")
    run_judge("run", "stones", str(SOLUTIONS / "stones/accepted/parity.c"), "--db", str(db), "--student", "zed")
    icpc = run_judge("scoreboard", "--db", str(db), "--mode", "icpc")
    assert "zed" in icpc.stdout and "+1" in icpc.stdout
    ioi = run_judge("scoreboard", "--db", str(db))
    assert "zed" in ioi.stdout and "100" in ioi.stdout


def test_a_corrupt_database_is_a_clear_error(tmp_path):
    db = tmp_path / "bad.db"
    db.write_text("this is not sqlite" * 100)
    done = run_judge("scoreboard", "--db", str(db))
    assert done.returncode == 2 and "not a usable results database" in done.stderr
