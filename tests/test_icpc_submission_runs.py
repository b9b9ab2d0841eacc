"""How `judge test PKG` runs a package's example submissions (judge/icpc/submission_runs.py): a
submission expected only to time out is judged once, under time_limit * time_limit_to_tle, and
decided under the limit from that run; while the limit is inferred, the submissions expected to
fail otherwise run beside the accepted ones, and each such run is kept where the inferred limit
decides it alike (problemtools verifies with one run of each, too)."""

from __future__ import annotations

import dataclasses
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import ROOT, run_judge

from judge.icpc.expectations import expectation, submissions
from judge.icpc.loading import load_package
from judge.icpc.submission_runs import Planned, SubmissionRuns, decided_past_time_limit, judged_past_time_limit
from judge.results import CaseResult, SubmissionResult
from judge.verdict import Verdict

PACKAGES = ROOT / "tests" / "packages"


@pytest.fixture
def addition(tmp_path) -> Path:
    package = tmp_path / "addition"
    shutil.copytree(PACKAGES / "addition", package)
    return package


def run_of(*cases: tuple[Verdict, float]) -> SubmissionResult:
    """A run's result: each case's verdict and CPU time (its wall time a little more)."""
    results = [CaseResult(f"secret/{number}", "secret", verdict, cpu, cpu + 0.05)
               for number, (verdict, cpu) in enumerate(cases, 1)]
    verdict = next((case.verdict for case in results if case.verdict != Verdict.AC), Verdict.AC)
    return SubmissionResult("addition", "spins.py", "python", verdict, 0, 100, results, partial=True)


def test_a_run_under_the_raised_limit_decides_the_time_out_under_the_limit(addition):
    problem = dataclasses.replace(load_package(addition), time_limit=1.0)  # raised: 2 s (legacy default margin 2)
    spins = addition / "submissions" / "time_limit_exceeded" / "spins.py"
    # Past the limit on its second case, and still running at the raised one: TLE there, no warning.
    result, warning = decided_past_time_limit(problem, spins, run_of((Verdict.AC, 0.1), (Verdict.TLE, 2.1)))
    assert result.verdict == Verdict.TLE and [case.name for case in result.cases] == ["secret/1", "secret/2"]
    assert "over the limit 1 s" in result.cases[-1].message and warning == ""
    # Ends within the raised limit: still TLE under the limit, with the safety margin's warning;
    # the cases the run went on to are not the limit's.
    result, warning = decided_past_time_limit(problem, spins, run_of((Verdict.AC, 1.5), (Verdict.AC, 0.1)))
    assert result.verdict == Verdict.TLE and len(result.cases) == 1
    assert "secret/1 ends within time_limit * time_limit_to_tle = 2 s, AC there" in warning
    # A failure within the limit is that failure; all in time is accepted.
    result, _ = decided_past_time_limit(problem, spins, run_of((Verdict.AC, 0.1), (Verdict.WA, 0.2)))
    assert result.verdict == Verdict.WA
    assert decided_past_time_limit(problem, spins, run_of((Verdict.AC, 0.1), (Verdict.AC, 0.2)))[0].verdict == Verdict.AC


def planned_runs(problem) -> list[Planned]:
    return [Planned(path, folder, expectation(path, folder)) for path, folder in submissions(problem.package)
            if folder in ("accepted", "wrong_answer", "time_limit_exceeded", "run_time_error")
            and path.suffix == ".py"]


def test_runs_made_while_the_limit_is_inferred_are_kept_where_it_decides_them_alike(addition, cache):
    """No time limit given: the wrong and crashing submissions run beside the accepted ones, and
    once the limit (1 s) is known, neither is judged again; the spinning one waits for the limit
    (a run under another limit could not tell where it times out under this one)."""
    (addition / ".timelimit").unlink()
    problem = load_package(addition)
    planned = planned_runs(problem)
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = SubmissionRuns(problem, planned, pool)
        assert runs.with_time_limit().time_limit == 1.0
        verdicts = {item.path.name: runs.result(index)[0].verdict for index, item in enumerate(planned)}
        judged_after = {planned[index].path.name for index in runs.started}
    assert verdicts == {"add.py": Verdict.AC, "rounds.py": Verdict.WA, "crashes.py": Verdict.RE, "spins.py": Verdict.TLE}
    assert judged_after == {"spins.py"}


def test_a_waiting_submission_is_not_waited_for_longer_than_under_the_limit(addition, cache):
    """Judged once under the raised limit (2 s), a program that waits forever still times out
    at the limit's own wall clock (4 s), not the raised limit's (7 s)."""
    sleeps = addition / "submissions" / "time_limit_exceeded" / "sleeps.py"
    sleeps.write_text("import time\ntime.sleep(60)\n")
    (addition / ".timelimit").write_text("1\n")
    problem = load_package(addition)
    result, warning = judged_past_time_limit(problem, sleeps)
    assert result.verdict == Verdict.TLE and warning == ""
    assert "still running after 4 s of wall time" in result.cases[0].message
    assert result.cases[0].wall_time < 6


def test_judge_test_infers_the_limit_and_judges_each_submission_as_its_folder_says(addition, cache):
    (addition / ".timelimit").unlink()
    done = run_judge("test", str(addition))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "time limit  ok  1 s (inferred)" in done.stdout
    assert "submission time_limit_exceeded/spins.py  ok  got TLE" in done.stdout
    assert "submission wrong_answer/rounds.py  ok  got WA" in done.stdout
