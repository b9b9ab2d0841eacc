import json
import time

import pytest
from conftest import ROOT, run_judge

from judge.errors import SuiteError
from judge.problem_code import checkers
from judge.problem_code.checkers import check_data, check_exact, check_float, check_tokens, get_checker


def test_tokens_ignore_trailing_whitespace_and_blank_lines():
    assert check_tokens("1 2  \n3\n\n\n", "1 2\n3\n").ok


def test_tokens_name_the_first_difference():
    result = check_tokens("1 2\n3 5\n", "1 2\n3 4\n")
    assert not result.ok
    assert result.message == "line 2, token 2: expected '4', got '5'"


def test_tokens_missing_and_extra_lines():
    assert check_tokens("1\n", "1\n2\n").message == "line 2: expected '2', got the end of the output"
    assert check_tokens("1\n2\n", "1\n").message == "line 2: expected the end of the output, got '2'"
    assert check_tokens("1\n", "1 2\n").message == "line 1, token 2: expected '2', got the end of the line"
    assert check_tokens("1\n", "1\n2\n", reveal=False).message == (
        "line 2: got the end of the output, where the expected output goes on")


def test_no_output_at_all_is_said_plainly():
    assert check_tokens("", "SK\n").message == "no output; expected 'SK' on line 1"
    assert check_tokens("", "SK\n", reveal=False).message == "no output"
    assert check_exact("", "SK\n").message == "no output; expected 'SK' on line 1"
    assert check_float("", "1.5\n", reveal=False).message == "no output"
    assert check_tokens("\n", "SK\n").message == "line 1: expected 'SK', got the end of the output"


def test_only_blank_lines_at_the_end_are_ignored():
    assert check_tokens("1\n2\n\n\n", "1\n2\n").ok
    assert check_tokens("1  \n2\t\n", "1\n2\n").ok
    assert not check_tokens("1\n\n2\n", "1\n2\n").ok
    assert "token 2" in check_tokens("1\n", "1 2\n").message


def test_hidden_cases_do_not_reveal_the_expected_text():
    result = check_tokens("CY\n", "SK\n", reveal=False)
    assert not result.ok and "SK" not in result.message and "CY" in result.message


def test_tokens_differ_on_spaces_inside_a_line_is_fine_but_tokens_count():
    assert check_tokens("a   b\n", "a b\n").ok
    assert not check_tokens("ab\n", "a b\n").ok


def test_exact_is_exact():
    assert check_exact("a\n", "a\n").ok
    assert not check_exact("a \n", "a\n").ok
    assert "line 1" in check_exact("b\n", "a\n").message


def test_float_tolerance():
    assert check_float("3.1415927\n", "3.14159265\n", abs_tol=1e-6).ok
    assert not check_float("3.15\n", "3.14\n", abs_tol=1e-6, rel_tol=1e-6).ok
    assert check_float("1000001\n", "1000000\n", abs_tol=0, rel_tol=1e-5).ok
    assert not check_float("nan\n", "1\n").ok


def test_data_compares_values():
    assert check_data("5", 5).ok
    assert not check_data("6", 5).ok
    assert not check_data("true", 1).ok
    assert "the returned value is not JSON" in check_data("oops", 5).message


def test_data_numbers_of_either_kind_are_the_same_double():
    assert check_data("5.0", 5).ok and check_data("5", 5.0).ok and not check_data("6", 5.0).ok
    assert check_data("[[49860778810378150], [0]]", [[4.986077881037815e16], [0.0]]).ok  # as JavaScript writes it
    assert not check_data("[true]", [1]).ok and not check_data("[1]", [True]).ok
    assert not check_data("[1, 2]", [1, 2, 3]).ok and not check_data("{\"a\": 1}", [1]).ok
    assert check_data('{"a": [1]}', {"a": [1]}).ok


def test_custom_checker_from_a_file(tmp_path):
    (tmp_path / "mine.py").write_text("def check(got, expected, **options):\n"
                                      "    return got.strip().lower() == expected.strip().lower(), 'case differs'\n")
    checker = get_checker("custom", {"function": "mine.py:check"}, tmp_path)
    assert checker("YES\n", "yes\n").ok
    assert checker("no\n", "yes\n").message == "case differs"


def test_unknown_checker_is_an_error():
    with pytest.raises(SuiteError, match="unknown checker 'fuzzy'"):
        get_checker("fuzzy", {}, ROOT)


