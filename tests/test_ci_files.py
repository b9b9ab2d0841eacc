"""The CI files: those the class-in-CI tutorial gives (GitHub Actions, GitLab CI, a container) and
the repository's own workflow. Each is valid YAML naming the steps it must; and the tutorial's
claim that a push changing one student's file judges that file only is tried with the workflow's
own Grade step, run twice with the results store carried between the runs as its cache does."""

from __future__ import annotations

import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import ROOT

TUTORIAL = ROOT / "docs/tutorials/class-in-ci.md"
FENCE = re.compile(r"^```[\w-]*(?P<info>[^\n]*)\n(?P<body>.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
ACCEPTED = ROOT / "solutions/stones/accepted/game_dp.py"
WRONG = ROOT / "solutions/stones/wrong_answer/even_wins.py"
SYSCTL = "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"


def shown_file(title: str) -> str:
    """The body of the tutorial's block captioned ``title``."""
    text = TUTORIAL.read_text(encoding="utf-8")
    found = [match["body"] for match in FENCE.finditer(text) if f'title="{title}"' in match["info"]]
    assert len(found) == 1, f"{TUTORIAL.name} shows {len(found)} blocks titled {title}"
    return found[0]


def github_steps() -> list[dict]:
    workflow = yaml.safe_load(shown_file(".github/workflows/grade.yml"))
    job = workflow["jobs"]["grade"]
    assert job["runs-on"] == "ubuntu-latest"
    return job["steps"]


def step_index(steps: list[dict], test) -> int:
    found = [index for index, step in enumerate(steps) if test(step)]
    assert len(found) == 1, f"{len(found)} steps match"
    return found[0]


def test_the_github_workflow_makes_isolation_possible_then_says_the_tier_then_grades():
    steps = github_steps()
    sysctl = step_index(steps, lambda step: SYSCTL in step.get("run", ""))
    doctor = step_index(steps, lambda step: step.get("run", "").strip() == "judge doctor")
    grade = step_index(steps, lambda step: step.get("name") == "Grade")
    assert sysctl < doctor < grade
    assert "judge grade submissions" in steps[grade]["run"]


def test_the_github_workflow_keeps_the_store_between_runs():
    steps = github_steps()
    restore = step_index(steps, lambda step: step.get("uses", "").startswith("actions/cache/restore@"))
    save = step_index(steps, lambda step: step.get("uses", "").startswith("actions/cache/save@"))
    grade = step_index(steps, lambda step: step.get("name") == "Grade")
    assert restore < grade < save
    restored, saved = steps[restore]["with"], steps[save]["with"]
    assert restored["path"] == saved["path"] == ".judge"  # where `judge grade` keeps its store by default
    assert restored["key"] == saved["key"]
    assert "hashFiles('submissions/**', 'problems/**')" in restored["key"]
    assert restored["key"].startswith(restored["restore-keys"])  # an older store comes back
    assert "always()" in steps[save]["if"]  # a run failing --fail-under keeps what it judged


def test_the_gitlab_job_says_the_tier_and_keeps_its_store():
    job = yaml.safe_load(shown_file(".gitlab-ci.yml"))["grade"]
    assert job["cache"]["paths"] == [".judge/"] and job["cache"]["when"] == "always"
    assert job["cache"]["fallback_keys"]
    script = job["script"]
    assert "judge doctor" in script
    assert script.index("judge doctor") < min(index for index, line in enumerate(script) if "judge grade" in line)


def test_the_container_is_run_with_what_bwrap_needs():
    assert 'ENTRYPOINT ["judge"]' in shown_file("Dockerfile")
    text = TUTORIAL.read_text(encoding="utf-8").replace("\\\n", " ")
    runs = [line for line in text.splitlines() if line.startswith("docker run ")]
    assert runs, "no docker run line"
    for option in ("seccomp=unconfined", "apparmor=unconfined", "systempaths=unconfined"):
        assert f"--security-opt {option}" in runs[0]


def test_the_repository_workflow_runs_the_tests_on_three_systems():
    workflow = yaml.safe_load((ROOT / ".github/workflows/tests.yml").read_text(encoding="utf-8"))
    job = workflow["jobs"]["tests"]
    assert job["strategy"]["matrix"]["os"] == ["ubuntu-latest", "macos-latest", "windows-latest"]
    assert job["runs-on"] == "${{ matrix.os }}"
    runs = [step.get("run", "") for step in job["steps"]]
    assert any("python -m pytest" in run for run in runs)
    assert any(SYSCTL in run for run in runs) and any("lint-imports" in run for run in runs)


def _grade_step(folder: Path, bin_dir: Path) -> subprocess.CompletedProcess:
    """The tutorial's Grade step, run by bash as GitHub runs a step, in ``folder``."""
    script = next(step["run"] for step in github_steps() if step.get("name") == "Grade")
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "GITHUB_STEP_SUMMARY": str(folder / "summary.md"), "PYTHONPATH": str(ROOT)}
    return subprocess.run(["bash", "-e", "-c", script], cwd=folder, env=env, capture_output=True, text=True,
                          timeout=600, check=False)


def _store_rows(folder: Path) -> tuple[list[tuple], list[tuple]]:
    """(submissions, case results) recorded in ``folder``'s store."""
    with sqlite3.connect(folder / ".judge/results.db") as db:
        submissions = db.execute("SELECT id, student, source_hash, complete FROM submissions ORDER BY id").fetchall()
        cases = db.execute("SELECT * FROM case_results ORDER BY submission_id, position").fetchall()
    return submissions, cases


@pytest.mark.linux_only(reason="runs the workflow's Grade step with bash, on the Linux it is written for")
def test_a_push_that_changes_one_students_file_judges_that_file_only(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "judge").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m judge "$@"\n')
    (bin_dir / "judge").chmod(0o755)
    first = tmp_path / "first-push"
    for student, source in (("alice", ACCEPTED), ("bob", WRONG)):
        (first / "submissions" / student).mkdir(parents=True)
        shutil.copy(source, first / "submissions" / student / "stones.py")
    done = _grade_step(first, bin_dir)
    assert done.returncode == 1 and "below 50: bob" in done.stderr, done.stdout + done.stderr
    assert "| alice" in (first / "summary.md").read_text()
    submissions, cases = _store_rows(first)
    # The grade judges students side by side, so the store's ids follow whoever started first.
    assert sorted(row[1] for row in submissions) == ["alice", "bob"] and all(row[3] for row in submissions)
    alice_row = next(row for row in submissions if row[1] == "alice")

    # The next push: a fresh checkout where bob's file changed, and the store the cache restores.
    second = tmp_path / "second-push"
    shutil.copytree(first / "submissions", second / "submissions")
    (second / "submissions/bob/stones.py").write_text("n = int(input())\nprint('SK' if n % 2 else 'CY')\n")
    shutil.copytree(first / ".judge", second / ".judge")
    done = _grade_step(second, bin_dir)
    assert done.returncode == 0, done.stdout + done.stderr
    after, cases_after = _store_rows(second)
    alice = alice_row[0]
    assert [row for row in after if row[1] == "alice"] == [alice_row]
    # Every case of alice's file is the row judged in the first run, to the measured microsecond:
    # nothing of hers ran again.
    assert [row for row in cases_after if row[0] == alice] == [row for row in cases if row[0] == alice]
    new = [row for row in after if row not in submissions]
    assert [(row[1], row[3]) for row in new] == [("bob", 1)]
    assert len([row for row in cases_after if row[0] == new[0][0]]) == len([row for row in cases if row[0] == alice])
