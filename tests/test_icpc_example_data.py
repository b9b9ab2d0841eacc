"""The package format's example data that is not test data (2025-09, "Test data": the
invalid_input, invalid_output and valid_output folders) is checked by `judge test`."""

from __future__ import annotations

import shutil

import pytest
from conftest import ROOT, run_judge

PACKAGE = ROOT / "tests" / "packages" / "example_data"


@pytest.fixture
def package(tmp_path):
    copy = tmp_path / "example_data"
    shutil.copytree(PACKAGE, copy)
    return copy


def test_a_package_whose_example_data_is_right_passes():
    done = run_judge("test", str(PACKAGE))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "rejects all 2 invalid inputs" in done.stdout
    assert "output validator on invalid_output" in done.stdout and "rejects all 2 outputs" in done.stdout
    assert "output validator on valid_output" in done.stdout and "accepts all 1 outputs" in done.stdout
    assert "input validators on example outputs' inputs  ok  accept all 3 inputs" in done.stdout


def test_an_example_outputs_input_must_be_valid(package):
    """2025-09 "Invalid output" / "Valid output": "The input file tc.in, which must contain valid input"."""
    (package / "data" / "invalid_output" / "extra.in").write_text("2 two\n")
    done = run_judge("test", str(package), env={"COLUMNS": "1000"})
    assert done.returncode == 1
    assert "invalid_output/extra.in: validate.py rejects it (exit 43); an example output's input must be valid" \
        in done.stdout, done.stdout


def test_an_input_validator_accepting_an_invalid_input_fails(package):
    (package / "input_validators" / "validate.py").write_text("import sys\nsys.stdin.read()\nsys.exit(42)\n")
    done = run_judge("test", str(package))
    assert done.returncode == 1
    assert "accepts invalid_input/three_numbers, an invalid input" in done.stdout


def test_an_output_validator_accepting_an_invalid_output_fails(package):
    (package / "data" / "invalid_output" / "wrong_sum.out").write_text("4\n")
    done = run_judge("test", str(package))
    assert done.returncode == 1
    assert "invalid_output/wrong_sum: got AC, expected WA" in done.stdout


def test_an_output_validator_rejecting_a_valid_output_fails(package):
    (package / "data" / "valid_output" / "spaces.out").write_text("5\n")
    done = run_judge("test", str(package))
    assert done.returncode == 1
    assert "valid_output/spaces: got WA, expected AC" in done.stdout


def test_the_example_data_is_not_judged_as_test_cases():
    done = run_judge("run", str(PACKAGE), str(PACKAGE / "submissions" / "accepted" / "add.py"), "--no-record")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "invalid" not in done.stdout and "valid_output" not in done.stdout


ARGS_PACKAGE = ROOT / "tests" / "packages" / "validator_args"


def test_invalid_inputs_get_their_input_validator_args_as_valid_data_do(tmp_path):
    # 2025-09 "Invalid input": input_validator_args set in test_group.yaml for the directory's
    # cases, or in tc.yaml for one; each input is invalid only under its own arguments.
    done = run_judge("test", str(ARGS_PACKAGE))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "on invalid_input  ok  rejects all 3 invalid inputs" in done.stdout
    copy = tmp_path / "validator_args"
    shutil.copytree(ARGS_PACKAGE, copy)
    (copy / "data" / "invalid_input" / "small" / "above_five.yaml").write_text("input_validator_args: [--max, '9']\n")
    done = run_judge("test", str(copy))
    assert done.returncode == 1
    assert "accepts invalid_input/small/above_five, an invalid input" in done.stdout


def test_an_invalid_input_needs_only_one_input_validator_to_reject_it(package):
    # 2025-09 "Invalid input": each input "must be rejected by at least one input validator".
    # Split the one validator in two, each checking half: neither rejects every invalid input.
    validators = package / "input_validators"
    (validators / "validate.py").unlink()
    (validators / "two_tokens.py").write_text("import sys\nsys.exit(42 if len(sys.stdin.read().split()) == 2 else 43)\n")
    (validators / "integers.py").write_text(
        "import re, sys\nsys.exit(42 if re.fullmatch(r'(-?\\d+\\s*)*', sys.stdin.read()) else 43)\n")
    done = run_judge("test", str(package))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "input validators on invalid_input  ok  rejects all 2 invalid inputs" in done.stdout
    (package / "data" / "invalid_input" / "both_fine.in").write_text("1 2\n")
    done = run_judge("test", str(package))
    assert done.returncode == 1
    assert "accepts invalid_input/both_fine, an invalid input (no input validator rejects it" in done.stdout


def test_example_outputs_get_their_groups_output_validator_args(package):
    # 2025-09 "Valid output": output_validator_args in the folder's test_group.yaml apply to it.
    valid = package / "data" / "valid_output"
    (valid / "close.in").write_text("1 2\n")
    (valid / "close.ans").write_text("3\n")
    (valid / "close.out").write_text("3.001\n")
    done = run_judge("test", str(package))
    assert done.returncode == 1 and "valid_output/close: got WA, expected AC" in done.stdout
    (valid / "test_group.yaml").write_text("output_validator_args: [float_tolerance, '0.01']\n")
    done = run_judge("test", str(package))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "output validator on valid_output  ok  accepts all 2 outputs" in done.stdout
