"""A package's output limit as DOMjudge and problemtools apply it: the program runs on past the
limit (its writes fail), so one that writes without end is TLE and one that writes too much and
ends in time is OLE; a student's run stops at the limit (judge/sandbox/limits.py). Packages are
judged in a cold run (judge/sandbox/spawn.py) and a warm one (judge/harness/exec_server.py)."""

from __future__ import annotations

import signal

import pytest
from conftest import ROOT, run_judge

from judge.model.vocabulary import COLD_ENV
from judge.sandbox import Limits, run_sandboxed
from judge.sandbox.tiers import SANDBOX_ENV

FLOOD = ROOT / "tests" / "packages" / "flood"


def verdict_lines(output: str) -> dict[str, str]:
    return {line.split("  ")[1]: line.split("  ")[3] for line in output.splitlines() if "  submission " in line}


@pytest.mark.parametrize("cold", [False, True], ids=["warm", "cold"])
def test_a_flood_without_end_is_too_slow_and_one_that_ends_is_over_the_limit(cold):
    done = run_judge("test", str(FLOOD), env={COLD_ENV: "1"} if cold else {})
    assert done.returncode == 0, done.stdout + done.stderr
    lines = verdict_lines(done.stdout)
    assert lines["submission time_limit_exceeded/floods.c"].startswith("got TLE"), done.stdout
    assert lines["submission time_limit_exceeded/floods.cpp"].startswith("got TLE"), done.stdout
    assert lines["submission run_time_error/writes_too_much.c"].startswith("got OLE"), done.stdout
    assert lines["submission run_time_error/writes_too_much.py"].startswith("got OLE"), done.stdout


def test_the_unshare_tier_lets_the_flood_run_on_too():
    done = run_judge("test", str(FLOOD), env={COLD_ENV: "1", SANDBOX_ENV: "unshare"})
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("stop", [True, False], ids=["stops", "runs-on"])
def test_a_write_past_the_limit_stops_the_program_or_only_fails(stop):
    limits = Limits.for_cpu(5.0, memory=256 << 20, output=1 << 20, stop_at_output_limit=stop)
    outcome = run_sandboxed(["/bin/sh", "-c", "exec head -c 2000000 /dev/zero"], stdin=b"", limits=limits)
    assert outcome.output_exceeded
    if stop:
        assert outcome.signal == signal.SIGXFSZ, outcome
    else:  # head's write failed (EFBIG), and it said so itself
        assert outcome.signal is None and outcome.exit_code == 1 and b"File too large" in outcome.stderr, outcome
