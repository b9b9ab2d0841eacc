"""Function-style submissions that write their own "returned value" in the harness's place:
too deeply nested, or not JSON at all. Each is the student's WA with a short message saying why,
on sample and hidden cases alike, never the judge's IE."""

from __future__ import annotations

from pathlib import Path

import pytest

from judge.formats.catalog import load_problem
from judge.runner import judge_submission

HERE = Path(__file__).resolve().parent
FOOTHOLDS = load_problem("footholds")
CASES = [FOOTHOLDS.case("sample-1"), next(case for case in FOOTHOLDS.cases if case.visibility != "sample")]


@pytest.mark.parametrize("name, message", [
    ("returned_deep.py", "the returned value is nested 200000 levels deep (at most 100)"),
    ("returned_deep.js", "the returned value is nested 200000 levels deep (at most 100)"),
    ("returned_deep.c", "the returned value is nested 200000 levels deep (at most 100)"),
    ("returned_garbage.py", "the returned value is not JSON"),
])
def test_a_forged_returned_value_is_the_students_wrong_answer(name, message):
    result = judge_submission(FOOTHOLDS, HERE / name, cases=CASES)
    for case in result.cases:
        assert (case.verdict, case.visibility) in {("WA", "sample"), ("WA", "hidden")}, case.message
        assert case.message.startswith(message), case.message
        assert len(case.message) < 200
