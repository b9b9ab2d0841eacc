"""`judge run`'s counterexample for hidden failures: an input of the judge's own, never a hidden
case's, which reproduces, found within the budget, with nothing of the hidden cases shown."""

import json
import shutil
import time

import pytest

from conftest import ROOT, run_judge
from judge.formats.catalog import load_problem
from judge.text.output_diff import comparable_lines
from judge.problem_code.reference import expected_output, reference_answer
from judge.model.results import PrepareFailure
from judge.runner import prepare, run_case

BUDGET = 20.0  # sokoban's push-into-box fault takes 7 s to find on an idle machine of this class
# A run may overshoot the budget by the build and one run to the time limit; the judging of
# the suite itself comes on top.
SLACK = 15.0

WRONG_ANSWERS = [
    ("stones", "solutions/stones/wrong_answer/multiple_of_four.py"),
    ("stones", "solutions/stones/wrong_answer/small_table.cpp"),
    ("omok", "solutions/omok/wrong_answer/six_wins.py"),
    ("sokoban", "solutions/sokoban/wrong_answer/push_into_box.py"),
    ("yutnori", "solutions/yutnori/wrong_answer/no_collisions.py"),
    ("footholds", "solutions/footholds/wrong_answer/winner_drags.py"),
]


def same_input(value) -> str:
    return "\n".join(comparable_lines(value)) if isinstance(value, str) else json.dumps(value)


def hidden_texts(problem) -> list[str]:
    """The hidden cases' inputs and expected outputs as a report would show them, where they are
    long enough that finding one in the output cannot be chance."""
    task = problem.task
    texts = []
    for case in problem.cases:
        if case.visibility == "sample":
            continue
        texts += [task.show_value(task.value(case)).strip(), task.answer_text(expected_output(problem, case)).strip()]
    return [text for text in texts if len(text) >= 8]


def reproduce(problem, source, value):
    """The submission's verdict on ``value``, run by hand through the library."""
    prepared = prepare(problem, ROOT / source)
    assert not isinstance(prepared, PrepareFailure), prepared.message
    return run_case(problem, prepared, problem.task.make_case(value, "by-hand"))


@pytest.mark.slow
@pytest.mark.parametrize("problem_id, source", WRONG_ANSWERS)
def test_a_hidden_failure_gets_a_counterexample_that_reproduces(problem_id, source):
    problem = load_problem(problem_id)
    started = time.monotonic()
    done = run_judge("run", problem_id, source, "--format", "json", "--no-record", "--explain", str(BUDGET))
    elapsed = time.monotonic() - started
    result = json.loads(done.stdout)
    assert any(case["verdict"] != "AC" and not case["name"].startswith("sample") for case in result["cases"])
    example = result["counterexample"]
    assert example is not None, result["counterexample_note"]
    assert example["seconds"] <= BUDGET + SLACK
    assert elapsed <= BUDGET + SLACK + 120  # the suite's own judging is the rest
    value = example[problem.task.case_field]
    hidden = {same_input(problem.task.value(case)) for case in problem.cases if case.visibility != "sample"}
    assert same_input(value) not in hidden
    assert example["expected"] == reference_answer(problem, value)
    again = reproduce(problem, source, value)
    assert again.verdict != "AC" and again.verdict == example["verdict"]
    for text in hidden_texts(problem):
        assert text not in done.stdout


def test_the_table_shows_the_counterexample_and_no_hidden_case():
    """A submission wrong on every input: its smallest failing input, 1, is hidden case smallest, so the
    counterexample is another, and the output says one was passed over."""
    source = "solutions/stones/wrong_answer/multiple_of_four.py"
    done = run_judge("run", "stones", source, "--no-record", "--explain", str(BUDGET))
    assert "counterexample (an input of the judge's own, not a hidden case" in done.stdout
    for part in ("input:", "expected:", "got:", "first difference: line 1, column 1"):
        assert part in done.stdout


def test_show_counterexample_prints_all_of_it_where_the_table_gives_a_few_lines():
    source = "solutions/omok/wrong_answer/last_line_missed.c"
    cut = run_judge("run", "omok", source, "--no-record", "--explain", str(BUDGET)).stdout
    assert "  (14 more lines)" in cut and "(run again with --show counterexample to see all of it)" in cut
    whole = run_judge("run", "omok", source, "--no-record", "--explain", str(BUDGET), "--show", "counterexample")
    assert whole.returncode == 1, whole.stderr
    board = whole.stdout.split("\ninput:\n", 1)[1].split("\nexpected:\n", 1)[0].splitlines()
    assert len(board) == 19 and all(len(row.split()) == 19 for row in board), whole.stdout
    assert "more lines" not in whole.stdout and "--show counterexample to see" not in whole.stdout
    # Asked for without a search to make, it says why it cannot be shown.
    refused = run_judge("run", "omok", source, "--no-record", "--no-explain", "--show", "counterexample")
    assert refused.returncode == 2 and "--no-explain asks for no search" in refused.stderr


