import shutil
from pathlib import Path

import pytest
from conftest import ROOT, built_in_problems, project_with, run_judge

from judge.errors import SuiteError, UnsupportedSubmission
from judge.formats.catalog import known_problems, load_problem
from judge.formats.suite.format import load_suite
from judge.runner import prepare

GOOD = """
id: tiny
title: Tiny
limits: {time: 0.5, memory: 64, output: 1}
cases:
  - {name: one, input: "1\\n", output: "1\\n", visibility: sample}
  - {name: two, input: "2\\n"}
"""


def write_suite(tmp_path: Path, text: str, name: str = "tiny") -> Path:
    (tmp_path / "cases").mkdir(exist_ok=True)
    path = tmp_path / "cases" / f"{name}.yaml"
    path.write_text(text)
    return path


def test_a_good_suite_loads(tmp_path):
    problem = load_suite(write_suite(tmp_path, GOOD), root=tmp_path)
    assert problem.id == "tiny" and problem.io == "stdio"
    assert problem.time_limit == 0.5 and problem.memory_limit == 64 << 20
    assert [case.name for case in problem.cases] == ["one", "two"]
    assert problem.cases[0].visibility == "sample" and problem.cases[1].visibility == "hidden"
    assert problem.cases[1].expected is None


@pytest.mark.parametrize("text, message", [
    ("id: tiny\ntitle: T\ncases: [{name: a}]\n", "case #1 (a): missing field 'input'"),
    ("id: tiny\ntitle: T\ncases: [{name: a, input: 5}]\n", "field 'input' must be str, got int"),
    ("id: tiny\ntitle: T\ncases: []\n", "field 'cases' is empty"),
    ("id: tiny\ncases: [{name: a, input: x}]\n", "header: missing field 'title'"),
    ("id: other\ntitle: T\ncases: [{name: a, input: x}]\n", "must match the file name"),
    ("id: tiny\ntitle: T\nio: socket\ncases: [{name: a, input: x}]\n", "field 'io' must be one of stdio, function"),
    ("id: tiny\ntitle: T\nlimits: {time: -1}\ncases: [{name: a, input: x}]\n", "limits: field 'time' must be a positive number"),
    ("id: tiny\ntitle: T\nlimits: {time: .nan}\ncases: [{name: a, input: x}]\n", "field 'time' must be a positive number"),
    ("id: tiny\ntitle: T\nlimits: {memory: .inf}\ncases: [{name: a, input: x}]\n", "field 'memory' must be a positive number"),
    ("id: tiny\ntitle: T\nlimit: {time: 2}\ncases: [{name: a, input: x}]\n", "unknown field 'limit'; did you mean 'limits'?"),
    ("id: tiny\ntitle: T\nlimits: {memroy: 64}\ncases: [{name: a, input: x}]\n", "unknown field 'memroy'; did you mean 'memory'?"),
    ("id: tiny\ntitle: T\ncases: [{name: a, input: x, visiblity: sample}]\n", "unknown field 'visiblity'; did you mean 'visibility'?"),
    ("id: tiny\ntitle: T\ncases: [{name: a, input: x, expected: y}]\n", "field 'expected' is for function problems"),
    ("id: tiny\ntitle: T\ncases: [{name: a, input: x, visibility: secret}]\n", "visibility' must be sample or hidden"),
    ("id: tiny\ntitle: T\ncases: [{name: a, input: x}, {name: a, input: y}]\n", "duplicate case name"),
    ("id: tiny\ntitle: T\ncases: [{name: a, input: [x}\n", "not valid YAML"),
    ("- just\n- a list\n", "expected a mapping"),
    ("id: tiny\ntitle: T\nscoring: groups\ngroups: {a: 10}\ncases: [{name: a, input: x, group: b}]\n",
     "group 'b' has no points"),
    ("id: tiny\ntitle: T\nio: function\ncases: [{name: a, input: x}]\n", "field 'input' is for stdio problems"),
    ("id: tiny\ntitle: T\nio: function\ncases: [{name: a}]\n", "missing field 'args'"),
    ("id: tiny\ntitle: T\ncases: [{name: a, input: x, args: [1]}]\n", "field 'args' is for function problems"),
])
def test_malformed_suites_name_file_case_and_field(tmp_path, text, message):
    path = write_suite(tmp_path, text)
    with pytest.raises(SuiteError) as error:
        load_suite(path, root=tmp_path)
    assert str(path) in str(error.value)
    assert message in str(error.value)


def test_yaml_tags_are_not_executed(tmp_path):
    path = write_suite(tmp_path, "!!python/object/apply:os.system ['echo pwned']\n")
    with pytest.raises(SuiteError, match="not valid YAML"):
        load_suite(path, root=tmp_path)


def test_unknown_problem_lists_the_known_ones():
    with pytest.raises(SuiteError) as error:
        load_problem("chess")
    assert "unknown problem 'chess'" in str(error.value)
    for problem_id in built_in_problems():
        assert problem_id in str(error.value)