@pytest.mark.parametrize("source, said", [
    ("def checker(got, expected):\n    return True\n", "defines no function check (it defines checker)"),
    ("def check(got, expected)\n    return True\n", "the checker does not load: SyntaxError: expected ':' (line 1)"),
    ("import no_such_module\n", "the checker does not load: ModuleNotFoundError: No module named 'no_such_module' (line 1)"),
    ("def check(got, expected, inp):\n    return True\n", "check(got, expected, inp) cannot be called as a checker"),
    ("def check(got, expected, *, input_text):\n    return True\n", "missing a required argument: 'input_text'"),
    ("def check(got):\n    return True\n", "too many positional arguments"),
])
def test_a_checker_that_cannot_work_is_an_error_saying_how_to_write_one(tmp_path, source, said):
    (tmp_path / "mine.py").write_text(source)
    with pytest.raises(SuiteError) as refused:
        get_checker("custom", {"function": "mine.py"}, tmp_path)
    assert said in str(refused.value)
    # A file that does not load needs its own error fixed; one of the wrong shape is told the shape.
    assert ("does not load" in said) != ("a checker is def check(got, expected, **options)" in str(refused.value))


def test_a_missing_checker_file_is_an_error_saying_how_to_name_it(tmp_path):
    with pytest.raises(SuiteError, match="custom checker file .*nope.py does not exist; name it in the suite as"):
        get_checker("custom", {"function": "nope.py:check"}, tmp_path)


def test_a_checker_asking_for_a_suite_option_by_name_is_fine(tmp_path):
    (tmp_path / "mine.py").write_text("def check(got, expected, *, tolerance):\n    return float(got) <= tolerance\n")
    checker = get_checker("custom", {"function": "mine.py", "tolerance": 2}, tmp_path)
    assert checker("1", "?", tolerance=2).ok


@pytest.mark.parametrize("returned", ["'yes'", "1", "None", "(1, 'x')", "[True, 'x']"])
def test_a_checker_returning_no_verdict_is_its_own_mistake_not_a_verdict(tmp_path, returned):
    """A truthy string is not an acceptance: the judge says what came back and what may."""
    (tmp_path / "mine.py").write_text(f"def check(got, expected):\n    return {returned}\n")
    checker = get_checker("custom", {"function": "mine.py"}, tmp_path)
    with pytest.raises(TypeError, match=r"check\(\) returned .* a checker is def check"):
        checker("x", "x")


def _peak_allocation(function, *args, **kwargs) -> int:
    import tracemalloc
    tracemalloc.start()
    try:
        function(*args, **kwargs)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_huge_outputs_are_compared_without_splitting_them_all_at_once():
    """Outputs of 256 KiB: 128 Ki tokens on one line, or 128 Ki short lines. Read one token and
    one line at a time, in place, a comparison allocates a few KiB whatever the size (split at
    once, tens of times the output's size)."""
    tokens = "1 " * (1 << 17)
    lines = "1\n" * (1 << 17)
    for got, expected in [(tokens, "1 2\n"), (lines, "1\n2\n"), (tokens + "\n", tokens.rstrip() + " 2\n"),
                          (lines + "x\n", lines)]:
        for checker in (check_tokens, check_float, check_exact):
            assert not checker(got, expected).ok
        for checker in (check_tokens, check_exact):
            assert _peak_allocation(checker, got, expected) < 64 << 10, checker.__name__
    assert check_tokens(lines + "\n\n\n", lines).ok


def test_a_custom_checker_gets_the_input_or_the_arguments_when_it_asks_by_name(tmp_path):
    from judge.model.problem import Case
    (tmp_path / "mine.py").write_text(
        "def by_input(got, expected, *, input):\n"
        "    return int(got) == sum(map(int, input.split())), 'not the sum of the input'\n"
        "def by_args(got, expected, *, args):\n"
        "    return int(got) == sum(args[0]), 'not the sum of the list'\n"
        "def plain(got, expected):\n"
        "    return got == expected\n")
    stdio = Case("c", input="2 3\n")
    assert get_checker("custom", {"function": "mine.py:by_input"}, tmp_path)("5", "?", case=stdio, reveal=False).ok
    assert not get_checker("custom", {"function": "mine.py:by_input"}, tmp_path)("6", "?", case=stdio).ok
    call = Case("f", args=([1, 2, 4],))
    assert get_checker("custom", {"function": "mine.py:by_args"}, tmp_path)("7", None, case=call).ok
    # A checker that asks for nothing more is given nothing more (not the suite's options either).
    assert get_checker("custom", {"function": "mine.py:plain"}, tmp_path)("x", "x", case=stdio, reveal=True).ok