def test_a_hidden_input_is_never_the_counterexample(tmp_path):
    problem = load_problem("stones")
    wrong = tmp_path / "wrong.py"
    wrong.write_text("input()\nprint('XX')\n")
    done = run_judge("run", "stones", str(wrong), "--format", "json", "--no-record", "--explain", str(BUDGET))
    result = json.loads(done.stdout)
    example = result["counterexample"]
    hidden = {same_input(case.input) for case in problem.cases if case.visibility != "sample"}
    assert same_input(example["input"]) not in hidden
    table = run_judge("run", "stones", str(wrong), "--no-record", "--explain", str(BUDGET)).stdout
    assert "passed over: they are hidden cases' inputs" in table


def test_no_counterexample_says_why(tmp_path):
    accepted = run_judge("run", "stones", "solutions/stones/accepted/game_dp.py", "--format", "json", "--no-record",
                         "--explain", str(BUDGET))
    assert json.loads(accepted.stdout)["counterexample"] is None
    assert json.loads(accepted.stdout)["counterexample_note"] == "all cases passed"
    package = "tests/packages/doubler"
    done = run_judge("run", package, f"{package}/submissions/wrong_answer/triples.py", "--format", "json", "--no-record",
                     "--explain", str(BUDGET))
    result = json.loads(done.stdout)
    assert result["counterexample"] is None
    assert "is interactive" in result["counterexample_note"]
    addition = tmp_path / "addition"
    shutil.copytree(ROOT / "tests/packages/addition", addition)
    (tmp_path / "off_by_one.py").write_text("print(sum(map(int, input().split())) + 1)\n")
    done = run_judge("run", str(addition), str(tmp_path / "off_by_one.py"), "--format", "json", "--no-record",
                     "--explain", str(BUDGET))
    assert "has no input generator (no generators/generators.yaml)" in json.loads(done.stdout)["counterexample_note"]
    skipped = run_judge("run", "stones", "solutions/stones/wrong_answer/multiple_of_four.py", "--no-explain",
                        "--format", "json", "--no-record")
    assert "counterexample" not in json.loads(skipped.stdout)


def test_the_budget_is_held_when_nothing_is_found(tmp_path):
    """A submission right on every input the strategies make, wrong only on a hidden case's:
    the search gives up at its budget and says so."""
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("n = int(input())\nprint('SK' if n % 2 and n != 1 else 'CY')\n")  # wrong on smallest only
    started = time.monotonic()
    done = run_judge("run", "stones", str(sneaky), "--format", "json", "--no-record", "--explain", "2")
    elapsed = time.monotonic() - started
    result = json.loads(done.stdout)
    assert [case["name"] for case in result["cases"] if case["verdict"] != "AC"] == ["hidden 1"]  # smallest
    assert result["counterexample"] is None
    assert result["counterexample_note"].startswith("none found within 2 s")
    assert elapsed < 2 + SLACK + 60


def test_broken_strategies_leave_the_run_standing(tmp_path):
    """Strategies that fail to generate end the search, not the run: its table and verdict stand."""
    from test_extension import copy_problem

    copy_problem("stones", "pebbles", tmp_path)
    (tmp_path / "strategies" / "pebbles.py").write_text("def inputs():\n    raise ValueError('no inputs today')\n")
    done = run_judge("run", "pebbles", str(ROOT / "solutions/stones/wrong_answer/multiple_of_four.py"),
                     "--format", "json", "--no-record", "--explain", "3", cwd=tmp_path,
                     env={"PYTHONPATH": str(ROOT)})  # this tree's judge, from another directory
    assert done.returncode == 1, done.stderr
    result = json.loads(done.stdout)
    assert result["verdict"] == "WA" and result["counterexample"] is None
    assert result["counterexample_note"].startswith("no search:") and "pebbles.py" in result["counterexample_note"]


def test_the_default_budget_comes_from_the_environment():
    wrong = "solutions/stones/wrong_answer/multiple_of_four.py"
    off = run_judge("run", "stones", wrong, "--format", "json", "--no-record", env={"JUDGE_EXPLAIN_SECONDS": "0"})
    assert "counterexample" not in json.loads(off.stdout)
    on = run_judge("run", "stones", wrong, "--format", "json", "--no-record", env={"JUDGE_EXPLAIN_SECONDS": "5"})
    assert json.loads(on.stdout)["counterexample"] is not None
    bad = run_judge("run", "stones", wrong, "--no-record", env={"JUDGE_EXPLAIN_SECONDS": "soon"})
    assert bad.returncode == 2 and "JUDGE_EXPLAIN_SECONDS='soon' is not a number" in bad.stderr
