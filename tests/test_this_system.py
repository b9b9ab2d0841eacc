"""The judge on the system the tests run on, whichever it is (the repository's CI runs this on
Linux, Windows and macOS): a student's run works, and the sandbox tier it was judged in is said,
with the way to a stronger one where there is one."""

from __future__ import annotations

import sys

from conftest import ROOT, run_judge

ACCEPTED = ROOT / "solutions/stones/accepted/game_dp.py"
WRONG = ROOT / "solutions/stones/wrong_answer"
FIX = {"win32": "WSL", "darwin": "Linux container or virtual machine"}


def test_a_students_run_is_judged_here(tmp_path):
    done = run_judge("run", "stones", str(ACCEPTED), "--no-record", cwd=tmp_path, env={"JUDGE_SANDBOX": ""})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "AC  22/22 cases passed" in done.stdout
    assert "Traceback" not in done.stderr
    if sys.platform in FIX:
        assert "no namespace isolation is available" in done.stderr and FIX[sys.platform] in done.stderr


def test_a_wrong_answer_is_told_apart_here(tmp_path):
    wrong = min(WRONG.glob("*.py"))
    done = run_judge("run", "stones", str(wrong), "--no-record", cwd=tmp_path, env={"JUDGE_SANDBOX": ""})
    assert "WA" in done.stdout and "Traceback" not in done.stderr, done.stdout + done.stderr


def test_doctor_names_the_tier_in_force_here(tmp_path):
    done = run_judge("doctor", cwd=tmp_path, env={"JUDGE_SANDBOX": ""})
    assert "sandbox tier: " in done.stdout, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    if sys.platform in FIX:
        assert "sandbox tier: none" in done.stdout and "has no Linux namespaces" in done.stdout
