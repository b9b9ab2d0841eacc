"""score_multiplier.txt of a scoring problem's output validator (2025-09, "Scoring test cases"):
an accepted case scores that share of its maximum score (its group's max_score with min
aggregation, an equal share of it with sum); a multiplier outside [0, 1], one beside score.txt,
or one for a case of unbounded maximum is a judge error."""

from __future__ import annotations

import shutil

import pytest
from conftest import ROOT, judged_whole, run_judge

PACKAGE = ROOT / "tests" / "packages" / "multiplier"
OFF_BY_ONE = "submissions/partially_accepted/off_by_one.py"


@pytest.fixture
def package(tmp_path):
    shutil.copytree(PACKAGE, tmp_path / "multiplier")
    return tmp_path / "multiplier"


def test_a_multiplier_scores_its_share_of_the_cases_maximum():
    done = run_judge("test", str(PACKAGE))
    assert done.returncode == 0, done.stdout + done.stderr
    # half of the min group's 40, and half of each of the sum group's two 30s
    assert "off_by_one.py  ok  got AC, score 50/100" in done.stdout
    assert "double.py  ok  got AC, score 100/100" in done.stdout


@pytest.mark.parametrize(("change", "message"), [
    (lambda package: _validator_writes(package, "score_multiplier.txt", "1.5"), "not a number from 0 to 1"),
    (lambda package: _validator_writes(package, "score.txt", "3"), "wrote both score.txt and score_multiplier.txt"),
    (lambda package: (package / "data/secret/close/test_group.yaml").write_text("score_aggregation: sum\n")
     or (package / "data/secret/test_group.yaml").write_text("max_score: unbounded\n"),
     "whose maximum score is unbounded"),
])
def test_a_wrong_multiplier_is_a_judge_error(package, change, message):
    change(package)
    # The whole result: a hidden case's message is the teacher's to read (judge/model/feedback.py).
    result = judged_whole(package, package / OFF_BY_ONE)
    said = [case["message"] for case in result["cases"] if case["verdict"] == "IE"]
    assert said and any(message in text for text in said), result


def _validator_writes(package, name: str, text: str) -> None:
    validator = package / "output_validator" / "validate.py"
    validator.write_text(validator.read_text().replace(
        "sys.exit(42)\n", f"open(sys.argv[3] + '/{name}', 'w').write('{text}\\n')\nsys.exit(42)\n"))
