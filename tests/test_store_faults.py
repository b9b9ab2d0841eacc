"""The results store under faults: two graders writing one store at once, a store that is not
a database or is from a newer judge, a full disk. (A `kill -9` at any moment is in
test_grading.py.) Every test runs the real `judge grade` in subprocesses."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from conftest import ROOT, run_judge
from test_grading import SOLUTIONS, _wait_for_rows, make_class

from judge.classroom.store import SCHEMA_VERSION


def _grade(folder: Path, db: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "judge", "grade", str(folder), "--db", str(db),
                             "--format", "json", *extra], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_the_store_uses_a_write_ahead_log_and_waits_for_a_busy_writer(tmp_path):
    from judge.classroom.store import Store
    store = Store(tmp_path / "r.db")
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store.db.execute("PRAGMA busy_timeout").fetchone()[0] >= 10_000
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    store.close()


def test_two_graders_writing_one_store_neither_lose_nor_duplicate_a_row(tmp_path):
    accepted = {"stones": SOLUTIONS / "stones/accepted/parity.c",
                "footholds": SOLUTIONS / "footholds/accepted/minimax.py"}
    wrong = SOLUTIONS / "stones/wrong_answer/even_wins.py"
    shared = {f"s{index}/{problem}{path.suffix}": path for index in range(6)
              for problem, path in accepted.items()}
    first = make_class(tmp_path / "first", {**shared, "only1/stones.py": wrong})
    second = make_class(tmp_path / "second", {**shared, "only2/stones.c": accepted["stones"]})
    db = tmp_path / "shared.db"
    runs = [_grade(first, db, "-j", "2"), _grade(second, db, "-j", "2")]
    outputs = [run.communicate(timeout=600) for run in runs]
    for run, (_, stderr) in zip(runs, outputs):
        assert run.returncode == 0, stderr
    reports = [json.loads(stdout) for stdout, _ in outputs]
    with sqlite3.connect(db) as connection:
        submissions = connection.execute(
            "SELECT student, problem, COUNT(*), SUM(complete) FROM submissions GROUP BY student, problem").fetchall()
        cases = dict(connection.execute("SELECT submission_id, COUNT(*) FROM case_results GROUP BY 1").fetchall())
        duplicates = connection.execute("SELECT COUNT(*) FROM (SELECT submission_id, case_name FROM case_results "
                                        "GROUP BY 1, 2 HAVING COUNT(*) > 1)").fetchone()[0]
        sizes = dict(connection.execute("SELECT id, problem FROM submissions").fetchall())
    assert len(submissions) == 6 * 2 + 2
    assert all(count == 1 and complete == 1 for _, _, count, complete in submissions), submissions
    assert duplicates == 0
    suite_sizes = {"stones": 22, "footholds": _suite_size("footholds")}
    assert {submission: suite_sizes[problem] for submission, problem in sizes.items()} == cases
    by_student = [{student["student"]: student for student in report["students"]} for report in reports]
    for index in range(6):  # each report has every submission's result (verdicts are the sandbox's affair)
        assert set(by_student[0][f"s{index}"]["problems"]) == set(by_student[1][f"s{index}"]["problems"]) \
            == {"stones", "footholds"}, [report["issues"] for report in reports]


def _claim_submissions(db: str, students: int, results) -> None:
    """Ask the store for the same submissions' rows as fast as it answers (run in two processes)."""
    from judge.classroom.store import Store
    from judge.formats.catalog import load_problem
    store = Store(Path(db))
    problem = load_problem("stones")
    source = SOLUTIONS / "stones/accepted/parity.c"
    try:
        ids = [store.submission(f"student{index}", problem, source, "c")[0] for index in range(students)]
        results.put(ids)
    except Exception as error:  # noqa: BLE001 - reported to the test, which fails on it
        results.put(f"{type(error).__name__}: {error}")
    finally:
        store.close()


def test_two_processes_claiming_the_same_submissions_get_the_same_rows(tmp_path):
    import multiprocessing
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    db = str(tmp_path / "claims.db")
    workers = [context.Process(target=_claim_submissions, args=(db, 300, results)) for _ in range(3)]
    for worker in workers:
        worker.start()
    answers = [results.get(timeout=120) for _ in workers]
    for worker in workers:
        worker.join(timeout=60)
    assert all(isinstance(answer, list) for answer in answers), answers
    assert answers[0] == answers[1] == answers[2]
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT COUNT(*), COUNT(DISTINCT student) FROM submissions").fetchone() == (300, 300)
    connection.close()


def _suite_size(problem: str) -> int:
    from judge.formats.catalog import load_problem
    return len(load_problem(problem).cases)


@pytest.mark.parametrize("content", [b"this is not sqlite\n" * 200, b"\x00\x01binary\xff" * 512], ids=["text", "binary"])
def test_a_store_that_is_not_a_database_is_refused_and_left_as_it_was(tmp_path, content):
    folder = make_class(tmp_path / "subs", {"ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py"})
    db = tmp_path / "results.db"
    db.write_bytes(content)
    done = run_judge("grade", str(folder), "--db", str(db))
    assert done.returncode == 2
    assert str(db) in done.stderr and "not a usable results database" in done.stderr and "--db" in done.stderr
    assert "Traceback" not in done.stderr
    assert db.read_bytes() == content
    assert sorted(path.name for path in tmp_path.iterdir()) == ["results.db", "subs"]


