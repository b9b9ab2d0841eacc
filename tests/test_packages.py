"""`judge test` over the five shipped problems: suites, validators, references, example solutions."""

import pytest
from conftest import built_in_problems, run_judge

from judge.authoring.verification import verify_problems


@pytest.mark.slow
def test_every_problem_package_verifies():
    checks = verify_problems()
    failures = [f"{check.problem}: {check.what}: {check.detail}" for check in checks if not check.ok]
    assert not failures, "\n".join(failures)
    problems = {check.problem for check in checks}
    assert problems == set(built_in_problems())
    assert {check.what for check in checks} >= {"loads", "validator", "strategies", "reference"}
    solutions = [check for check in checks if check.what.startswith("solution")]
    assert {check.what.split("/")[1] for check in solutions} >= {"accepted", "wrong_answer",
                                                                   "time_limit_exceeded", "runtime_error"}


def test_judge_test_fails_on_a_mislabelled_solution(tmp_path):
    import shutil

    from conftest import ROOT
    for folder in ("cases", "reference", "validators"):
        (tmp_path / folder).mkdir()
        for name in ("stones.yaml", "stones.py"):
            if (ROOT / folder / name).exists():
                shutil.copy(ROOT / folder / name, tmp_path / folder / name)
    accepted = tmp_path / "solutions" / "stones" / "accepted"
    accepted.mkdir(parents=True)
    shutil.copy(ROOT / "solutions/stones/wrong_answer/even_wins.py", accepted / "even_wins.py")
    done = run_judge("test", "stones", cwd=tmp_path)
    assert done.returncode == 1
    assert "expected AC, got WA" in done.stdout


def test_judge_test_fails_when_the_reference_disagrees(tmp_path):
    import shutil

    from conftest import ROOT
    for folder in ("cases", "validators"):
        (tmp_path / folder).mkdir()
    shutil.copy(ROOT / "cases/stones.yaml", tmp_path / "cases/stones.yaml")
    shutil.copy(ROOT / "validators/stones.py", tmp_path / "validators/stones.py")
    (tmp_path / "reference").mkdir()
    (tmp_path / "reference/stones.py").write_text("def solve(text):\n    return 'CY\\n'\n")
    done = run_judge("test", "stones", cwd=tmp_path)
    assert done.returncode == 1 and "reference" in done.stdout and "FAIL" in done.stdout
