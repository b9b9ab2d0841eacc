"""A package's included code (2025-09, "Included code"): include/<language>/ (else
include/default/) goes with every submission in that language, and its files win over the
submission's own of the same name."""

from __future__ import annotations

import json

import pytest
from conftest import ROOT, run_judge

PACKAGE = ROOT / "tests" / "packages" / "included"


def judged(solution, *extra: str) -> dict:
    done = run_judge("run", str(PACKAGE), str(solution), "--no-record", "--format", "json", *extra)
    assert done.stdout, done.stderr
    return json.loads(done.stdout)


def test_the_package_verifies_with_its_included_main_programs():
    done = run_judge("test", str(PACKAGE))
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize(("name", "code"), [
    ("square.py", "def square(n):\n    return n ** 2\n"),
    ("square.cpp", "long long square(long long n) { return n * n; }\n"),
])
def test_a_student_writes_only_the_function_the_included_main_calls(tmp_path, name, code):
    solution = tmp_path / name
    solution.write_text(code)
    assert judged(solution)["verdict"] == "AC"


def test_a_submission_cannot_replace_an_included_file(tmp_path):
    # A student's own main.py printing the expected answers is not what runs: the package's is.
    own = tmp_path / "cheat"
    own.mkdir()
    (own / "main.py").write_text("print({'3': 9, '12': 144, '-5': 25}[input()])\n")
    (own / "square.py").write_text("def square(n):\n    return 0\n")
    assert judged(own)["verdict"] == "WA"


def test_a_language_without_included_code_is_judged_as_it_is(tmp_path):
    solution = tmp_path / "whole.c"
    solution.write_text('#include <stdio.h>\nint main(void) { long long n; scanf("%lld", &n); '
                        'printf("%lld\\n", n * n); return 0; }\n')
    assert judged(solution)["verdict"] == "AC"