EXAMPLE = ROOT / "examples" / "any-answer"


def test_the_any_valid_answer_example_problem_passes_judge_test():
    done = run_judge("test", "pairsum", "--problems", str(EXAMPLE))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "got WA on same-values: positions must satisfy" in done.stdout


def test_a_pair_other_than_the_references_is_accepted(tmp_path):
    mine = tmp_path / "mine.py"
    # Another right answer on every case: the pair found scanning from the right.
    mine.write_text((EXAMPLE / "solutions/pairsum/accepted/last_pair.py").read_text())
    done = run_judge("run", "pairsum", str(mine), "--problems", str(EXAMPLE), "--no-record", "--format", "json")
    result = json.loads(done.stdout)
    assert result["verdict"] == "AC", result
    reference = run_judge("run", "pairsum", str(EXAMPLE / "reference/pairsum.py"), "--problems", str(EXAMPLE),
                          "--no-record", "--format", "json", "--case", "two-answers")
    assert json.loads(reference.stdout)["verdict"] == "AC"


def test_changing_a_suites_checker_changes_what_its_results_are_stored_under(tmp_path):
    import shutil

    from judge.classroom.store import suite_hash
    from judge.formats.catalog import load_problem
    copy = tmp_path / "any-answer"
    shutil.copytree(EXAMPLE, copy)
    before = suite_hash(load_problem("pairsum", copy))
    checker = copy / "checkers" / "pairsum.py"
    checker.write_text(checker.read_text() + "\n# stricter now\n")
    assert suite_hash(load_problem("pairsum", copy)) != before


def test_a_checker_that_never_returns_is_given_up_on(tmp_path, monkeypatch):
    """Its endless loop cannot be stopped from outside; nothing waits for it past the deadline,
    and it is not called again."""
    monkeypatch.setattr(checkers, "CHECKER_SECONDS", 0.5)
    released = tmp_path / "released"  # only so that the loop ends with the test, not the session
    (tmp_path / "mine.py").write_text(f"import os\ndef check(got, expected):\n"
                                      f"    while not os.path.exists({str(released)!r}):\n        pass\n")
    checker = get_checker("custom", {"function": "mine.py"}, tmp_path)
    try:
        with pytest.raises(SuiteError, match=r"the checker mine.py:check did not return within 0.5 s"):
            checker("x", "x")
        started = time.monotonic()
        with pytest.raises(SuiteError, match="did not return"):
            checker("y", "y")
        assert time.monotonic() - started < 0.4
    finally:
        released.touch()


def _copy_of_the_example(tmp_path):
    import shutil

    copy = tmp_path / "any-answer"
    shutil.copytree(EXAMPLE, copy)
    return copy


def test_a_checker_that_raises_is_reported_with_its_file_and_line(tmp_path):
    copy = _copy_of_the_example(tmp_path)
    checker = copy / "checkers" / "pairsum.py"
    assertion = "    assert not input.startswith('4 6')\n"
    checker.write_text(checker.read_text().replace("    tokens = input.split()\n", assertion + "    tokens = input.split()\n"))
    line = checker.read_text().splitlines().index("    assert not input.startswith('4 6')") + 1
    suite = copy / "cases" / "pairsum.yaml"  # a sample, whose message a student's report shows
    suite.write_text(suite.read_text().replace("  - name: two-answers\n", "  - name: two-answers\n    visibility: sample\n"))
    done = run_judge("run", "pairsum", str(copy / "solutions/pairsum/accepted/last_pair.py"), "--problems", str(copy),
                     "--no-record", "--format", "json")
    case = next(case for case in json.loads(done.stdout)["cases"] if case["name"] == "two-answers")
    assert case["verdict"] == "IE"
    assert case["message"] == ("checking case two-answers failed: the checker pairsum.py:check raised "
                               f"AssertionError (line {line})")


def test_judge_test_says_once_and_first_that_the_checker_is_misspelt(tmp_path):
    copy = _copy_of_the_example(tmp_path)
    suite = copy / "cases" / "pairsum.yaml"
    suite.write_text(suite.read_text().replace("pairsum.py:check", "pairsum.py:chek"))
    done = run_judge("test", "pairsum", "--problems", str(copy))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[1].startswith("pairsum  checker  FAIL  ") and "defines no function chek (it defines check)" in lines[1]
    assert "chek" not in "\n".join(lines[2:]) and "pairsum  solution" not in done.stdout  # none judged with it
