"""A case cannot take the wall clock away from the judge: one that stops the process watching
it (its parent, its parent's process group, every process it can reach) and sleeps is TLE within
the wall-time limit and a second, warm and cold, in every tier; one that kills its watcher gets
a verdict of its own. Either way the next case runs normally (warm: on a new server)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from judge.catalog import load_problem
from judge.runner import Prepared, judge_submission, prepare

HERE = Path(__file__).resolve().parent
STONES = load_problem("stones")
PROGRAMS = ["suspend_parent.c", "suspend_parent.py"]
# Input 1 stops the watcher, input 2 kills it; both then sleep for 100 s. n-3 is answered at once.
ATTACKS = {"stop": "n-1", "kill": "n-2"}
SLACK = 5.0  # seconds on top of the wall limit for starting servers and sandboxes on a shared machine


def prepared(name: str) -> Prepared:
    built = prepare(STONES, HERE / name)  # built (and cached) before the clock starts
    assert isinstance(built, Prepared), built
    return built


@pytest.mark.parametrize("cold", [False, True], ids=["warm", "cold"])
@pytest.mark.parametrize("attack", ATTACKS)
@pytest.mark.parametrize("name", PROGRAMS)
def test_a_case_that_stops_or_kills_its_watcher_is_tle_within_the_wall_limit(tier, name, attack, cold):
    wall_limit = prepared(name).limits.wall_time
    cases = [STONES.case(ATTACKS[attack]), STONES.case("n-3")]
    started = time.monotonic()
    result = judge_submission(STONES, HERE / name, cases=cases, cold=cold, jobs=1)
    elapsed = time.monotonic() - started
    verdicts = [(case.verdict, case.message) for case in result.cases]
    assert [verdict for verdict, _ in verdicts] == ["TLE", "AC"], verdicts
    assert result.cases[0].wall_time <= wall_limit + 1.5, verdicts
    assert elapsed < wall_limit + SLACK, f"judging took {elapsed:.1f} s for a wall limit of {wall_limit:g} s"
