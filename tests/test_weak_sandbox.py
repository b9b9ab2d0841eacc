"""No silent weak grading: where the sandbox cannot hide this machine's files, grading other
people's code is refused unless asked for, and then every report says so."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import ROOT, run_judge

WEAK = {"JUDGE_SANDBOX": "none", "JUDGE_ALLOW_WEAK_SANDBOX": ""}
ACCEPTED = min((ROOT / "solutions/stones/accepted").glob("*.py"))


def class_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "subs"
    (folder / "ada").mkdir(parents=True)
    (folder / "ada" / "stones.py").write_bytes(ACCEPTED.read_bytes())
    return folder


def test_grading_in_a_weak_sandbox_is_refused_with_the_reason_and_the_fix(tmp_path):
    done = run_judge("grade", str(class_folder(tmp_path)), "--db", str(tmp_path / "r.db"), env=WEAK)
    assert done.returncode == 2, done.stdout + done.stderr
    message = done.stderr.strip()
    assert len(message.splitlines()) == 1 and "Traceback" not in message
    assert "cannot hide this machine's files" in message and "--allow-weak-sandbox" in message
    assert "Fix: unset JUDGE_SANDBOX (the " in message  # a stronger tier works here: only the variable was wrong
    assert not (tmp_path / "r.db").exists()


def test_judging_someone_elses_code_is_refused_but_ones_own_only_warned(tmp_path):
    as_student = run_judge("run", "stones", str(ACCEPTED), "--student", "ada", "--no-record", env=WEAK)
    assert as_student.returncode == 2 and "--allow-weak-sandbox" in as_student.stderr
    own = run_judge("run", "stones", str(ACCEPTED), "--no-record", env=WEAK)
    assert own.returncode == 0, own.stderr
    assert own.stderr.count("warning: the none sandbox tier cannot hide") == 1


def test_every_report_says_the_sandbox_was_weak_when_allowed(tmp_path):
    folder = class_folder(tmp_path)
    common = [str(folder), "--db", str(tmp_path / "r.db"), "--allow-weak-sandbox"]
    report = json.loads(run_judge("grade", *common, "--format", "json", env=WEAK).stdout)
    assert report["sandbox"]["tier"] == "none" and report["sandbox"]["isolation"] == "weak"
    assert report["students"][0]["total"] == 100
    for fmt in ("table", "junit", "markdown"):
        done = run_judge("grade", *common, "--format", fmt, env=WEAK)
        assert done.returncode == 0 and "weak sandbox" in done.stdout, (fmt, done.stdout, done.stderr)
    out = tmp_path / "gs"
    assert run_judge("grade", *common, "--format", "gradescope", "--out", str(out), env=WEAK).returncode == 0
    assert "weak sandbox" in json.loads((out / "ada" / "results.json").read_text())["output"]


def test_a_fully_isolated_run_reports_full_isolation(tmp_path):
    common = [str(class_folder(tmp_path)), "--db", str(tmp_path / "r.db")]
    report = json.loads(run_judge("grade", *common, "--format", "json", env={"JUDGE_SANDBOX": "bwrap"}).stdout)
    assert report["sandbox"] == {"tier": "bwrap", "isolation": "full"}
    assert "weak sandbox" not in run_judge("grade", *common, env={"JUDGE_SANDBOX": "bwrap"}).stdout
