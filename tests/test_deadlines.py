"""`judge grade --deadline`: a student's git repository is graded at its last commit by the
deadline (later commits listed as late, or graded with a penalty per day); a folder without git
by its files' times."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from conftest import ROOT, run_judge

SOLUTIONS = ROOT / "solutions" / "stones"
ACCEPTED = (SOLUTIONS / "accepted" / "game_dp.py").read_text()
WRONG = (SOLUTIONS / "wrong_answer" / "even_wins.py").read_text()
DEADLINE = "2026-11-20T23:59:00+00:00"
BEFORE, ONE_DAY_LATE, THREE_DAYS_LATE = "2026-11-19T10:00:00+00:00", "2026-11-21T08:00:00+00:00", \
    "2026-11-23T12:00:00+00:00"


def commit(repository: Path, text: str, when: str) -> str:
    (repository / "stones.py").write_text(text)
    env = {**os.environ, "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when, "GIT_AUTHOR_NAME": "s",
           "GIT_AUTHOR_EMAIL": "s@example.com", "GIT_COMMITTER_NAME": "s", "GIT_COMMITTER_EMAIL": "s@example.com"}
    git = ["git", "-C", str(repository)]
    subprocess.run([*git, "add", "stones.py"], check=True, env=env)
    subprocess.run([*git, "commit", "-q", "-m", "work"], check=True, env=env)
    return subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()


@pytest.fixture
def classroom(tmp_path: Path) -> Path:
    """ann committed a wrong answer in time and fixed it a day late; bob was right in time and
    committed nothing after; cat began only three days late; dan has no git: his file is
    dated after the deadline."""
    root = tmp_path / "class"
    for student in ("ann", "bob", "cat"):
        (root / student).mkdir(parents=True)
        subprocess.run(["git", "init", "-q", str(root / student)], check=True)
    commit(root / "ann", WRONG, BEFORE)
    commit(root / "ann", ACCEPTED, ONE_DAY_LATE)
    commit(root / "bob", ACCEPTED, BEFORE)
    commit(root / "cat", ACCEPTED, THREE_DAYS_LATE)
    (root / "dan").mkdir()
    (root / "dan" / "stones.py").write_text(ACCEPTED)
    late = 1_795_400_000  # 2026-11-23 UTC, after the deadline
    os.utime(root / "dan" / "stones.py", (late, late))
    return root


def graded(classroom: Path, tmp_path: Path, *options: str) -> dict:
    done = run_judge("grade", str(classroom), "--db", str(tmp_path / "r.db"), "--format", "json",
                     "--deadline", DEADLINE, *options)
    assert done.returncode == 0, done.stderr
    return {student["student"]: student for student in json.loads(done.stdout)["students"]}


def test_the_last_commit_by_the_deadline_is_graded_and_later_ones_listed(classroom, tmp_path):
    students = graded(classroom, tmp_path)
    assert students["ann"]["problems"]["stones"]["verdict"] == "WA"  # the fix came late
    assert len(students["ann"]["late"]["late_commits"]) == 1
    assert students["bob"]["problems"]["stones"]["score"] == 100 and students["bob"]["late"]["late_commits"] == []
    # excluded as late: neither a score of 0 nor missing
    assert students["cat"]["problems"]["stones"] == {"status": "late", "score": None} and students["cat"]["total"] == 0
    assert students["dan"]["late"]["source"] == "file times" and students["dan"]["total"] == 0
    assert students["dan"]["problems"]["stones"]["status"] == "late"
    assert students["dan"]["late"]["late_files"] == ["stones.py"]


def test_work_left_out_as_late_is_named_as_such_not_as_an_empty_folder(classroom, tmp_path):
    done = run_judge("grade", str(classroom), "--db", str(tmp_path / "r.db"), "--format", "json",
                     "--deadline", DEADLINE)
    not_graded = {(item["student"], item["reason"]) for item in json.loads(done.stdout)["not_graded"]}
    assert ("cat", "no commit at or before the deadline") in not_graded
    assert ("dan", "changed after the deadline (by its file time: no git repository), so not graded") in not_graded
    assert not [student for student, reason in not_graded if reason == "empty folder"], not_graded


def test_a_late_penalty_grades_late_work_for_less(classroom, tmp_path):
    students = graded(classroom, tmp_path, "--late-penalty", "10%/day")
    assert students["ann"]["problems"]["stones"]["verdict"] == "AC"
    assert students["ann"]["late"]["days_late"] == 1 and students["ann"]["problems"]["stones"]["score"] == 90
    assert students["cat"]["late"]["days_late"] == 3 and students["cat"]["total"] == 70
    assert students["bob"]["total"] == 100 and students["bob"]["rank"] == 1
    # --late-until: cat's work came after it, so nothing of cat's counts.
    students = graded(classroom, tmp_path, "--late-penalty", "10%/day", "--late-until", "2026-11-22")
    assert students["cat"]["total"] == 0 and students["ann"]["total"] == 90


def test_a_hostile_repository_runs_nothing_as_the_grader(classroom, tmp_path):
    marker = tmp_path / "ran"
    hook = classroom / "ann" / ".git" / "hooks" / "post-checkout"
    hook.write_text(f"#!/bin/sh\ntouch {marker}\n")
    hook.chmod(0o755)
    with open(classroom / "ann" / ".git" / "config", "a") as config:
        config.write(f"[core]\n\tfsmonitor = touch {marker}\n\tpager = touch {marker}\n")
    students = graded(classroom, tmp_path)
    assert students["ann"]["problems"]["stones"]["verdict"] == "WA"
    assert not marker.exists()


@pytest.mark.parametrize(("options", "says"), [
    (["--deadline", "tomorrow"], "is not a time"),
    (["--late-penalty", "10%/day"], "need --deadline"),
    (["--deadline", DEADLINE, "--late-penalty", "lots"], "not a share of the score per day"),
    (["--deadline", DEADLINE, "--late-until", "2026-12-01"], "--late-until needs --late-penalty"),
    (["--deadline", DEADLINE, "--late-penalty", "5%/day", "--late-until", "2026-11-01"], "is before --deadline"),
])
def test_bad_deadline_options_get_a_clear_error(classroom, options, says):
    done = run_judge("grade", str(classroom), *options)
    assert done.returncode == 2 and says in done.stderr and "Traceback" not in done.stderr, done.stderr
