"""`judge stress`: wrong solutions are caught, counterexamples are small, runs are reproducible."""

import dataclasses
import json
import shutil

import pytest
from conftest import ROOT, built_in_problems, example_solutions, run_judge
from hypothesis import given, settings

from judge.authoring import stress as stress_module
from judge.authoring.stress import input_size, stress
from judge.formats.catalog import load_problem
from judge.problem_code.reference import reference_module, strategy_module, validator_module

PROBLEMS = built_in_problems()
WRONG = [(problem, path) for problem in PROBLEMS for path, verdict in example_solutions(problem)
         if verdict == "WA"]


@pytest.fixture(autouse=True)
def quick_shrinking(monkeypatch):
    monkeypatch.setattr(stress_module, "SHRINK_CALLS", 60)


@pytest.mark.slow
@pytest.mark.parametrize("problem_id, path", WRONG, ids=[f"{p}/{path.name}" for p, path in WRONG])
def test_every_wrong_answer_solution_is_caught(problem_id, path):
    result = stress(load_problem(problem_id), path, examples=300, seed=1)
    assert result.found, f"{path.name} survived {result.examples_run} examples"
    assert result.counterexample.verdict == "WA"
    validator = validator_module(load_problem(problem_id))
    validator.validate(result.counterexample.input)  # the counterexample is a valid input


def test_a_simple_wrong_stones_solution_gives_one_small_n():
    result = stress(load_problem("stones"), ROOT / "solutions/stones/wrong_answer/even_wins.py", examples=50, seed=0)
    assert result.found and result.counterexample.input == "1\n"
    assert result.counterexample.expected == "SK\n" and result.counterexample.got.strip() == "CY"


def test_shrinking_makes_the_input_smaller():
    path = ROOT / "solutions/sokoban/wrong_answer/targets_not_restored.py"
    result = stress(load_problem("sokoban"), path, examples=200, seed=5)
    assert result.found
    assert input_size(result.counterexample.input) < input_size(result.first_failure)


def test_an_accepted_solution_survives():
    result = stress(load_problem("stones"), ROOT / "solutions/stones/accepted/parity.c", examples=40, seed=2)
    assert not result.found and result.examples_run == 40


def test_the_same_seed_gives_the_same_run():
    path = ROOT / "solutions/omok/wrong_answer/six_wins.py"
    first = stress(load_problem("omok"), path, examples=100, seed=11)
    second = stress(load_problem("omok"), path, examples=100, seed=11)
    assert first.examples_run == second.examples_run
    assert first.counterexample == second.counterexample


@pytest.mark.parametrize("problem_id, path", [
    ("omok", "solutions/omok/wrong_answer/six_wins.py"),
    ("sokoban", "solutions/sokoban/wrong_answer/push_into_box.py"),
    ("stones", "solutions/stones/accepted/game_dp.py"),
])
def test_judging_examples_in_parallel_gives_the_same_result(problem_id, path):
    serial = stress(load_problem(problem_id), ROOT / path, examples=150, seed=4, jobs=1)
    parallel = stress(load_problem(problem_id), ROOT / path, examples=150, seed=4, jobs=2)
    assert (parallel.found, parallel.examples_run) == (serial.found, serial.examples_run)
    assert parallel.counterexample == serial.counterexample


def test_time_limit_and_runtime_errors_are_differences_too():
    tle = stress(load_problem("stones"), ROOT / "solutions/stones/time_limit_exceeded/plain_recursion.py",
                 examples=50, seed=0, time_limit=0.5)
    assert tle.found and tle.counterexample.verdict == "TLE"
    crash = stress(load_problem("footholds"), ROOT / "solutions/footholds/runtime_error/one_row_board.py",
                   examples=50, seed=0)
    assert crash.found and crash.counterexample.verdict == "RE"
    assert crash.counterexample.input[0] and len(crash.counterexample.input[0]) == 1  # a one-row board


