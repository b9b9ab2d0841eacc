"""`judge test`: verify problem packages the way problem setters expect.

For each problem: the suite loads; the validator accepts every case and rejects its own
INVALID_EXAMPLES; the reference reproduces every stored expected output; and every solution in
``solutions/<id>/<verdict>/`` gets exactly that overall verdict.
"""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from tabulate import tabulate

from judge.checkers import get_checker
from judge.problem import Problem, SuiteError, known_problems, load_problem, project_root
from judge.reference import reference_answer, validator_module

FOLDER_VERDICTS = {
    "accepted": "AC", "wrong_answer": "WA", "time_limit_exceeded": "TLE", "memory_limit_exceeded": "MLE",
    "output_limit_exceeded": "OLE", "runtime_error": "RE", "compile_error": "CE",
}


@dataclass(frozen=True)
class Check:
    problem: str
    what: str
    ok: bool
    detail: str = ""


def verify_problems(problem_ids: list[str] | None = None, jobs: int | None = None) -> list[Check]:
    """All checks for the given problems (default: every problem under cases/)."""
    root = project_root()
    ids = problem_ids or known_problems(root)
    checks: list[Check] = []
    solution_jobs = []
    for problem_id in ids:
        try:
            problem = load_problem(problem_id, root)
        except SuiteError as error:
            checks.append(Check(problem_id, "suite loads", False, str(error)))
            continue
        checks.append(Check(problem_id, "suite loads", True, f"{len(problem.cases)} cases"))
        checks += [check_validator(problem), check_reference(problem)]
        solution_jobs += [(problem, path, verdict) for path, verdict in solution_files(root, problem_id)]
    with ThreadPoolExecutor(max_workers=jobs or _default_jobs()) as pool:
        checks += list(pool.map(lambda job: check_solution(*job), solution_jobs))
    return checks


def _default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)))


def solution_files(root: Path, problem_id: str) -> list[tuple[Path, str]]:
    """(file, expected verdict) for every example solution of a problem."""
    found = []
    for folder, verdict in FOLDER_VERDICTS.items():
        directory = root / "solutions" / problem_id / folder
        if directory.is_dir():
            found += [(path, verdict) for path in sorted(directory.iterdir()) if path.is_file()]
    return found


def check_validator(problem: Problem) -> Check:
    try:
        validator = validator_module(problem)
    except SuiteError as error:
        return Check(problem.id, "validator", False, str(error))
    for case in problem.cases:
        try:
            validator.validate(list(case.args) if problem.io == "function" else case.input)
        except ValueError as error:
            return Check(problem.id, "validator", False, f"case {case.name} rejected: {error}")
    for example in getattr(validator, "INVALID_EXAMPLES", []):
        try:
            validator.validate(example)
        except ValueError:
            continue
        return Check(problem.id, "validator", False, f"accepted a malformed input: {str(example)[:60]!r}")
    invalid = len(getattr(validator, "INVALID_EXAMPLES", []))
    return Check(problem.id, "validator", True, f"accepts all {len(problem.cases)} cases, rejects {invalid} malformed inputs")


def check_reference(problem: Problem) -> Check:
    stored = [case for case in problem.cases if case.expected is not None]
    checker = get_checker(problem.checker, problem.checker_options, problem.project_root)
    try:
        for case in problem.cases:
            got = reference_answer(problem, case.input, case.args)
            if case.expected is None:
                continue
            text = got if problem.io == "stdio" else json.dumps(got)
            result = checker(text, case.expected, **problem.checker_options)
            if not result.ok:
                return Check(problem.id, "reference", False, f"case {case.name}: {result.message}")
    except Exception as error:  # noqa: BLE001 - reported, not raised: the reference is under test
        return Check(problem.id, "reference", False, f"{type(error).__name__}: {error}")
    return Check(problem.id, "reference", True, f"solves all cases, matches {len(stored)} stored outputs")


def check_solution(problem: Problem, path: Path, expected: str) -> Check:
    from judge.runner import judge_submission

    result = judge_submission(problem, path, stop_on_failure=True)
    relative = path.relative_to(problem.project_root / "solutions")
    failing = next((case for case in result.cases if case.verdict != "AC"), None)
    detail = f"got {result.verdict}" + (f" on {failing.name}: {failing.message}" if failing else "")
    return Check(problem.id, f"solution {relative}", result.verdict == expected,
                 detail if result.verdict == expected else f"expected {expected}, {detail}")


def render_checks(checks: list[Check]) -> str:
    rows = [[check.problem, check.what, "ok" if check.ok else "FAIL", check.detail[:100]] for check in checks]
    failed = sum(not check.ok for check in checks)
    summary = f"\n{len(checks) - failed} passed, {failed} failed"
    return tabulate(rows, headers=["problem", "check", "result", "detail"]) + summary
