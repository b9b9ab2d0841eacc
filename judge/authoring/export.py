"""`judge export PROBLEM DIR`: a built-in problem as a problem package (format 2023-07-draft) that
this judge and problemtools read back.

Cases become ``data/sample`` (sample cases) and ``data/secret`` (the rest), numbered to keep their
order, with the reference's answers as ``.ans``; the validator becomes an input validator; the
checker becomes default-validator flags (``tokens``: case_sensitive; ``exact``: also
space_change_sensitive; ``float``: its tolerances) or, for a custom checker, an output validator:
the checker's file with the format's protocol appended, calling it as the judge does (with the
case's input when it asks for it); example solutions go to the matching ``submissions/`` folder
(those that do not compile stay behind: the format has no folder for them).
"""

from __future__ import annotations

import json
import re
import shutil
import uuid
from pathlib import Path

import yaml

from judge.model.problem import Problem, SuiteError
from judge.model.vocabulary import TaskStyle, Visibility
from judge.problem_code.checkers import load_custom_checker
from judge.problem_code.reference import expected_output

SUBMISSION_FOLDERS = {"accepted": "accepted", "wrong_answer": "wrong_answer",
                      "time_limit_exceeded": "time_limit_exceeded", "runtime_error": "run_time_error",
                      "memory_limit_exceeded": "run_time_error", "output_limit_exceeded": "run_time_error"}
# (compile_error solutions stay behind: problemtools knows no such folder.)
INPUT_VALIDATOR_MAIN = '''

if __name__ == "__main__":  # the package format's protocol: exit 42 for valid input, 43 otherwise
    import sys as _sys

    try:
        validate(_sys.stdin.read())
    except ValueError as _error:
        print(_error, file=_sys.stderr)
        _sys.exit(43)
    _sys.exit(42)
'''
# Appended to a copy of the problem's own checker, which becomes the package's output validator: one
# file, so that every tool finds its entry. The checker is called as the judge calls it: with the
# output, the answer and, by name, what it asks for (the case's input, the suite's options).
OUTPUT_VALIDATOR_MAIN = """

# Added by `judge export`: the package format's protocol (input, answer and feedback folder as
# arguments, the submission's output on stdin; exit 42 to accept, 43 to reject) around {function}.
if __name__ == "__main__":
    import inspect as _inspect
    import json as _json
    import os as _os
    import sys as _sys

    with open(_sys.argv[1], encoding="utf-8") as _file:
        _input = _file.read()
    with open(_sys.argv[2], encoding="utf-8") as _file:
        _answer = _file.read()
    _offered = {{**_json.loads({options!r}), "input": _input, "args": None, "reveal": True}}
    _parameters = _inspect.signature({function}).parameters.values()
    if not any(_parameter.kind is _parameter.VAR_KEYWORD for _parameter in _parameters):
        _offered = {{name: value for name, value in _offered.items()
                    if name in {{_parameter.name for _parameter in _parameters}}}}
    _result = {function}(_sys.stdin.read(), _answer, **_offered)
    if hasattr(_result, "ok"):
        _ok, _message = bool(_result.ok), str(_result.message)
    elif isinstance(_result, tuple):
        _ok, _message = bool(_result[0]), str(_result[1])
    else:
        _ok, _message = bool(_result), "" if _result else "rejected by the problem's checker"
    with open(_os.path.join(_sys.argv[3], "judgemessage.txt"), "w", encoding="utf-8") as _feedback:
        _feedback.write(_message)
    _sys.exit(42 if _ok else 43)
"""


def export_problem(problem: Problem, target: Path) -> list[str]:
    """Write the package into ``target`` (which must not exist or be empty); the notes say
    what does not carry over exactly."""
    if problem.package is not None:
        raise SuiteError(f"{problem.id} is already a problem package ({problem.root})")
    if problem.io != TaskStyle.STDIO:
        raise SuiteError(f"{problem.id} is graded by calling a function, and cannot be exported: a package's "
                         f"submissions are whole programs reading standard input, which the format gives no way "
                         f"to call as a function (reading the arguments from standard input would be another "
                         f"problem); judge it as the suite it is (judge test, judge grade), or write a stdio "
                         f"version of it (io: stdio) and export that")
    if target.exists() and any(target.iterdir()):
        raise SuiteError(f"{target} is not empty; export into a new directory")
    target.mkdir(parents=True, exist_ok=True)
    notes = []
    flags = _write_checker(problem, target, notes)
    _write_problem_yaml(problem, target, custom=flags is None)
    _write_data(problem, target, flags or [])
    _write_validator(problem, target)
    _write_submissions(problem, target)
    statement = target / "statement" / "problem.en.md"
    statement.parent.mkdir()
    statement.write_text(problem.statement, encoding="utf-8")
    if problem.scoring == "groups" or any(case.points != 1 for case in problem.cases):
        notes.append("points and scoring groups are not exported: the package is pass-fail")
    return notes


