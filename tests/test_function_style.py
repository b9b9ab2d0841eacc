"""Function-style problems in C, C++ and Java: typed signatures, declarations, generated harnesses.

Every run here is a real compile and a real sandboxed run. The round-trip property tests compile
one echo function per language and type, then run it on Hypothesis' inputs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT, run_judge
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from judge.errors import SuiteError, UnsupportedSubmission
from judge.formats.catalog import load_problem
from judge.formats.suite.format import load_suite
from judge.languages import LANGUAGES
from judge.model.problem import Case, Problem, ProblemFiles
from judge.model.results import Prepared
from judge.model.signature import SignatureError, Type, check_arguments, parse_signature
from judge.runner import judge_submission, prepare, run_case
from judge.tasks import FunctionCall

FOOTHOLDS = load_problem("footholds")
SOLUTIONS = ROOT / "solutions" / "footholds"
COMPILED = ("c", "cpp", "java")
EXTENSION = {"c": "c", "cpp": "cpp", "java": "java", "python": "py", "javascript": "js"}
DECLARATIONS = {
    "c": "int solution(int** board, size_t board_rows, size_t board_cols, int aloc[], size_t aloc_len, "
         "int bloc[], size_t bloc_len)",
    "cpp": "int solution(vector<vector<int>> board, vector<int> aloc, vector<int> bloc)",
    "java": "class Solution { public int solution(int[][] board, int[] aloc, int[] bloc) }",
    "python": "def solution(board: list[list[int]], aloc: list[int], bloc: list[int]) -> int",
    "javascript": "function solution(board, aloc, bloc)",
}


def judge_cases(path: Path, names=("sample-4", "sample-1"), problem: Problem = FOOTHOLDS):
    return judge_submission(problem, path, cases=[problem.case(name) for name in names])


# ---------------------------------------------------------------------------------------------
# The signature

def test_the_footholds_signature_and_every_languages_declaration():
    assert str(FOOTHOLDS.signature) == "int solution(int[][] board, int[] aloc, int[] bloc)"
    for name, declaration in DECLARATIONS.items():
        assert LANGUAGES[name].function_style.declaration(FOOTHOLDS.signature) == declaration


def test_declarations_of_every_type():
    signature = parse_signature({"returns": "string[]", "params": [
        {"name": "n", "type": "long"}, {"name": "x", "type": "double[]"}, {"name": "words", "type": "string[][]"},
        {"name": "flag", "type": "bool"}]})
    declare = {name: LANGUAGES[name].function_style.declaration for name in DECLARATIONS}
    assert declare["c"](signature) == ("char** solution(long long n, double x[], size_t x_len, const char*** words, "
                                       "size_t words_rows, size_t words_cols, bool flag, size_t* return_len)")
    assert declare["cpp"](signature) == "vector<string> solution(long long n, vector<double> x, vector<vector<string>> words, bool flag)"
    assert declare["java"](signature) == "class Solution { public String[] solution(long n, double[] x, String[][] words, boolean flag) }"
    assert declare["python"](signature) == "def solution(n: int, x: list[float], words: list[list[str]], flag: bool) -> list[str]"


@pytest.mark.parametrize("data, message", [
    ({"returns": "int", "params": [{"name": "a", "type": "float"}]}, "unknown type 'float'"),
    ({"returns": "int[][][]", "params": []}, "at most 2 are supported"),
    ({"params": []}, "missing field 'returns'"),
    ({"returns": "int", "params": [{"name": "class", "type": "int"}]}, "reserved"),
    ({"returns": "int", "params": [{"name": "judge_x", "type": "int"}]}, "names starting with judge"),
    ({"returns": "int", "params": [{"name": "a", "type": "int[]"}, {"name": "a_len", "type": "int"}]}, "used twice"),
    ({"returns": "int", "params": [{"name": "a", "type": "int"}], "extra": 1}, "unknown field"),
    ({"returns": "int", "params": [{"name": "a"}]}, "must be a mapping {name: ..., type: ...}"),
    ({"name": "answer", "returns": "int", "params": []}, "field 'name' must be 'solution'"),
    ("int solution()", "must be a mapping"),
])
def test_bad_signatures_are_named(data, message):
    with pytest.raises(SignatureError, match=message.replace("[", r"\[").replace("{", r"\{").replace("}", r"\}")):
        parse_signature(data)


@pytest.mark.parametrize("args, message", [
    ([[[1]], [0, 0]], "2 arguments given, but solution takes 3"),
    ([[[1, 1], [1]], [0, 0], [0, 0]], "rows of a 2-D array must all have the same length"),
    ([[[1]], [0, 2**31], [0, 0]], "does not fit a int"),
    ([[[1]], [0, 0.5], [0, 0]], "expected a whole number"),
    ([[[True]], [0, 0], [0, 0]], "expected a number"),
])
def test_arguments_are_checked_against_the_types(args, message):
    with pytest.raises(SignatureError, match=message):
        check_arguments(FOOTHOLDS.signature, args)


def test_suite_errors_name_the_case_and_the_signature(tmp_path):
    text = (ROOT / "cases/footholds.yaml").read_text()
    (tmp_path / "cases").mkdir()
    path = tmp_path / "cases/footholds.yaml"
    path.write_text(text.replace("args: [[[1]], [0, 0], [0, 0]]", "args: [[[1]], [0, 0], 'x']", 1))
    with pytest.raises(SuiteError, match=r"case sample-4: argument bloc \(int\[\]\): expected a list.*the signature is"):
        load_suite(path)
    path.write_text(text.replace('type: "int[]"}', 'type: "vec"}', 1))
    with pytest.raises(SuiteError, match="signature: parameter aloc: unknown type 'vec'"):
        load_suite(path)


def test_judge_show_prints_the_declaration_in_every_language():
    done = run_judge("show", "footholds")
    assert done.returncode == 0, done.stderr
    for declaration in DECLARATIONS.values():
        assert declaration in done.stdout


# ---------------------------------------------------------------------------------------------
# Example solutions and signature mistakes

EXAMPLES = [path for folder, verdict in (("accepted", "AC"), ("wrong_answer", "WA"), ("compile_error", "CE"))
            for path in sorted((SOLUTIONS / folder).iterdir()) if path.suffix in (".c", ".cpp", ".java")]


@pytest.mark.parametrize("path", EXAMPLES, ids=[f"{p.parent.name}/{p.name}" for p in EXAMPLES])
def test_each_compiled_example_gets_its_folders_verdict(path):
    expected = {"accepted": "AC", "wrong_answer": "WA", "compile_error": "CE"}[path.parent.name]
    result = judge_submission(FOOTHOLDS, path, jobs=2, stop_on_failure=expected != "AC")
    assert result.verdict == expected, [(case.name, case.message) for case in result.cases if case.verdict != "AC"]


C_HEAD = "#include <stddef.h>\n"
CPP_HEAD = "#include <vector>\nusing namespace std;\n"
JAVA_METHOD = "public int solution(int[][] board, int[] aloc, int[] bloc) { return 0; }"
MISTAKES = [
    ("c", "missing", C_HEAD + "int solve(int** b, size_t r, size_t c, int a[], size_t al, int x[], size_t bl) { return 0; }\n",
     "no function `solution` found"),
    ("c", "types", C_HEAD + "int solution(int board[5][5], int aloc[], int bloc[]) { return 0; }\n", "does not match"),
    ("c", "return", C_HEAD + "long solution(int** b, size_t r, size_t c, int a[], size_t al, int x[], size_t bl) "
                             "{ return 0; }\n", "does not match"),
    ("c", "main", C_HEAD + "int solution(int** b, size_t r, size_t c, int a[], size_t al, int x[], size_t bl) "
                           "{ return 0; }\nint main(void) { return 0; }\n", "remove `main`"),
    ("cpp", "missing", CPP_HEAD + "int answer(vector<vector<int>> b, vector<int> a, vector<int> c) { return 0; }\n",
     "no function `solution` found"),
    ("cpp", "types", CPP_HEAD + "int solution(vector<vector<int>> b, int ar, int ac, int br, int bc) { return 0; }\n",
     "does not match"),
    ("cpp", "return", CPP_HEAD + "vector<int> solution(vector<vector<int>> b, vector<int> a, vector<int> c) "
                                 "{ return a; }\n", "does not match"),
    ("cpp", "main", CPP_HEAD + "int solution(vector<vector<int>> b, vector<int> a, vector<int> c) { return 0; }\n"
                               "int main() { return 0; }\n", "remove `main`"),
    ("java", "missing", "class Solution { public int answer(int[][] board, int[] aloc, int[] bloc) { return 0; } }\n",
     "no method `solution` found"),
    ("java", "types", ("import java.util.*;\nclass Solution { public int solution(List<List<Integer>> board, "
                      "List<Integer> aloc, List<Integer> bloc) { return 0; } }\n"), "does not match"),
    ("java", "return", "class Solution { public long solution(int[][] board, int[] aloc, int[] bloc) { return 0; } }\n",
     "does not match"),
    ("java", "class", "public class Main { " + JAVA_METHOD + " }\n", "no class `Solution` found"),
    ("java", "class-not-public", "import java.util.*;\nclass Answer { " + JAVA_METHOD + " }\n", "no class `Solution` found"),
    ("java", "main", "class Solution { " + JAVA_METHOD + "\n public static void main(String[] args) {} }\n",
     "remove `main`"),
]


@pytest.mark.parametrize("language, kind, text, headline", MISTAKES, ids=[f"{m[0]}-{m[1]}" for m in MISTAKES])
def test_signature_mistakes_are_ce_naming_the_expected_declaration(write_program, language, kind, text, headline):
    result = judge_cases(write_program(f"mistake.{EXTENSION[language]}", text), names=("sample-4",))
    assert result.verdict == "CE"
    message = result.compile_message
    assert message.startswith(f"error: {headline}" if headline.startswith("no") else "error: ")
    assert headline in message and f"`{DECLARATIONS[language]}`" in message
    for harness_name in ("judge_", "JudgeHarness", "JudgeJson", "<command-line>", "/tmp/", "collect2"):
        assert harness_name not in message
    assert result.cases[0].message.startswith("error: ")


@pytest.mark.parametrize("language, text, compiler_says", [
    ("c", C_HEAD + "int solution(int** b, size_t r, size_t c, int a[], size_t al, int x[], size_t bl) { return y; }\n",
     "'y' undeclared"),
    ("cpp", CPP_HEAD + "int solution(vector<vector<int>> b, vector<int> a, vector<int> c) { return y; }\n",
     "'y' was not declared"),
    ("java", "class Solution { public int solution(int[][] board, int[] aloc, int[] bloc) { return y; } }\n",
     "cannot find symbol"),
])
def test_the_students_own_errors_come_with_the_declaration(write_program, language, text, compiler_says):
    result = judge_cases(write_program(f"own.{EXTENSION[language]}", text), names=("sample-4",))
    message = result.compile_message.replace("\u2018", "'").replace("\u2019", "'")
    assert result.verdict == "CE" and compiler_says in message
    assert message.endswith(f"note: the judge calls `{DECLARATIONS[language]}`")
    assert "JudgeHarness" not in message and "judge_" not in message


@pytest.mark.parametrize("language, text", [
    ("c", ('#include <stdio.h>\n#include <stddef.h>\nint solution(int** b, size_t r, size_t c, int a[], size_t al, '
          'int x[], size_t bl) { printf("5\\n"); fflush(stdout); return 0; }\n')),
    ("cpp", ('#include <bits/stdc++.h>\nusing namespace std;\nint solution(const vector<vector<int>>& b, '
            'vector<int>& a, const vector<int> c) { cout << 5 << endl; printf("5"); return 0; }\n')),
    ("java", ('class Solution { public int solution(int[][] board, int[] aloc, int[] bloc) '
             '{ System.out.println(5); return 0; } }\n')),
])
def test_printing_cannot_forge_the_result(write_program, language, text):
    result = judge_cases(write_program(f"noisy.{EXTENSION[language]}", text))
    assert [case.verdict for case in result.cases] == ["AC", "WA"], [case.message for case in result.cases]
    assert result.cases[1].message == "returned 0, expected 5"


@pytest.mark.parametrize("language, text, message", [
    ("c", ("#include <stddef.h>\nint solution(int** b, size_t r, size_t c, int a[], size_t al, int x[], size_t bl) "
          "{ return b[1 << 28][0]; }\n"), "SIGSEGV"),
    ("cpp", ("#include <vector>\nusing namespace std;\nint solution(vector<vector<int>> b, vector<int> a, vector<int> c)"
            " { return b.at(7).at(0); }\n"), "vector::_M_range_check"),
    ("java", "class Solution { public int solution(int[][] board, int[] aloc, int[] bloc) { return board[7][0]; } }\n",
     "java.lang.ArrayIndexOutOfBoundsException: Index 7 out of bounds for length 1"),
])
def test_a_failing_call_is_re_with_the_students_error(write_program, language, text, message):
    result = judge_cases(write_program(f"crash.{EXTENSION[language]}", text), names=("sample-4",))
    assert result.verdict == "RE" and message in result.cases[0].message, result.cases[0].message
    assert "JudgeHarness" not in result.cases[0].message


def test_compiled_languages_need_a_signature(tmp_path, write_program):
    text = (ROOT / "cases/footholds.yaml").read_text()
    start, end = text.index("signature:"), text.index("statement:")
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases/footholds.yaml").write_text(text[:start] + text[end:])
    untyped = load_suite(tmp_path / "cases/footholds.yaml")
    with pytest.raises(UnsupportedSubmission, match="gives no typed signature, which java needs"):
        prepare(untyped, SOLUTIONS / "accepted/Minimax.java")
    python = judge_submission(untyped, SOLUTIONS / "accepted/minimax.py", cases=[untyped.case("sample-1")])
    assert python.verdict == "AC"


# ---------------------------------------------------------------------------------------------
# Round trips: every type, through every language's harness, arguments in and result out

ECHO_SOURCES = {
    # T[][] solution(T value, T[] row, T[][] grid): [row, [value] * len(row), *grid]
    "c": ("#include <stdlib.h>\n#include <stddef.h>\n#include <stdbool.h>\n"
          "{R}** solution({P} value, {P} row[], size_t row_len, {P}** grid, size_t grid_rows, size_t grid_cols,\n"
          "           size_t* return_rows, size_t* return_cols) {{\n"
          "  {R}** out = malloc((grid_rows + 2) * sizeof *out);\n"
          "  {R}* copies = malloc((row_len + 1) * sizeof *copies);\n"
          "  for (size_t i = 0; i < row_len; i++) copies[i] = ({R})value;\n"
          "  out[0] = ({R}*)row;\n  out[1] = copies;\n"
          "  for (size_t i = 0; i < grid_rows; i++) out[i + 2] = ({R}*)grid[i];\n"
          "  *return_rows = grid_rows + 2;\n  *return_cols = row_len;\n  return out;\n}}\n"),
    "cpp": ("#include <bits/stdc++.h>\nusing namespace std;\n"
            "vector<vector<{P}>> solution({P} value, const vector<{P}>& row, vector<vector<{P}>> grid) {{\n"
            "  vector<vector<{P}>> out{{row, vector<{P}>(row.size(), value)}};\n"
            "  out.insert(out.end(), grid.begin(), grid.end());\n  return out;\n}}\n"),
    "java": ("import java.util.*;\n\nclass Solution {{\n"
             "  public {P}[][] solution({P} value, {P}[] row, {P}[][] grid) {{\n"
             "    {P}[][] out = new {P}[grid.length + 2][];\n    out[0] = row;\n    out[1] = new {P}[row.length];\n"
             "    Arrays.fill(out[1], value);\n    System.arraycopy(grid, 0, out, 2, grid.length);\n"
             "    return out;\n  }}\n}}\n"),
    "python": "def solution(value, row, grid):\n    return [row, [value] * len(row), *grid]\n",
    "javascript": "function solution(value, row, grid) {{\n  return [row, row.map(() => value), ...grid];\n}}\n",
}
NATIVE = {
    "c": ({"int": "int", "long": "long long", "double": "double", "bool": "bool", "string": "const char*"},
          {"int": "int", "long": "long long", "double": "double", "bool": "bool", "string": "char*"}),
    "cpp": ({"int": "int", "long": "long long", "double": "double", "bool": "bool", "string": "string"}, {}),
    "java": ({"int": "int", "long": "long", "double": "double", "bool": "boolean", "string": "String"}, {}),
}
TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"), max_size=8)
VALUES = {
    "int": st.integers(-(2**31), 2**31 - 1),
    "long": st.integers(-(2**63), 2**63 - 1),
    "double": st.floats(allow_nan=False, allow_infinity=False),
    "bool": st.booleans(),
    "string": TEXT | st.sampled_from(['"quoted" \\ back/slash', "\u00e9\u4e2d\U0001f600", "\x01\x1f\n\t\x7f", ""]),
}


def echo_problem(scalar: str) -> Problem:
    signature = parse_signature({"returns": f"{scalar}[][]", "params": [
        {"name": "value", "type": scalar}, {"name": "row", "type": f"{scalar}[]"},
        {"name": "grid", "type": f"{scalar}[][]"}]})
    return Problem(id="echo", title="echo", statement="", task=FunctionCall(), time_limit=5.0,
                   memory_limit=256 << 20, output_limit=16 << 20, files=ProblemFiles(root=Path.cwd()),
                   checker="data", signature=signature)


@pytest.fixture(scope="module")
def echo_programs(tmp_path_factory):
    """(problem, Prepared) per (language, scalar), compiled on first use."""
    built: dict = {}
    folder = tmp_path_factory.mktemp("echo")

    def get(language_name: str, scalar: str):
        if (language_name, scalar) not in built:
            param, returned = NATIVE.get(language_name, ({}, {}))
            text = ECHO_SOURCES[language_name].format(P=param.get(scalar), R=returned.get(scalar))
            path = folder / f"echo_{scalar}.{EXTENSION[language_name]}"
            path.write_text(text)
            problem = echo_problem(scalar)
            prepared = prepare(problem, path)
            assert isinstance(prepared, Prepared), prepared
            built[language_name, scalar] = problem, prepared
        return built[language_name, scalar]
    return get


def echo_inputs(values: st.SearchStrategy):
    """(value, row, grid) with the grid as wide as the row, so the echoed result is rectangular."""
    return st.tuples(values, st.lists(values, max_size=4)).flatmap(
        lambda pair: st.tuples(st.just(pair[0]), st.just(pair[1]),
                               st.lists(st.lists(values, min_size=len(pair[1]), max_size=len(pair[1])), max_size=3)))


def same(got, expected) -> bool:
    """Equal values; a JavaScript number written without a fraction is the same double."""
    if isinstance(expected, list):
        return isinstance(got, list) and len(got) == len(expected) and all(map(same, got, expected))
    if isinstance(expected, float):
        return isinstance(got, (int, float)) and not isinstance(got, bool) and float(got) == expected
    return type(got) is type(expected) and got == expected


ROUND_TRIPS = [(language, scalar) for language in ECHO_SOURCES for scalar in VALUES]


@pytest.mark.parametrize("language, scalar", ROUND_TRIPS, ids=[f"{lang}-{scalar}" for lang, scalar in ROUND_TRIPS])
def test_every_type_round_trips_through_the_harness(echo_programs, language, scalar):
    problem, prepared = echo_programs(language, scalar)
    values = VALUES[scalar]
    if language == "javascript" and scalar == "long":
        values = st.integers(-(2**53), 2**53)  # a JavaScript number holds integers up to 2^53 exactly

    @settings(max_examples=6, deadline=None, database=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(echo_inputs(values))
    @example(EMPTY[scalar])        # no rows at all
    @example(EMPTY_ROWS[scalar])   # rows of length 0
    def round_trip(arguments):
        value, row, grid = arguments
        expected = [row, [value] * len(row), *grid]
        case = Case(name="echo", args=(value, row, grid), expected=expected)
        result = run_case(problem, prepared, case)
        assert result.verdict in ("AC", "WA"), result.message
        assert same(json.loads(result.output), expected), (result.output, expected)

    round_trip()


FIRST = {"int": 7, "long": -(2**40), "double": 0.5, "bool": True, "string": "s"}
EMPTY = {scalar: (value, [], []) for scalar, value in FIRST.items()}
EMPTY_ROWS = {scalar: (value, [], [[], [], []]) for scalar, value in FIRST.items()}


def test_type_names_round_trip():
    assert str(Type("int", 2)) == "int[][]" and Type("int", 2).element == Type("int", 1)


# ---------------------------------------------------------------------------------------------
# Everything else: stress, grade, the pytest plugin, time limits

def test_stress_finds_the_compiled_wrong_answers_and_passes_java(tmp_path):
    done = run_judge("stress", "footholds", str(SOLUTIONS / "wrong_answer/winner_drags.cpp"), "--examples", "200",
                     "--format", "json")
    data = json.loads(done.stdout)
    assert done.returncode == 1 and data["found"] and data["counterexample"]["verdict"] == "WA", done.stderr
    java = tmp_path / "Solution.java"
    java.write_text((SOLUTIONS / "accepted/Minimax.java").read_text())
    done = run_judge("stress", "footholds", str(java), "--examples", "4", "--format", "json")
    assert done.returncode == 0 and json.loads(done.stdout)["found"] is False, done.stdout + done.stderr


def test_grade_takes_footholds_in_every_compiled_language(tmp_path):
    for student, source in [("ana", "accepted/Minimax.java"), ("ben", "wrong_answer/vanish_ignored.c"),
                            ("cy", "accepted/minimax.cpp")]:
        (tmp_path / "subs" / student).mkdir(parents=True)
        suffix = Path(source).suffix
        (tmp_path / "subs" / student / f"footholds{suffix}").write_text((SOLUTIONS / source).read_text())
    done = run_judge("grade", str(tmp_path / "subs"), "--db", str(tmp_path / "db.sqlite"), "--format", "json", "-j", "2")
    data = json.loads(done.stdout)
    verdicts = {entry["student"]: entry["problems"]["footholds"]["verdict"] for entry in data["students"]}
    assert verdicts == {"ana": "AC", "ben": "WA", "cy": "AC"} and not data["issues"], done.stderr


def test_the_pytest_plugin_judges_a_cpp_function(project):
    result = project.runpytest("cases/footholds.yaml", "--solution", str(SOLUTIONS / "accepted/minimax.cpp"),
                                "-k", "sample")
    result.assert_outcomes(passed=4)
    result = project.runpytest("cases/footholds.yaml", "--solution", str(SOLUTIONS / "compile_error/pairs.cpp"),
                                "-k", "sample-1")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*CE on case sample-1: error: `solution` does not match*vector<int> aloc*"])


def test_java_gets_its_time_multiplier_for_function_calls():
    prepared = prepare(FOOTHOLDS, SOLUTIONS / "accepted/Minimax.java")
    assert prepared.limits.cpu_time == FOOTHOLDS.time_limit * 2 + 1
    assert prepared.program.command[-1] == "JudgeHarness"