def test_cli_json_shape_and_exit_codes():
    done = run_judge("stress", "stones", str(ROOT / "solutions/stones/wrong_answer/even_wins.py"),
                     "--examples", "30", "--format", "json")
    assert done.returncode == 1
    data = json.loads(done.stdout)
    assert set(data) == {"problem", "submission", "examples_run", "found", "counterexample"}
    assert set(data["counterexample"]) == {"input", "expected", "got", "verdict", "message"}
    function_style = run_judge("stress", "footholds", str(ROOT / "solutions/footholds/wrong_answer/winner_drags.py"),
                               "--examples", "100", "--format", "json")
    assert "args" in json.loads(function_style.stdout)["counterexample"]
    ok = run_judge("stress", "stones", str(ROOT / "solutions/stones/accepted/game_dp.py"), "--examples", "10")
    assert ok.returncode == 0 and "No difference found in 10 examples" in ok.stdout
    usage = run_judge("stress", "stones", "missing.py")
    assert usage.returncode == 2


def test_default_stress_finds_an_off_by_one_at_the_board_edge_and_shrinks_it_to_the_five():
    # The default search is the one `judge run` makes (as long as it allows), and the omok
    # strategy puts lines on the board's edges; a five along the last row is all that is left.
    done = run_judge("stress", "omok", str(ROOT / "solutions/omok/wrong_answer/last_line_missed.c"),
                     "--seed", "0", "--format", "json")
    data = json.loads(done.stdout)
    assert done.returncode == 1 and data["found"], done.stdout + done.stderr
    stones = [token for token in data["counterexample"]["input"].split() if token != "0"]
    assert len(stones) == 5, data["counterexample"]["input"]


def test_shrinking_ends_at_its_bound_with_the_smallest_failing_input_so_far(monkeypatch):
    """Past its bound no candidate is even validated: shrinking stops, it does not answer "passes"
    to every candidate the shrinker still has (each of which would cost a validation)."""
    monkeypatch.setattr(stress_module, "SHRINK_CALLS", 3)
    problem = load_problem("omok")
    validated = []

    def admissible(value) -> bool:
        validated.append(value)
        return True

    path = ROOT / "solutions/omok/wrong_answer/last_line_missed.c"
    result = stress(problem, path, examples=2000, seed=0, admissible=admissible)
    assert result.found and result.counterexample.verdict == "WA"
    assert len(validated) <= result.examples_run + 3
    assert input_size(result.counterexample.input) <= input_size(result.first_failure)


def test_stress_and_the_counterexample_search_of_judge_run_have_one_budget():
    from judge.authoring import explain
    from judge.commands.common import DEFAULT_EXPLAIN_SECONDS

    assert explain.PER_SUBMISSION == DEFAULT_EXPLAIN_SECONDS == stress_module.SEARCH_SECONDS
    assert explain.SEARCH_EXAMPLES is stress_module.SEARCH_EXAMPLES
    from judge.authoring.stress import StressResult
    from judge.commands.stress_command import render_stress

    problem = load_problem("stones")
    nothing = StressResult("stones", "mine.py", 982, False)
    assert render_stress(nothing, problem, None, None, 10.0).endswith("in 982 examples (stones, mine.py) within 10 s.")
    assert render_stress(nothing, problem, None, None).endswith(": the strategies gave no other input.")
    assert render_stress(nothing, problem, None, 982).endswith("in 982 examples (stones, mine.py).")


