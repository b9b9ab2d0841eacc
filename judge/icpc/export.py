"""`judge export PROBLEM DIR`: a built-in problem as a problem package (format 2023-07-draft) that
this judge and problemtools read back.

Cases become ``data/sample`` (sample cases) and ``data/secret`` (the rest), numbered to keep their
order, with the reference's answers as ``.ans``; the validator becomes an input validator; the
checker becomes default-validator flags (``tokens``: case_sensitive; ``exact``: also
space_change_sensitive; ``float``: its tolerances) or, for a custom checker, an output validator
that calls it; example solutions go to the matching ``submissions/`` folder (those that do not
compile stay behind: the format has no folder for them).
"""

from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path

import yaml

from judge.problem import Problem, SuiteError
from judge.reference import expected_output
from judge.vocabulary import TaskStyle, Visibility

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
OUTPUT_VALIDATOR = '''"""Output validator calling the problem's own checker: {spec}."""
import importlib.util
import json
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location("checker", here / {file_name!r})
checker = importlib.util.module_from_spec(spec)
spec.loader.exec_module(checker)
answer = open(sys.argv[2], encoding="utf-8").read()
got = sys.stdin.read()
result = getattr(checker, {function!r})(got, answer, reveal=True, **json.loads({options!r}))
ok, message = (result.ok, result.message) if hasattr(result, "ok") else (
    (bool(result[0]), str(result[1])) if isinstance(result, tuple) else (bool(result), ""))
with open(sys.argv[3] + "judgemessage.txt", "w", encoding="utf-8") as feedback:
    feedback.write(message)
sys.exit(42 if ok else 43)
'''


def export_problem(problem: Problem, target: Path) -> list[str]:
    """Write the package into ``target`` (which must not exist or be empty); the notes say
    what does not carry over exactly."""
    if problem.package is not None:
        raise SuiteError(f"{problem.id} is already a problem package ({problem.root})")
    if problem.io != TaskStyle.STDIO:
        raise SuiteError(f"{problem.id} is graded by calling a function; the package format has only "
                         f"standard input and output, so it cannot be exported")
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
        file_part, _, function = str(options.get("function", "")).partition(":")
        source = problem.project_root / file_part
        validator = target / "output_validator"
        validator.mkdir()
        shutil.copy(source, validator / "checker_module.py")
        rest = {key: value for key, value in options.items() if key != "function"}
        (validator / "validator.py").write_text(OUTPUT_VALIDATOR.format(
            spec=options.get("function"), file_name="checker_module.py", function=function or "check",
            options=json.dumps(rest)), encoding="utf-8")
        return None
    raise SuiteError(f"{problem.id}: its checker {problem.checker!r} has no package form")


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