def _write_problem_yaml(problem: Problem, target: Path, custom: bool) -> None:
    metadata = {
        "problem_format_version": "2023-07-draft",
        "name": problem.title,
        "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"judge:{problem.id}")),
        "type": "pass-fail",
        "limits": {"time_limit": problem.time_limit, "memory": problem.memory_limit >> 20,
                   "output": max(1, problem.output_limit >> 20)},
    }
    text = f"# Exported from the built-in problem {problem.id} by `judge export`.\n"
    (target / "problem.yaml").write_text(text + yaml.safe_dump(metadata, sort_keys=False, allow_unicode=True),
                                         encoding="utf-8")


def _write_data(problem: Problem, target: Path, flags: list[str]) -> None:
    width = len(str(len(problem.cases)))
    for index, case in enumerate(problem.cases, 1):
        folder = target / "data" / ("sample" if case.visibility == Visibility.SAMPLE else "secret")
        folder.mkdir(parents=True, exist_ok=True)
        stem = f"{index:0{width}d}-{_safe(case.name)}"
        (folder / f"{stem}.in").write_text(case.input or "", encoding="utf-8")
        (folder / f"{stem}.ans").write_text(str(expected_output(problem, case)), encoding="utf-8")
    (target / "data" / "secret").mkdir(parents=True, exist_ok=True)
    if flags:
        (target / "data" / "testdata.yaml").write_text(f"output_validator_flags: {' '.join(flags)}\n")


def _safe(name: str) -> str:
    return "".join(char if char.isalnum() or char in "-_" else "_" for char in name)


def _write_checker(problem: Problem, target: Path, notes: list[str]) -> list[str] | None:
    """Default-validator flags for a built-in checker, or None after writing an output validator."""
    options = problem.checker_options
    if problem.checker == "tokens":
        notes.append("tokens checker -> default validator, case_sensitive (line breaks are not compared)")
        return ["case_sensitive"]
    if problem.checker == "exact":
        return ["case_sensitive", "space_change_sensitive"]
    if problem.checker == "float":
        return ["case_sensitive", "float_absolute_tolerance", str(options.get("abs_tol", 1e-6)),
                "float_relative_tolerance", str(options.get("rel_tol", 1e-6))]
    if problem.checker == "custom":
        _write_output_validator(problem, target, notes)
        return None
    raise SuiteError(f"{problem.id}: its checker {problem.checker!r} has no package form")


def _write_output_validator(problem: Problem, target: Path, notes: list[str]) -> None:
    """The problem's own checker, with the package protocol appended, as the output validator."""
    options = problem.checker_options
    spec = str(options.get("function", ""))
    file_part, _, function = spec.partition(":")
    function = function or "check"
    checker = load_custom_checker(spec, problem.project_root, tuple(sorted(options)))  # SuiteError if broken
    if checker.asks_for is None:
        notes.append(f"the checker {spec} takes **options: the output validator gives it the input, the answer "
                     f"and the suite's options, but no `case`")
    elif "case" in checker.asks_for:
        raise SuiteError(f"{problem.id}: its checker {spec} asks for `case`, which a package's output validator "
                         f"is not given (only the input, the answer and the output); ask for `input` (the case's "
                         f"input text) instead, then export again")
    source = (problem.project_root / file_part).read_text(encoding="utf-8")
    if re.search(r"^\s*(from|import)\s+judge\b", source, re.MULTILINE):
        notes.append(f"the checker {file_part} imports judge: the package's output validator runs only where "
                     f"the judge is installed")
    rest = {key: value for key, value in options.items() if key != "function"}
    folder = target / "output_validator"
    folder.mkdir()
    (folder / "validate.py").write_text(
        source.rstrip("\n") + "\n" + OUTPUT_VALIDATOR_MAIN.format(function=function, options=json.dumps(rest)),
        encoding="utf-8")


def _write_validator(problem: Problem, target: Path) -> None:
    source = problem.files.validator
    if source is None or not source.is_file():
        return
    folder = target / "input_validators"
    folder.mkdir()
    (folder / "validate.py").write_text(source.read_text(encoding="utf-8") + INPUT_VALIDATOR_MAIN, encoding="utf-8")


def _write_submissions(problem: Problem, target: Path) -> None:
    root = problem.files.solutions
    if root is None:
        return
    for folder, package_folder in SUBMISSION_FOLDERS.items():
        directory = root / folder
        if not directory.is_dir():
            continue
        for path in sorted(directory.iterdir()):
            if path.is_file():
                destination = target / "submissions" / package_folder
                destination.mkdir(parents=True, exist_ok=True)
                shutil.copy(path, destination / path.name)
