"""A program's peak memory counts even when it ends between two of the judge's readings: the
kernel's peak for it (in the usage of the process that reaped it) is read after the run, in
every tier, warm and cold."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.catalog import load_problem
from judge.runner import judge_submission
from judge.sandbox import probe_tier

HOSTILE = Path(__file__).resolve().parent / "hostile"
TIERS = [tier for tier in ("bwrap", "unshare", "none") if probe_tier(tier) is None]


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.parametrize("name", ["quick_peak.py", "quick_peak.c"])
@pytest.mark.parametrize("cold", [True, False], ids=["cold", "warm"])
def test_a_short_peak_over_the_limit_is_memory_limit_exceeded(tier, name, cold, monkeypatch):
    monkeypatch.setenv("JUDGE_SANDBOX", tier)
    monkeypatch.setenv("JUDGE_ALLOW_WEAK_SANDBOX", "1")
    from judge.sandbox import tiers
    tiers.sandbox_tier.cache_clear()
    stones = load_problem("stones")  # 128 MiB
    result = judge_submission(stones, HOSTILE / name, cases=[stones.case("n-1")], cold=cold)
    case = result.cases[0]
    assert case.verdict == "MLE", (case.verdict, case.memory_kb, case.message)
