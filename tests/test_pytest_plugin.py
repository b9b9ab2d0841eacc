"""The pytest plugin, driven through pytester as a user would drive pytest."""

import xml.etree.ElementTree as ET

import pytest


# Imported here, before any in-process pytester run, so that pytester's clean-up of modules first
# imported by an inner run never re-imports PyYAML apart from its already-loaded C extension
# (judge.model.problem imports it only when it reads a suite).
import yaml  # noqa: F401
from conftest import ROOT

SOLUTIONS = ROOT / "solutions"


def test_one_item_per_case_and_all_pass(project):
    result = project.runpytest("cases/stones.yaml", "--solution", str(SOLUTIONS / "stones/accepted/game_dp.py"))
    result.assert_outcomes(passed=22)


def test_failures_show_the_verdict_not_a_traceback(project):
    result = project.runpytest("cases/sokoban.yaml", "--solution", str(SOLUTIONS / "sokoban/wrong_answer/worker_glyph.py"))
    outcomes = result.parseoutcomes()
    assert outcomes["failed"] >= 1 and outcomes["passed"] >= 1
    result.stdout.fnmatch_lines(["*WA on case sample-1: line 7, token 1: expected '#...+W+B#', got '#...+w+B#'*"])
    assert "Traceback" not in result.stdout.str() and "judge/runner.py" not in result.stdout.str()


def test_k_and_x_and_last_failed(project):
    wrong = str(SOLUTIONS / "stones/wrong_answer/multiple_of_four.py")
    project.runpytest("cases/stones.yaml", "--solution", wrong, "-k", "smallest-even or takes-all-three").assert_outcomes(passed=1, failed=1)
    project.runpytest("cases/stones.yaml", "--solution", wrong, "-x").assert_outcomes(passed=2, failed=1)
    first = project.runpytest("cases/stones.yaml", "--solution", wrong).parseoutcomes()
    rerun = project.runpytest("cases/stones.yaml", "--solution", wrong, "--lf")
    rerun.assert_outcomes(failed=first["failed"])


def test_several_problems_at_once(project):
    result = project.runpytest("cases", "--solution", f"stones={SOLUTIONS / 'stones/accepted/parity.c'}",
                               "--solution", f"footholds={SOLUTIONS / 'footholds/accepted/minimax.js'}")
    result.assert_outcomes(passed=22 + 46)


def test_compile_errors_fail_every_item_with_the_message(project):
    result = project.runpytest("cases/stones.yaml", "--solution", str(SOLUTIONS / "stones/compile_error/missing_semicolon.c"))
    result.assert_outcomes(failed=22)
    result.stdout.fnmatch_lines(["*CE on case sample-1: missing_semicolon.c:2:*error: expected*"])


def test_junitxml(project):
    report = project.path / "report.xml"
    project.runpytest("cases/stones.yaml", "--solution", str(SOLUTIONS / "stones/wrong_answer/even_wins.py"),
                      f"--junitxml={report}")
    suite = ET.parse(report).getroot().find("testsuite")
    assert int(suite.get("tests")) == 22 and int(suite.get("failures")) > 0
    failure = suite.find("testcase/failure")
    assert "WA on case" in failure.get("message")


@pytest.mark.slow
def test_parallel_with_xdist(project):
    result = project.runpytest_subprocess("cases/stones.yaml", "--solution",
                                          str(SOLUTIONS / "stones/accepted/game_dp.py"), "-n", "2")
    result.assert_outcomes(passed=22)


def test_without_solution_yaml_is_not_collected(project):
    project.makepyfile(test_plain="def test_ok():\n    assert True\n")
    result = project.runpytest()
    result.assert_outcomes(passed=1)


def test_a_failure_shows_the_programs_control_characters_as_escapes(project, tmp_path):
    loud = tmp_path / "loud.py"
    loud.write_text('import sys\nsys.stderr.write("boom \\x1b[2J\\u202e\\n")\nraise SystemExit(3)\n')
    result = project.runpytest("cases/stones.yaml", "--solution", str(loud), "-k", "sample-1")
    result.assert_outcomes(failed=1)
    shown = result.stdout.str()
    assert "boom \\x1b[2J\\u202e" in shown and "\x1b" not in shown and "\u202e" not in shown