def test_a_store_from_a_newer_judge_is_refused_and_left_as_it_was(tmp_path):
    folder = make_class(tmp_path / "subs", {"ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py"})
    db = tmp_path / "results.db"
    assert run_judge("grade", str(folder), "--db", str(db)).returncode == 0
    with sqlite3.connect(db) as connection:
        connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    before = db.read_bytes()
    for command in (("grade", str(folder)), ("scoreboard",)):
        done = run_judge(*command, "--db", str(db))
        assert done.returncode == 2, done.stderr
        assert str(db) in done.stderr and "newer" in done.stderr and "--db" in done.stderr
        assert db.read_bytes() == before


def test_a_database_of_something_else_is_not_taken_over(tmp_path):
    db = tmp_path / "notes.db"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
        connection.execute("INSERT INTO notes VALUES ('mine')")
    connection.close()
    before = db.read_bytes()
    done = run_judge("scoreboard", "--db", str(db))
    assert done.returncode == 2 and str(db) in done.stderr and "not a usable results database" in done.stderr
    assert db.read_bytes() == before


@pytest.fixture
def small_disk(tmp_path):
    """A 2 MiB file system of its own (tmpfs), unmounted afterwards."""
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount_point)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small file system here ({done.stderr.strip() or 'mount failed'}); "
                    "the full-disk test needs root or CAP_SYS_ADMIN")
    yield mount_point
    subprocess.run(["umount", "-l", str(mount_point)], check=False)


def _fill(folder: Path) -> Path:
    filler = folder / f"filler-{uuid.uuid4().hex}"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(descriptor, b"\0" * 4096)
    except OSError:
        pass
    finally:
        os.close(descriptor)
    return filler


SLOW_CASES = ("SELECT case_name, wall_time FROM case_results JOIN submissions ON submissions.id = submission_id "
              "WHERE student = 'slow'")


def test_a_full_disk_is_a_clear_error_and_what_was_recorded_stays(tmp_path, small_disk):
    folder = make_class(tmp_path / "subs", {
        "slow/stones.py": "import time\ntime.sleep(0.2)\nprint('SK' if int(input()) % 2 else 'CY')\n",
        "late/stones.c": SOLUTIONS / "stones/accepted/parity.c",
    })
    db = small_disk / "results.db"
    process = _grade(folder, db, "-j", "1")
    _wait_for_rows(db, at_least=22 + 3, process=process)  # late (judged first) and 3 of slow
    filler = _fill(small_disk)
    _, stderr = process.communicate(timeout=300)
    assert process.returncode == 2, stderr
    assert "Traceback" not in stderr
    assert str(db) in stderr and "full" in stderr and "resume" in stderr, stderr
    filler.unlink()
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        kept = dict(connection.execute(SLOW_CASES).fetchall())
    connection.close()
    assert len(kept) >= 3
    done = run_judge("grade", str(folder), "--db", str(db), "--format", "json")
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(db) as connection:
        after = connection.execute(SLOW_CASES).fetchall()
    connection.close()
    assert len(after) == 22
    assert all(kept[name] == wall for name, wall in after if name in kept)  # not judged again
    scores = {s["student"]: s["total"] for s in json.loads(done.stdout)["students"]}
    assert scores == {"late": 100, "slow": 100}


VERSION_1_CASE_RESULTS = """CREATE TABLE case_results (
    submission_id INTEGER NOT NULL REFERENCES submissions (id), position INTEGER NOT NULL,
    case_name TEXT NOT NULL, case_group TEXT NOT NULL, verdict TEXT NOT NULL, cpu_time REAL NOT NULL,
    wall_time REAL NOT NULL, memory_kb INTEGER NOT NULL, message TEXT NOT NULL, visibility TEXT NOT NULL,
    PRIMARY KEY (submission_id, case_name))"""


def test_a_store_of_the_first_schema_is_brought_up_to_date_and_keeps_its_rows(tmp_path):
    from judge.classroom.store import Store
    db = tmp_path / "old.db"
    with sqlite3.connect(db) as connection:
        connection.execute(VERSION_1_CASE_RESULTS)
        connection.execute("INSERT INTO case_results VALUES (1, 0, 'smallest', 'edges', 'AC', 0.1, 0.1, 10, '', 'hidden')")
        connection.execute("PRAGMA user_version = 1")
    store = Store(db)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    [kept] = store.recorded_cases(1)
    assert (kept.name, kept.verdict, kept.output_excerpt) == ("smallest", "AC", "")
    store.close()


def test_a_report_rebuilt_from_the_store_keeps_a_samples_output(tmp_path):
    folder = tmp_path / "subs"
    (folder / "ana").mkdir(parents=True)
    (folder / "ana" / "stones.py").write_text((SOLUTIONS / "stones/wrong_answer/even_wins.py").read_text())
    db = tmp_path / "r.db"
    first = subprocess.run([sys.executable, "-m", "judge", "grade", str(folder), "--db", str(db), "--format", "html",
                            "--out", str(tmp_path / "first.html")], cwd=ROOT, capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    again = subprocess.run([sys.executable, "-m", "judge", "grade", str(folder), "--db", str(db), "--format", "html",
                            "--out", str(tmp_path / "again.html")], cwd=ROOT, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    rebuilt = (tmp_path / "again.html").read_text()
    assert "no output kept" not in rebuilt and ">CY<" in rebuilt.replace('</span>', '<')