@pytest.mark.parametrize("text, complaint", [
    ("def inputs():\n    raise ValueError('no strategy today')\n", "inputs() failed: ValueError: no strategy today"),
    (("from hypothesis import strategies as st\n"
      "def inputs():\n    return st.integers(1, 9).map(lambda n: 1 / 0)\n"), "failed: ZeroDivisionError"),
])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_broken_strategies_file_is_one_clear_error(tmp_path, text, complaint, jobs):
    for folder in ("cases", "reference", "validators"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    (tmp_path / "strategies").mkdir()
    (tmp_path / "strategies" / "stones.py").write_text(text)
    done = run_judge("stress", "stones", str(ROOT / "solutions/stones/accepted/game_dp.py"), "--examples", "20",
                     "-j", jobs, cwd=tmp_path)
    assert done.returncode == 2
    assert "strategies/stones.py" in done.stderr and complaint in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_save_appends_a_hidden_case_and_keeps_the_file(tmp_path):
    for folder in ("cases", "reference", "validators", "strategies", "solutions"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    suite = tmp_path / "cases" / "stones.yaml"
    # The smallest input the search finds (101) is a case of the suite already: take it out, so
    # that the search finds a new one (an input the suite has is not saved again).
    suite.write_text(suite.read_text().replace('  - name: mid-odd\n    group: edges\n    input: "101\\n"\n', ""))
    before = suite.read_text()
    assert "mid-odd" not in before
    done = run_judge("stress", "stones", str(ROOT / "solutions/stones/wrong_answer/small_table.cpp"),
                     "--examples", "100", "--save", cwd=tmp_path)
    assert done.returncode == 1 and "saved to the suite as hidden case stress-" in done.stdout
    after = suite.read_text()
    assert after.startswith(before)  # existing text and comments untouched
    saved = load_problem("stones", tmp_path).cases[-1]
    assert saved.visibility == "hidden" and saved.group == "stress" and "judge stress" in saved.origin
    assert saved.input == "101\n"
    assert run_judge("test", "stones", cwd=tmp_path).returncode == 0
    assert run_judge("run", "stones", str(ROOT / "solutions/stones/wrong_answer/small_table.cpp"),
                     "--case", saved.name, cwd=tmp_path).returncode == 1
    again = run_judge("stress", "stones", str(ROOT / "solutions/stones/wrong_answer/small_table.cpp"),
                      "--examples", "100", "--save", cwd=tmp_path)
    assert again.returncode == 1 and suite.read_text() == after  # not saved twice


def test_no_example_database_is_written(tmp_path):
    run_judge("stress", "stones", str(ROOT / "solutions/stones/wrong_answer/even_wins.py"), "--examples", "20",
              cwd=tmp_path, env={"JUDGE_ROOT": str(ROOT)})
    assert not (tmp_path / ".hypothesis").exists()


# --- the strategies double as property tests of the reference solvers ------------------------

def _accepted_module(problem_id: str):
    import importlib.util
    for path, verdict in example_solutions(problem_id):
        if verdict == "AC" and path.suffix == ".py" and ("def solve" in path.read_text() or "def solution" in path.read_text()):
            spec = importlib.util.spec_from_file_location(f"accepted_{problem_id}", path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            return module
    return None


@pytest.mark.parametrize("problem_id", PROBLEMS)
def test_reference_agrees_with_an_independent_solution_on_generated_inputs(problem_id):
    problem = load_problem(problem_id)
    reference, validator = reference_module(problem), validator_module(problem)
    other = _accepted_module(problem_id)

    @settings(max_examples=60, database=None, deadline=None)
    @given(strategy_module(problem).inputs())
    def check(value):
        validator.validate(value)
        if problem.io == "function":
            import copy
            assert reference.solution(*copy.deepcopy(value)) == other.solution(*copy.deepcopy(value))
        elif other is not None:
            assert reference.solve(value).split() == other.solve(value).split()
        else:  # stones: SK exactly when N is odd
            assert reference.solve(value).strip() == ("SK" if int(value) % 2 else "CY")

    check()


def test_a_time_limit_given_to_stress_is_scaled_for_the_language_as_judge_run_scales_it():
    # One rule for both commands: `--time-limit` is the problem's limit, which each language
    # then adjusts (Java's and node's slower starts), not a raw CPU limit for the program.
    from judge.authoring.stress import _prepared
    from judge.runner import prepare

    problem = load_problem("stones")
    java = ROOT / "solutions/stones/accepted/Parity.java"
    stressed = _prepared(problem, java, None, 0.5)
    judged = prepare(dataclasses.replace(problem, time_limit=0.5), java, None)
    assert stressed.limits.cpu_time == judged.limits.cpu_time > 0.5
