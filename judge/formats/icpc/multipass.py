"""Multi-pass problems (2025-09, "Multi-pass validation"): the submission runs on a case, the
output validator judges the pass and, to ask for another, exits 42 with the next pass's input in
``nextpass.in`` of its feedback directory; the submission then runs again on that input.

Each pass is run and decided as a single-pass case is (batch, or interactive when the problem is
both), with the time and memory limits applying to each pass alone. The case's verdict is that
of the first pass that is not accepted, or of the last one. The feedback directory persists
between passes (all but ``nextpass.in``, which is taken away), and the validator's input file is
the input of the pass it judges, as BAPCtools gives it. It is the judge's error (IE: the
package's fault, never the submission's) to write ``nextpass.in`` and reject, or to ask for more
passes than ``limits.validation_passes``.
"""

from __future__ import annotations

import dataclasses

from judge.formats.icpc.judging import package_case_result, ran_cleanly, run_interactive
from judge.formats.icpc.output_validator import NEXT_PASS_FILE, Judgement, OutputValidator, ValidatorWorkspace
from judge.formats.icpc.package import CaseFiles, Package, PackageError
from judge.model.problem import Case, Problem
from judge.model.results import CaseResult
from judge.model.verdict import Verdict


def run_multipass_case(problem: Problem, prepared, case: Case, execute, validator: OutputValidator) -> CaseResult:
    """Run one case of a multi-pass package, pass after pass, and decide its verdict."""
    package: Package = problem.package
    files = package.cases[case.name]
    workspace = ValidatorWorkspace(files)
    results: list[CaseResult] = []
    try:
        pass_input = files.input_path.read_bytes()
        while True:
            outcome, judgement = _run_pass(package, prepared, files, execute, validator, workspace, pass_input)
            next_input = None
            if judgement is not None and judgement.verdict != Verdict.IE:
                judgement, next_input = _next_pass(judgement, workspace, len(results) + 1, package, validator.name)
            results.append(package_case_result(case, prepared, outcome, judgement))
            if results[-1].verdict != Verdict.AC or next_input is None:
                return _case_result(results)
            workspace.start_pass(next_input)
            pass_input = next_input
    finally:
        workspace.close()


def _run_pass(package: Package, prepared, files: CaseFiles, execute, validator: OutputValidator,
              workspace: ValidatorWorkspace, pass_input: bytes):
    """One pass: (the submission's outcome, the validator's judgement or None when the
    submission's own failure decides)."""
    program, limits = prepared.program, prepared.limits
    command = program.argv(limits)
    if package.interactive:  # the validator gives the pass's input through the pipe
        return run_interactive(validator, files, command, program, limits, workspace)
    outcome = execute(command, pass_input, limits, program.directory)
    return outcome, validator.check(files, outcome.stdout, workspace) if ran_cleanly(outcome) else None


def _next_pass(judgement: Judgement, workspace: ValidatorWorkspace, number: int, package: Package,
               name: str) -> tuple[Judgement, bytes | None]:
    """The pass's judgement as the format reads it, and the next pass's input if one follows."""
    try:
        next_input = workspace.next_pass_input()
    except PackageError as error:
        return Judgement(Verdict.IE, f"output validator {name}: {error}"), None
    if next_input is None:
        return judgement, None
    if judgement.verdict != Verdict.AC:
        return Judgement(Verdict.IE, f"output validator {name} wrote {NEXT_PASS_FILE} but exited 43 (wrong answer): "
                               f"it may ask for another pass only when it exits 42"), None
    if number >= package.validation_passes:
        return Judgement(Verdict.IE, f"output validator {name} asked for pass {number + 1}, but "
                               f"limits.validation_passes in problem.yaml allows {package.validation_passes}"), None
    return judgement, next_input


def _case_result(results: list[CaseResult]) -> CaseResult:
    """The case's result: its last pass's, with the most time and memory any pass took (each
    pass had the limits to itself), and the pass named when a later one failed."""
    last = results[-1]
    message = last.message
    if len(results) > 1 and last.verdict != Verdict.AC:
        message = f"pass {len(results)}: {message}" if message else f"pass {len(results)}"
    return dataclasses.replace(last, message=message, cpu_time=max(result.cpu_time for result in results),
                               wall_time=max(result.wall_time for result in results),
                               memory_kb=max(result.memory_kb for result in results))
