"""How `judge test PKG` runs a package's example submissions (judge/formats/icpc/submission_runs.py): a
submission expected only to time out is judged once, under time_limit * time_limit_to_tle, and
decided under the limit from that run; while the limit is inferred, the other submissions run
beside the accepted ones under the least limit it can still give, and each such run is kept where
the inferred limit decides it alike (problemtools verifies with one run of each, too)."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, run_judge

from judge.formats.icpc.expectations import expectation, submissions
from judge.formats.icpc.loading import load_package
from judge.formats.icpc.submission_runs import Planned, SubmissionRuns, decided_past_time_limit, judged_past_time_limit
from judge.formats.icpc.timelimit import accepted_submissions
from judge.model.results import CaseResult, SubmissionResult
from judge.model.verdict import Verdict
from judge.workers import Workers

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
    assert "secret/1 ends within time_limit * time_safety_margin = 2 s, AC there" in warning
    # A failure within the limit is that failure; all in time is accepted.
    result, _ = decided_past_time_limit(problem, spins, run_of((Verdict.AC, 0.1), (Verdict.WA, 0.2)))
    assert result.verdict == Verdict.WA
    assert decided_past_time_limit(problem, spins, run_of((Verdict.AC, 0.1), (Verdict.AC, 0.2)))[0].verdict == Verdict.AC


def planned_runs(problem) -> list[Planned]:
    return [Planned(path, folder, expectation(path, folder)) for path, folder in submissions(problem.package)
            if folder in ("accepted", "wrong_answer", "time_limit_exceeded", "run_time_error")
            and path.suffix == ".py"]


def judged_while_inferring(problem) -> tuple[float, dict[str, Verdict], dict[str, float], set[str]]:
    """The inferred limit; each planned submission's verdict; the limit each time-out was run
    under while the limit was unknown; the submissions judged again once it was known."""
    planned = planned_runs(problem)
    with Workers(2) as workers, Workers(1) as builder:
        runs = SubmissionRuns(problem, planned, workers, builder)
        limit = runs.with_time_limit().time_limit
        verdicts = {item.path.name: runs.result(index)[0].verdict for index, item in enumerate(planned)}
        guessed = {planned[index].path.name: future.result()[1] for index, future in runs.guessed.items()}
        judged_after = {planned[index].path.name for index in runs.started}
    return limit, verdicts, guessed, judged_after


def test_runs_made_while_the_limit_is_inferred_are_kept_where_it_decides_them_alike(addition, cache):
    """No time limit given: the wrong, crashing and spinning submissions run beside the accepted
    ones, the spinning one first, under the least limit there can be (1 s, raised to 2 s), and
    once the limit is known to be that, none is judged again."""
    (addition / ".timelimit").unlink()
    limit, verdicts, guessed, judged_after = judged_while_inferring(load_package(addition))
    assert limit == 1.0
    assert verdicts == {"add.py": Verdict.AC, "rounds.py": Verdict.WA, "crashes.py": Verdict.RE, "spins.py": Verdict.TLE}
    assert guessed == {"spins.py": 1.0} and judged_after == set()


@pytest.mark.slow
def test_a_time_out_run_under_a_limit_the_inference_does_not_give_is_judged_again(addition, cache):
    """An accepted submission spending 0.35 s of CPU time makes the limit 2 s (legacy
    ac_to_time_limit 5): the spinning submission's run under 1 s raised, made while that was
    not known, cannot tell whether it would end within 2 s raised, and it is judged again."""
    (addition / ".timelimit").unlink()
    (addition / "submissions" / "accepted" / "slow.py").write_text(
        "import time\nstarted = time.process_time()\nwhile time.process_time() - started < 0.35:\n    pass\n"
        "a, b = map(float, input().split())\nprint(a + b)\n")
    problem = load_package(addition)
    limit, verdicts, guessed, judged_after = judged_while_inferring(problem)
    assert limit >= 2.0 and verdicts["spins.py"] == Verdict.TLE and verdicts["slow.py"] == Verdict.AC
    assert guessed == {"spins.py": 1.0} and judged_after == {"spins.py"}


def test_a_waiting_submission_is_not_waited_for_longer_than_under_the_limit(addition, cache):
    """Judged once under the raised limit (2 s), a program that waits forever times out at the
    raised limit's wall clock (2 s and its overshoot of 1 s), never a loaded machine's."""
    sleeps = addition / "submissions" / "time_limit_exceeded" / "sleeps.py"
    sleeps.write_text("import time\ntime.sleep(60)\n")
    (addition / ".timelimit").write_text("1\n")
    problem = load_package(addition)
    result, warning = judged_past_time_limit(problem, sleeps)
    assert result.verdict == Verdict.TLE and warning == ""
    assert "still running after 2 s of wall time" in result.cases[0].message
    assert result.cases[0].wall_time < 4


def test_a_computing_time_out_is_stopped_by_its_cpu_time_under_the_raised_limit(addition, cache, monkeypatch):
    """Under the raised limit (0.25 s x 10) the wall clock allows 2.5 s and DOMjudge's overshoot,
    so that a spinning program on a quiet machine meets its CPU limit first; on a loaded one it
    meets the wall clock past the limit's 0.25 s of CPU, which decides it too. Either way one
    run: at 2.5 s the wall clock came first, a little short of the CPU limit, and the case ran
    again with a loaded machine's wall clock, two time-outs for every such submission."""
    import judge.runner

    walls = []
    judge_once = judge.runner._judge_case_once
    monkeypatch.setattr(judge.runner, "_judge_case_once",
                        lambda problem, prepared, *rest: walls.append(prepared.limits.wall_time)
                        or judge_once(problem, prepared, *rest))
    (addition / ".timelimit").write_text("0.25\n")
    yaml = addition / "problem.yaml"
    yaml.write_text(yaml.read_text() + "  time_safety_margin: 10\n")
    problem = load_package(addition)
    result, warning = judged_past_time_limit(problem, addition / "submissions" / "time_limit_exceeded" / "spins.py")
    assert result.verdict == Verdict.TLE and warning == "" and len(result.cases) == 1
    assert "over the limit 0.25 s" in result.cases[0].message and walls == [2.5 + 1]


