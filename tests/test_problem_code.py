"""A problem's own Python files (reference, validator, strategies, checker) are loaded once and
kept with the problem (``Problem.code``): its copies share them, and a problem loaded again reads
them again, with no cache of the judge's process in between."""

import dataclasses

from conftest import project_with

from judge.formats.suite.format import load_suite
from judge.problem_code.checkers import problem_checker
from judge.problem_code.reference import expected_output, reference_module, validator_module

CHECKER = "def check(got, expected):\n    return got.split() == str(expected).split()\n"


def counted(path, loads):
    """``path``'s Python file, made to add a line to ``loads`` each time it is loaded."""
    path.write_text(f"open({str(loads)!r}, 'a').write('loaded\\n')\n" + path.read_text())


def stones_with_own_checker(project):
    (project / "mine.py").write_text(CHECKER)
    suite = project / "cases" / "stones.yaml"
    suite.write_text(suite.read_text().replace("checker: tokens", "checker: {name: custom, options: {function: mine.py}}"))
    return suite


def test_the_reference_is_loaded_once_for_a_problem_and_its_copies(tmp_path):
    project = project_with(tmp_path, "stones")
    loads = tmp_path / "loads"
    counted(project / "reference" / "stones.py", loads)
    problem = load_suite(project / "cases" / "stones.yaml")
    longer = dataclasses.replace(problem, time_limit=problem.time_limit * 2)
    for case in problem.cases:
        assert expected_output(problem, case) == expected_output(longer, case)
    assert reference_module(problem) is reference_module(longer)
    assert loads.read_text() == "loaded\n"


def test_a_problem_loaded_again_reads_its_files_again(tmp_path):
    project = project_with(tmp_path, "stones")
    validator = project / "validators" / "stones.py"
    first = load_suite(project / "cases" / "stones.yaml")
    assert not hasattr(validator_module(first), "EDITED")
    validator.write_text(validator.read_text() + "\nEDITED = True\n")
    again = load_suite(project / "cases" / "stones.yaml")
    assert validator_module(again).EDITED
    assert not hasattr(validator_module(first), "EDITED")  # the first problem keeps what it loaded


def test_the_checker_is_loaded_once_per_problem_and_again_for_a_problem_loaded_again(tmp_path):
    project = project_with(tmp_path, "stones")
    suite = stones_with_own_checker(project)
    loads = tmp_path / "loads"
    counted(project / "mine.py", loads)
    problem = load_suite(suite)
    assert problem_checker(problem) is problem_checker(dataclasses.replace(problem, time_limit=2.0))
    assert problem_checker(problem)("1\n", "1").ok
    assert loads.read_text() == "loaded\n"
    problem_checker(load_suite(suite))
    assert loads.read_text() == "loaded\nloaded\n"
