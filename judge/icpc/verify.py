"""`judge test PKG`: verify a problem package as problemtools' verifyproblem does, for the parts
this judge runs: samples exist, the input validators accept every input, the output validator
builds, and every example submission gets the verdict its folder names (``partially_accepted``:
a score strictly between 0 and the maximum).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from judge.icpc.package import CaseFiles, Package, PackageError
from judge.icpc.programs import prepare_program, unsupported_reason
from judge.languages import CompileError, LanguageUnavailable, UnknownLanguage
from judge.packages import Check
from judge.problem import Problem
from judge.sandbox import Limits, run_sandboxed

# Folder -> the verdicts a submission in it may get overall (MLE and OLE count as run-time errors,
# as in the package format).
FOLDER_VERDICTS = {
    "accepted": {"AC"}, "wrong_answer": {"WA"}, "time_limit_exceeded": {"TLE"},
    "run_time_error": {"RE", "MLE", "OLE"}, "compile_error": {"CE"},
    "rejected": {"WA", "TLE", "RE", "MLE", "OLE", "CE"}, "brute_force": {"TLE", "RE", "MLE", "OLE"},
}
SCORED_FOLDER = "partially_accepted"
UNSUPPORTED_VALIDATORS = {".ctd": "checktestdata", ".viva": "VIVA"}
VALID_EXIT = 42
MIB = 1 << 20


def submissions(package: Package) -> list[tuple[Path, str]]:
    """(program, folder) for every example submission (a file or a directory) in a known folder."""
    found = []
    for folder in [*FOLDER_VERDICTS, SCORED_FOLDER]:
        directory = package.root / "submissions" / folder
        if directory.is_dir():
            found += [(path, folder) for path in sorted(directory.iterdir()) if not path.name.startswith(".")]
    return found


def verify_package(problem: Problem, jobs: int | None = None) -> list[Check]:
    """Every check of one package (loaded with its time limit); PackageError for a package that
    is broken rather than wrong (a validator that does not build or breaks its protocol)."""
    package: Package = problem.package
    name = problem.id
    timing = package.timing
    checks = [Check(name, "package loads", True, f"{len(problem.cases)} cases, format {package.version}, "
                                                  f"{', '.join(sorted(package.types))}"),
              Check(name, "time limit", True, f"{problem.time_limit:g} s ({timing.source})"),
              check_samples(package)]
    checks += check_input_validators(package)
    if package.output_validator is not None:
        validator = problem.task.validator
        validator.program()  # PackageError when it does not build
        checks.append(Check(name, "output validator", True, f"{validator.name} builds"))
    runnable = []
    for path, folder in submissions(package):
        reason = unsupported_reason(path)
        what = f"submission {folder}/{path.name}"
        if reason:
            checks.append(Check(name, what, True, f"skipped: {reason}"))
        else:
            runnable.append((path, folder))
    with ThreadPoolExecutor(max_workers=jobs or max(1, len(os.sched_getaffinity(0)))) as pool:
        checks += list(pool.map(lambda job: check_submission(problem, *job), runnable))
    if not any(folder == "accepted" for _, folder in runnable):
        checks.append(Check(name, "accepted submission", False, "no accepted submission in a supported language"))
    return checks


def check_samples(package: Package) -> Check:
    name = package.root.name
    count = len(package.samples) + len(package.interactions)
    if count:
        return Check(name, "samples", True, f"{count} in data/sample")
    return Check(name, "samples", True, "warning: no samples in data/sample")


def check_input_validators(package: Package) -> list[Check]:
    checks = []
    for path in package.input_validators:
        what = f"input validator {path.name}"
        if path.suffix in UNSUPPORTED_VALIDATORS:
            checks.append(Check(package.root.name, what, True,
                                f"skipped: {UNSUPPORTED_VALIDATORS[path.suffix]} files are not supported"))
            continue
        try:
            program = prepare_program(path)[1]
        except (CompileError, UnknownLanguage, LanguageUnavailable) as error:
            raise PackageError(f"{path}: the input validator does not build: {error}") from None
        checks.append(_validate_inputs(package, path, program))
    return checks


def _validate_inputs(package: Package, path: Path, program) -> Check:
    cpu, memory, output = package.validation_limits
    limits = Limits(cpu_time=cpu, wall_time=cpu * 2 + 5, memory=memory * MIB, output=output * MIB,
                    processes=256, limit_address_space=False)
    for files in package.cases.values():
        arguments = _input_arguments(files, path)
        command = [part.replace("{memory_mb}", str(memory)) for part in program.command] + list(arguments)
        outcome = run_sandboxed(command, stdin=files.input_path.read_bytes(), limits=limits,
                                program_dir=program.directory)
        if outcome.exit_code == VALID_EXIT:
            continue
        if outcome.exit_code == 0:
            raise PackageError(f"{path}: the input validator exited 0 on {files.input_path.name}; input "
                               f"validators must exit {VALID_EXIT} for valid input (and anything else for invalid)")
        stderr = outcome.stderr.decode("utf-8", errors="replace").strip().splitlines()
        why = outcome.internal_error or (f"signal {outcome.signal}" if outcome.signal else f"exit {outcome.exit_code}")
        return Check(package.root.name, f"input validator {path.name}", False,
                     f"rejects {files.name} ({why})" + (f": {stderr[-1][:120]}" if stderr else ""))
    return Check(package.root.name, f"input validator {path.name}", True, f"accepts all {len(package.cases)} inputs")


def _input_arguments(files: CaseFiles, validator: Path) -> tuple[str, ...]:
    arguments = files.input_validator_args
    if isinstance(arguments, dict):
        return arguments.get(validator.stem, arguments.get(validator.name, ()))
    return arguments


def check_submission(problem: Problem, path: Path, folder: str) -> Check:
    """Judge one example submission and compare with what its folder promises."""
    from judge.runner import judge_submission

    package = problem.package
    result = judge_submission(problem, path, stop_on_failure=not package.scoring)
    what = f"submission {folder}/{path.name}"
    _refuse_broken_validator(package, result)
    failing = next((case for case in result.cases if case.verdict != "AC"), None)
    detail = f"got {result.verdict}" + (f", score {result.score:g}/{result.max_score:g}" if package.scoring else "")
    detail += f" on {failing.name}: {failing.message}" if failing and result.verdict != "AC" else ""
    if folder == SCORED_FOLDER:
        ok = 0 < result.score < result.max_score
        expected = f"a score strictly between 0 and {result.max_score:g}"
    else:
        ok = result.verdict in FOLDER_VERDICTS[folder]
        if folder == "accepted" and package.scoring:
            ok = ok and result.score == result.max_score
        expected = " or ".join(sorted(FOLDER_VERDICTS[folder]))
    return Check(problem.id, what, ok, detail if ok else f"expected {expected}, {detail}")


def _refuse_broken_validator(package: Package, result) -> None:
    for case in result.cases:
        if case.verdict == "IE" and case.message.startswith("output validator") and " exited " in case.message:
            raise PackageError(f"{package.output_validator}: {case.message} (on case {case.name})")
