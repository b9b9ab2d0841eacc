"""How `judge test PKG` runs a package's example submissions (judge/icpc/submission_runs.py): a
submission expected only to time out is judged once, under time_limit * time_limit_to_tle, and
decided under the limit from that run; while the limit is inferred, the submissions expected to
fail run beside the accepted ones, and each such run is kept where the inferred limit decides it
alike (problemtools verifies with one run of each, too)."""

from __future__ import annotations

import dataclasses
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from conftest import ROOT, run_judge

from judge.icpc.expectations import expectation, submissions
from judge.icpc.loading import load_package
from judge.icpc.submission_runs import EARLY_CAP_SECONDS, Planned, SubmissionRuns, decided_past_time_limit
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
    result, warning = decided_past_time_limit(problem, spins, run_of((Verdict.AC, 0.1), (Verdict.TLE, 2.1)), 2.0)
    assert result.verdict == Verdict.TLE and [case.name for case in result.cases] == ["secret/1", "secret/2"]
    assert "over the limit 1 s" in result.cases[-1].message and warning == ""
    # Ends within the raised limit: still TLE under the limit, with the safety margin's warning;
    # the cases the run went on to are not the limit's.
    result, warning = decided_past_time_limit(problem, spins, run_of((Verdict.AC, 1.5), (Verdict.AC, 0.1)), 2.0)
    assert result.verdict == Verdict.TLE and len(result.cases) == 1
    assert "secret/1 ends within time_limit * time_limit_to_tle = 2 s, AC there" in warning
    # A failure within the limit is that failure; all in time is accepted.
    result, _ = decided_past_time_limit(problem, spins, run_of((Verdict.AC, 0.1), (Verdict.WA, 0.2)), 2.0)
    assert result.verdict == Verdict.WA
    assert decided_past_time_limit(problem, spins, run_of((Verdict.AC, 0.1), (Verdict.AC, 0.2)), 2.0)[0].verdict == Verdict.AC
    # A run under less than the raised limit cannot tell whether the case ends within it.
    assert decided_past_time_limit(problem, spins, run_of((Verdict.TLE, 1.6)), 1.5) is None


def planned_runs(problem) -> list[Planned]:
    return [Planned(path, folder, expectation(path, folder)) for path, folder in submissions(problem.package)
            if folder in ("accepted", "wrong_answer", "time_limit_exceeded", "run_time_error")
            and path.suffix == ".py"]


@pytest.mark.parametrize("margin, kept", [(2, True), (2 * EARLY_CAP_SECONDS, False)], ids=["within-cap", "past-cap"])
def test_runs_made_while_the_limit_is_inferred_are_kept_where_it_decides_them_alike(addition, cache, margin, kept):
    """No time limit given: the wrong, crashing and spinning submissions run beside the accepted
    ones; once the limit (1 s) is known, none is judged again, unless the raised limit a time-out
    is decided at is past the cap its early run had."""
    (addition / ".timelimit").unlink()
    (addition / "problem.yaml").write_text((addition / "problem.yaml").read_text()
                                           + f"  time_safety_margin: {margin}\n")
    problem = load_package(addition)
    planned = planned_runs(problem)
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = SubmissionRuns(problem, planned, pool)
        assert runs.with_time_limit().time_limit == 1.0
        verdicts = {item.path.name: runs.result(index)[0].verdict for index, item in enumerate(planned)}
        judged_again = {planned[index].path.name for index in runs.started}
    assert verdicts == {"add.py": Verdict.AC, "rounds.py": Verdict.WA, "crashes.py": Verdict.RE, "spins.py": Verdict.TLE}
    assert judged_again == (set() if kept else {"spins.py"})


def test_judge_test_infers_the_limit_and_judges_each_submission_as_its_folder_says(addition, cache):
    (addition / ".timelimit").unlink()
    done = run_judge("test", str(addition))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "time limit  ok  1 s (inferred)" in done.stdout
    assert "submission time_limit_exceeded/spins.py  ok  got TLE" in done.stdout
    assert "submission wrong_answer/rounds.py  ok  got WA" in done.stdout