def test_a_case_its_first_run_settles_is_not_run_again_on_a_loaded_machine(addition, cache, monkeypatch):
    """With the wall clock at the CPU limit, a spinning program always meets the wall clock
    first, short of its CPU limit, as on a loaded machine: a case ``settled`` says is decided
    keeps that run (the raised limit's time-outs past the limit's CPU time), where any other
    runs again with a loaded machine's wall clock."""
    import judge.runner

    runs = []
    judge_once = judge.runner._judge_case_once
    monkeypatch.setattr(judge.runner, "_judge_case_once", lambda *args: runs.append(1) or judge_once(*args))
    (addition / ".timelimit").write_text("0.5\n")
    problem = load_package(addition)
    result = judge.runner.judge_submission(problem, addition / "submissions" / "time_limit_exceeded" / "spins.py",
                                           cases=problem.cases[:1], limits=lambda limits: limits.with_wall(limits.cpu_time),
                                           settled=lambda case: True)
    assert result.verdict == Verdict.TLE and len(runs) == 1


class NotedPool(Workers):
    """A worker pool that notes the name of the submission each task judges or builds, in the
    order the tasks are given to it (the tasks run as ever)."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.order: list[str] = []

    def submit(self, function, /, *args, **kwargs):
        path = next(arg.path if isinstance(arg, Planned) else arg for arg in args if isinstance(arg, (Path, Planned)))
        self.order.append(path.name)
        return super().submit(function, *args, **kwargs)


def test_with_a_builder_the_slowest_build_first_there_and_the_quickest_run_first_in_the_pool(addition, cache):
    """The builder builds every program ahead, javac's first and no Python program; the pool
    starts with the time-out run, then takes the quickest to build first, Java last, so that no
    worker waits for a build while another run could go. Every verdict is the folder's."""
    (addition / ".timelimit").unlink()
    problem = load_package(addition)
    planned = [Planned(path, folder, expectation(path, folder)) for path, folder in submissions(problem.package)]
    pool, builder = NotedPool(2), NotedPool(1)
    with pool, builder:
        runs = SubmissionRuns(problem, planned, pool, builder)
        runs.with_time_limit()
        verdicts = [runs.result(index)[0].verdict for index in range(len(planned))]
    assert builder.order[0] == "multi_java" and not [name for name in builder.order if name.startswith(("add.py", "multi_py"))]
    assert set(builder.order) >= {"add.c", "add.c++", "multi_cpp", "multi_js", "packaged_js", "typo.cpp"}
    assert pool.order[0] == "spins.py" and pool.order[-1] == "multi_java"
    assert pool.order.index("rounds.py") < pool.order.index("add.c") < pool.order.index("add.c++")
    assert all(verdict in item.rule.verdicts for verdict, item in zip(verdicts, planned)), verdicts


def test_the_accepted_runs_a_limit_is_inferred_from_go_the_slowest_to_build_first(addition):
    names = [path.name for path in accepted_submissions(load_package(addition))]
    assert names[0] == "multi_java" and names.index("add.c++") < names.index("add.c") < names.index("add.py")


def test_judge_test_infers_the_limit_and_judges_each_submission_as_its_folder_says(addition, cache):
    (addition / ".timelimit").unlink()
    done = run_judge("test", str(addition))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "time limit  ok  1 s (inferred)" in done.stdout
    assert "submission time_limit_exceeded/spins.py  ok  got TLE" in done.stdout
    assert "submission wrong_answer/rounds.py  ok  got WA" in done.stdout


@pytest.mark.slow
def test_an_inferred_limit_at_a_rounding_step_is_warned_of(addition, cache):
    """problemtools' rounding makes the limit jump a whole step where the slowest accepted run
    times ac_to_time_limit is near a whole number of seconds: a run measured a little slower
    elsewhere infers another limit. `judge test` says so, and how to fix it."""
    from judge.formats.icpc.package import TimeLimits
    from judge.formats.icpc.timelimit import _cache_path, unsteady_limit_warning

    timing = TimeLimits(None, "inferred", 2.0, 2.0, legacy=True)
    assert "would infer 2 s or 3 s" in unsteady_limit_warning(0.98, timing)
    assert unsteady_limit_warning(0.6, timing) == "" and unsteady_limit_warning(0.2, timing) == ""
    (addition / ".timelimit").unlink()
    assert "warning" not in next(line for line in run_judge("test", str(addition)).stdout.splitlines()
                                 if "time limit" in line)
    cached = _cache_path(load_package(addition).package)  # as if the slowest run had been 0.2 s
    cached.write_text(cached.read_text().replace('"slowest_accepted": ', '"slowest_accepted": 0.2, "was": '))
    line = next(line for line in run_judge("test", str(addition)).stdout.splitlines() if "time limit" in line)
    assert "1 s (inferred) (warning: the slowest accepted run took 0.20 s of CPU" in line
    assert "would infer 1 s or 2 s" in line and "limits.time_limit, or a .timelimit file" in line
