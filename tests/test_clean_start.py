"""The clean-start helper (judge/sandbox/clean_start.py): a run started through it ends as its
program ended, its report is the helper's alone, and an interactive run's pipes stay the
programs' alone. Each test makes every run of its process start through it, as a judge grown
past the run's memory limit does."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest
from conftest import ROOT, machine_tiers

from judge.formats.icpc.loading import load_package
from judge.runner import prepare, run_case
from judge.sandbox import Limits, clean_start, run_sandboxed

LIMITS = Limits.for_cpu(5.0, memory=256 << 20, output=1 << 20)
TIERS = [tier for tier in machine_tiers() if tier != "root"]  # the root tier's init reports instead


@pytest.fixture(autouse=True)
def always_through_the_helper(monkeypatch):
    used = []
    needed = clean_start.needed
    monkeypatch.setattr(clean_start, "needed", lambda *args: used.append(needed(*args)) or True)
    yield used
    from judge.sandbox import tiers
    tiers.sandbox_tier.cache_clear()


def run(tier, monkeypatch, script: str):
    monkeypatch.setenv("JUDGE_SANDBOX", tier)
    monkeypatch.setenv("JUDGE_ALLOW_WEAK_SANDBOX", "1")
    from judge.sandbox import tiers
    tiers.sandbox_tier.cache_clear()
    return run_sandboxed(["/bin/sh", "-c", script], stdin=b"", limits=LIMITS)


@pytest.mark.parametrize("tier", TIERS)
def test_the_run_ends_as_its_program_ended(tier, monkeypatch, always_through_the_helper):
    assert run(tier, monkeypatch, "echo out; exit 3").exit_code == 3
    assert run(tier, monkeypatch, "echo out").stdout == b"out\n"
    killed = run(tier, monkeypatch, "kill -SEGV $$")
    assert killed.signal == signal.SIGSEGV and killed.exit_code is None
    assert always_through_the_helper  # the judge asked, and the runs went through the helper


@pytest.mark.parametrize("tier", TIERS)
def test_the_program_cannot_write_the_helpers_report(tier, monkeypatch):
    # The report's descriptor (8) is not the program's: writing there fails.
    outcome = run(tier, monkeypatch, "echo 1 1 0 >&8")
    assert outcome.exit_code != 0 and b"8" in outcome.stderr, outcome


@pytest.mark.parametrize("tier", TIERS)
def test_a_short_peak_is_the_programs_own(tier, monkeypatch):
    # 200 MiB touched at once and let go: the helper's report has it, above the helper's own size.
    outcome = run(tier, monkeypatch, "head -c 209715200 /dev/zero | tail -c 209715200 >/dev/null")
    assert outcome.exit_code == 0 and outcome.memory_kb > 200 << 10, outcome


LARGE_JUDGE = """
import sys
held = bytearray(400 << 20)
for offset in range(0, len(held), 4096):
    held[offset] = 1
from judge.sandbox import Limits, run_sandboxed
limits = Limits.for_cpu(5.0, memory=256 << 20, output=1 << 20)
outcome = run_sandboxed(["/bin/sh", "-c", sys.argv[1]], stdin=b"", limits=limits)
print(outcome.exit_code, outcome.memory_kb)
"""


@pytest.mark.parametrize("tier", machine_tiers())
def test_a_judge_larger_than_the_limit_still_sees_the_whole_short_peak(tier):
    # The judge holds 400 MiB; dd fills a 200 MiB buffer in one read and ends, under a 256 MiB
    # limit: the kernel's peak, not a reading of the watcher's halfway through, is its memory.
    peak = "dd if=/dev/zero of=/dev/null bs=200M count=1 2>/dev/null"  # one read fills it
    done = subprocess.run([sys.executable, "-c", LARGE_JUDGE, peak], capture_output=True, text=True, timeout=300, check=False,
                          env={**os.environ, "JUDGE_SANDBOX": tier, "JUDGE_ALLOW_WEAK_SANDBOX": "1"})
    assert done.returncode == 0, done.stderr
    exit_code, memory_kb = map(int, done.stdout.split())
    assert exit_code == 0 and memory_kb >= 200 << 10, done.stdout


def test_an_interactive_runs_pipes_stay_the_programs_alone(monkeypatch):
    # The helper holds none of the pipe ends it passes on: the validator's end of file is the
    # submission's end, and a rejection on a wrong answer is WA, a crash before any answer RE.
    problem = load_package(ROOT / "tests" / "packages" / "doubler")
    case = next(case for case in problem.cases if case.name == "secret/01")
    submissions = ROOT / "tests" / "packages" / "doubler" / "submissions"
    verdicts = {name: str(run_case(problem, prepare(problem, submissions / name), case).verdict.value)
                for name in ("accepted/doubles.py", "wrong_answer/crashes_after_a_wrong_answer.c",
                             "run_time_error/crashes.py")}
    assert verdicts == {"accepted/doubles.py": "AC", "wrong_answer/crashes_after_a_wrong_answer.c": "WA",
                        "run_time_error/crashes.py": "RE"}