def test_the_built_in_problems_are_the_suites_in_cases():
    assert known_problems(ROOT) == sorted(path.stem for path in (ROOT / "cases").glob("*.yaml"))


def test_a_folder_is_no_submission_to_a_suite_problem(tmp_path):
    """Only a format that takes folders of files (packages) builds one; a suite problem says so."""
    (tmp_path / "main.py").write_text("print(1)\n")
    with pytest.raises(UnsupportedSubmission, match="is a folder; stones takes one source file"):
        prepare(load_problem("stones"), tmp_path)


@pytest.mark.parametrize("body, said", [
    ("    return 1 // 0\n", "validate() failed: ZeroDivisionError: integer division or modulo by zero (line 2)"),
    ("    import sys\n    sys.exit(1)\n", "validate() failed: it called sys.exit(1)"),
])
def test_a_validator_that_fails_otherwise_than_by_rejecting_is_a_failed_check(tmp_path, body, said):
    """A suite's validator raises ValueError to reject; any other error, or an exit, is its
    author's mistake: judge test says so, with the line, and goes on to the next checks."""
    project = project_with(tmp_path, "stones")
    (project / "validators" / "stones.py").write_text("def validate(text):\n" + body)
    done = run_judge("test", "stones", "--problems", str(project))
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert f"stones  validator  FAIL  {project / 'validators' / 'stones.py'}: {said}" in done.stdout
    assert "a validator raises ValueError to reject an input" in done.stdout
    assert "stones  reference  ok" in done.stdout


def test_a_validator_that_does_not_load_is_a_failed_check_naming_the_line(tmp_path):
    project = project_with(tmp_path, "stones")
    (project / "validators" / "stones.py").write_text("def validate(text)\n    pass\n")
    done = run_judge("test", "stones", "--problems", str(project))
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    assert "the validator does not load: SyntaxError: expected ':' (line 1)" in done.stdout


def _stones_with_solutions(tmp_path: Path, accepted: tuple[str, ...]) -> Path:
    project = project_with(tmp_path, "stones")
    for folder, names in (("accepted", accepted), ("wrong_answer", ("even_wins.py",))):
        (project / "solutions/stones" / folder).mkdir(parents=True)
        for name in names:
            shutil.copy(ROOT / "solutions/stones" / folder / name, project / "solutions/stones" / folder / name)
    return project


def test_a_reference_wrong_on_a_case_is_named_when_the_accepted_solutions_agree(tmp_path):
    project = _stones_with_solutions(tmp_path, ("game_dp.py", "parity.c"))
    reference = project / "reference" / "stones.py"
    reference.write_text(reference.read_text().replace("n % 2 == 1", "(n % 2 == 1 or n == 6)"))
    done = run_judge("test", "stones", "--problems", str(project))
    assert done.returncode == 1, done.stdout
    assert ("stones  reference  FAIL  likely wrong on case small-even: all 2 accepted solutions agree with each other "
            "there ('CY'), not with the reference stones.py ('SK')") in done.stdout


def test_accepted_solutions_that_disagree_do_not_blame_the_reference(tmp_path):
    project = _stones_with_solutions(tmp_path, ("game_dp.py", "parity.c"))
    reference = project / "reference" / "stones.py"
    reference.write_text(reference.read_text().replace("n % 2 == 1", "(n % 2 == 1 or n == 6)"))
    wrong = project / "solutions/stones/accepted/parity.c"
    wrong.write_text(wrong.read_text().replace("% 2", "% 4"))  # wrong itself, on n = 2 first
    done = run_judge("test", "stones", "--problems", str(project))
    assert "game_dp.py  FAIL  expected AC, got WA on small-even" in done.stdout, done.stdout
    assert "parity.c  FAIL  expected AC, got WA on smallest-even" in done.stdout and "likely wrong" not in done.stdout


def test_a_validator_that_never_returns_is_given_up_on(tmp_path, monkeypatch):
    from judge.formats.suite.format import load_suite
    from judge.problem_code import reference

    monkeypatch.setattr(reference, "VALIDATOR_SECONDS", 0.5)
    project = project_with(tmp_path, "stones")
    released = tmp_path / "released"  # only so that the loop ends with the test, not the session
    (project / "validators" / "stones.py").write_text(
        f"import os\ndef validate(text):\n    while not os.path.exists({str(released)!r}):\n        pass\n")
    try:
        with pytest.raises(SuiteError, match=r"the validator stones.py did not return within 0.5 s"):
            reference.rejection(load_suite(project / "cases" / "stones.yaml"), "5\n")
    finally:
        released.touch()


@pytest.mark.parametrize("checker, only_one", [("tokens", True), ("exact", True), ("float", False)])
def test_the_expected_output_is_the_only_right_one_for_the_exact_checkers(tmp_path, checker, only_one):
    """Only then is the first difference from it where an output goes wrong (reports point at it)."""
    problem = load_suite(write_suite(tmp_path, GOOD.replace("cases:", f"checker: {checker}\ncases:")), root=tmp_path)
    assert problem.one_right_output is only_one
