"""problemtools' own example problems (hello, different, guess, oddecho), fetched from its source
distribution, pass `judge test`: every submission in a supported language gets its folder's
verdict, and oddecho's partially_accepted/sol.py scores 50 of 100."""

from __future__ import annotations

import json

import pytest
from conftest import run_judge
from problemtools_files import EXAMPLES, examples_dir


@pytest.mark.slow
@pytest.mark.parametrize("name", EXAMPLES)
def test_problemtools_example_passes_judge_test(name):
    package = examples_dir() / name
    done = run_judge("test", str(package), timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "FAIL" not in done.stdout
    judged = [line for line in done.stdout.splitlines() if " submission " in line and " got " in line]
    assert len(judged) >= 3, done.stdout  # not everything skipped


def test_oddecho_partially_accepted_scores_50_of_100():
    package = examples_dir() / "oddecho"
    done = run_judge("run", str(package), str(package / "submissions/partially_accepted/sol.py"),
                     "--format", "json", "--no-record")
    result = json.loads(done.stdout)
    assert (result["score"], result["max_score"]) == (50, 100)


def test_guess_interaction_samples_are_shown():
    done = run_judge("show", str(examples_dir() / "guess"))
    assert done.returncode == 0, done.stderr
    assert "## sample/1 (interaction)" in done.stdout and "submission: 792\njudge:      higher" in done.stdout


def test_a_submission_that_ends_early_never_makes_the_validator_the_judges_fault():
    """guess.py gives up after a few guesses; the validator's next write must not die of
    SIGPIPE (IE): every case is WA or AC, on every run."""
    package = examples_dir() / "guess"
    for _ in range(2):
        done = run_judge("run", str(package), str(package / "submissions/wrong_answer/guess.py"),
                         "--format", "json", "--no-record")
        verdicts = {case["verdict"] for case in json.loads(done.stdout)["cases"]}
        assert verdicts <= {"AC", "WA"}, done.stdout
