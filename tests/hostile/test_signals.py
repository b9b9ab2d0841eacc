"""A judge that is told to stop (Ctrl-C, SIGTERM from a cancelled CI job, SIGHUP) stops within
seconds: every sandboxed process of every running case dies with it, its scratch directories
go, what was recorded stays, and the next `judge grade` resumes from there."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.hostile.test_hostile import HERE, ROOT, TIERS, leftover_processes, program_marker

LOOPER = "loops_on_large.c"
CASES_BEFORE_THE_LOOP = 10  # stones' cases with fewer than 900 stones, before the first large one


def class_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "subs"
    (folder / "ada").mkdir(parents=True)
    (folder / "ada" / "stones.c").write_bytes((HERE / LOOPER).read_bytes())
    return folder


def recorded(db: Path) -> dict[str, int]:
    """case name -> rowid of the recorded case results (a case judged again gets a new rowid)."""
    if not db.exists():
        return {}
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=30) as connection:
        try:
            return dict(connection.execute("SELECT case_name, rowid FROM case_results"))
        except sqlite3.OperationalError:
            return {}


def start_grading(folder: Path, db: Path, tier: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "judge", "grade", str(folder), "--db", str(db),
                             "--format", "json", "-j", "2", "--allow-weak-sandbox"],
                            cwd=ROOT, env={**os.environ, "JUDGE_SANDBOX": tier},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def stop_in_the_loop(judge: subprocess.Popen, db: Path, signum: int) -> tuple[int, str, float]:
    """Once the looping case runs, send ``signum``; (exit status, stderr, seconds to exit)."""
    deadline = time.monotonic() + 120
    while len(recorded(db)) < CASES_BEFORE_THE_LOOP and judge.poll() is None:
        assert time.monotonic() < deadline, "the judge never reached the looping case"
        time.sleep(0.1)
    time.sleep(0.5)  # the looping case is running now
    sent = time.monotonic()
    judge.send_signal(signum)
    try:
        _, stderr = judge.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        judge.kill()
        judge.communicate()
        pytest.fail(f"the judge did not stop within 15 s of {signal.Signals(signum).name}")
    return judge.returncode, stderr, time.monotonic() - sent


def nothing_left(pid: int) -> None:
    assert not leftover_processes(program_marker(LOOPER))
    scratch = [*Path("/tmp").glob(f"judge-run-{pid}-*"), *Path("/tmp").glob(f"judge-server-{pid}-*")]
    assert not scratch


@pytest.mark.parametrize("tier", TIERS)
def test_sigterm_stops_every_run_and_keeps_what_was_recorded(tier, tmp_path):
    folder, db = class_folder(tmp_path), tmp_path / "results.db"
    judge = start_grading(folder, db, tier)
    status, stderr, _ = stop_in_the_loop(judge, db, signal.SIGTERM)
    assert status == 128 + signal.SIGTERM, stderr
    nothing_left(judge.pid)
    assert len(recorded(db)) >= CASES_BEFORE_THE_LOOP


def test_ctrl_c_stops_grading_and_the_next_grade_resumes(tmp_path):
    folder, db = class_folder(tmp_path), tmp_path / "results.db"
    judge = start_grading(folder, db, TIERS[0])
    status, stderr, _ = stop_in_the_loop(judge, db, signal.SIGINT)
    assert status == 128 + signal.SIGINT, stderr
    assert "again resumes" in stderr and "Traceback" not in stderr
    nothing_left(judge.pid)
    before = recorded(db)
    assert len(before) >= CASES_BEFORE_THE_LOOP
    again = subprocess.run([sys.executable, "-m", "judge", "grade", str(folder), "--db", str(db), "--format", "json"],
                           cwd=ROOT, env={**os.environ, "JUDGE_SANDBOX": TIERS[0]}, capture_output=True,
                           text=True, timeout=300, check=False)
    assert again.returncode in (0, 1), again.stderr
    after = recorded(db)
    assert len(after) == 22
    assert all(after[name] == rowid for name, rowid in before.items())  # not judged again
