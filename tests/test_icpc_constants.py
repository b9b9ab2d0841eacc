"""problem.yaml's constants (2025-09, "Constants"): {{name}} and {{name.variant}} are substituted
in the package's input and output validators, generators (and generators.yaml's commands),
included files, test_group.yaml and Markdown statements, and \\constant{name} in LaTeX
statements; never in test data. Submissions, the package's own too, are judged as written, as
BAPCtools judges them. The package tests/packages/constants fails at each of these places when
one is not substituted."""

from __future__ import annotations

import shutil

import pytest
from conftest import ROOT, run_judge

from judge.formats.icpc.constants import mismatched_variants, parse_constants, substitute, substitute_latex

PACKAGE = ROOT / "tests" / "packages" / "constants"


@pytest.fixture
def package(tmp_path):
    shutil.copytree(PACKAGE, tmp_path / "constants")
    return tmp_path / "constants"


def test_every_part_of_the_package_gets_its_constants(package):
    done = run_judge("test", str(package))
    assert done.returncode == 0, done.stdout + done.stderr
    # validators, the generator (whose command is substituted too), test_group.yaml's arguments,
    # the included bounds.py; the submission printing {{factor}} prints it as written
    for row in ("input validator validate.py  ok  accepts all 5 inputs",
                "input validators on invalid_input  ok  rejects all 2 invalid inputs",
                "accepted/times.py  ok  got AC", "wrong_answer/constant_as_written.py  ok  got WA",
                "wrong_answer/twice.py  ok  got WA"):
        assert row in done.stdout, done.stdout


def test_generated_test_data_are_taken_as_written(package, tmp_path):
    done = run_judge("generate", str(package), "--out", str(tmp_path / "data"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert (tmp_path / "data/invalid_input/not_substituted.in").read_text() == "{{max_n}}\n"
    assert (tmp_path / "data/secret/test_group.yaml").read_text() == "input_validator_args:\n- --limit\n- '1000'\n"


def test_a_students_own_submission_is_judged_as_written(package, tmp_path):
    student = tmp_path / "mine.py"
    student.write_text("print({{factor}} * int(input()))\n")  # a set of a set: a TypeError as written
    done = run_judge("run", str(package), str(student), "--no-record", env={"COLUMNS": "1000"})
    assert "RE" in done.stdout, done.stdout + done.stderr


def test_a_markdown_statement_gets_its_constants():
    done = run_judge("show", str(PACKAGE))
    assert "$1 \\le n \\le 10^3$" in done.stdout and "print 3 times $n$, in points" in done.stdout
    assert "{{undefined}}" in done.stdout, done.stdout  # naming no constant: left as written


def test_a_latex_statement_gets_them_through_constant(package):
    (package / "statement/problem.en.md").unlink()
    (package / "statement/problem.en.tex").write_text(
        "\\problemname{Constants}\nPrint \\constant{factor} times $n \\le \\constant{max_n.tex}$, "
        "not \\constant{nothing}.\n")
    done = run_judge("show", str(package))
    # a constant the package does not define is left to the text's own rules (a command's argument)
    assert "Print 3 times n ≤ 10^3, not nothing." in done.stdout, done.stdout


@pytest.mark.parametrize(("constants", "message"), [
    ("constants: [1, 2]", "'constants' must be a mapping"),
    ("constants: {2n: 5}", "constants: '2n' is not a valid name"),
    ("constants: {n: {tex: '10^3'}}", "constants.n: a mapping needs a 'value' key"),
    ("constants: {n: true}", "constants.n: must be an integer, a float or a string, got true"),
    ("constants: {n: {value: [1]}}", "constants.n.value: must be an integer, a float or a string, got [1]"),
    ("constants: {n: {value: 5, bad-name: x}}", "variant 'bad-name' is not a valid name"),
])
def test_malformed_constants_are_named(package, constants, message):
    yaml_path = package / "problem.yaml"
    text = yaml_path.read_text()
    start = text.index("constants:")
    yaml_path.write_text(text[:start] + constants + "\n")
    done = run_judge("test", str(package))
    assert done.returncode == 2 and message in done.stderr, done.stdout + done.stderr
    assert "Traceback" not in done.stderr


def test_substitution_rules():
    constants = parse_constants({"k": {"value": 5000000, "tex": "5 \\cdot 10^6"}, "eps": 1e-6, "word": "five"})
    assert constants == {"k": "5000000", "k.value": "5000000", "k.tex": "5 \\cdot 10^6", "eps": "1e-06",
                         "eps.value": "1e-06", "word": "five", "word.value": "five"}
    assert substitute("{{k}} {{k.value}} {{k.tex}} {{ k }} {{k.other}} {{x}} {k}", constants) == \
        "5000000 5000000 5 \\cdot 10^6 {{ k }} {{k.other}} {{x}} {k}"
    assert substitute_latex("\\constant{k.tex} \\constant{word} \\constant{nope}", constants) == \
        "5 \\cdot 10^6 five \\constant{nope}"


def test_judge_test_warns_of_sequences_naming_no_constant_and_of_variants_of_another_value(package):
    yaml_path = package / "problem.yaml"
    yaml_path.write_text(yaml_path.read_text().replace("    tex: 10^3\n", "    tex: 10^3\n    wrong: 10^4\n"))
    validator = package / "input_validators/validate.py"
    validator.write_text(validator.read_text() + "# at most {{max_m}} (a typo)\n")
    done = run_judge("test", str(package), env={"COLUMNS": "1000"})
    assert done.returncode == 0, done.stdout + done.stderr  # warnings: the package still judges
    assert "constants  ok  3 (factor, max_n, unit), substituted in" in done.stdout, done.stdout
    assert "warning: {{max_m}} in input_validators/validate.py names no constant; left as written" in done.stdout
    assert "warning: {{undefined}} in statement/problem.en.md names no constant" in done.stdout
    assert "warning: max_n.wrong is '10^4', which is not the value '1000'" in done.stdout
    assert "max_n.tex" not in done.stdout  # 10^3 is 1000


def test_variants_are_read_as_the_numbers_they_spell():
    constants = parse_constants({"k": {"value": 5000000, "comma": "5,000,000", "tex": "5 \\cdot 10^{6}",
                                       "thin": "5\\,000\\,000", "word": "five million", "sci": "5e6"},
                                 "x": {"value": 10.0, "german": "10,0", "off": "10,5"}, "s": {"value": "text", "a": "1"}})
    assert mismatched_variants(constants) == ["x.off"]
