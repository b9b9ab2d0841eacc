"""Answer validators (``answer_validators/``, 2023-07 on and BAPCtools): each must accept every
case's answer. Each is run as BAPCtools runs it,

    validator input_file < answer_file

(a checktestdata grammar reads the answer alone), in the sandbox with the validators' limits,
and exits 42 for a valid answer. ``answer_validator_args`` are not passed: a package that needs
them gets a rejection naming the case.
"""

from __future__ import annotations

from pathlib import Path

from judge.formats.icpc.checktestdata import is_checktestdata
from judge.formats.icpc.data_checks import VALID_EXIT
from judge.formats.icpc.output_validator import ValidatorWorkspace
from judge.formats.icpc.package import CaseFiles, Package
from judge.formats.icpc.programs import built_validator
from judge.model.problem import MIB
from judge.model.results import NOT_CHECKED, Check
from judge.model.verdict import signal_name
from judge.sandbox import run_sandboxed

ANSWER_FOLDERS = ("answer_validators", "answer_format_validators")


def answer_validators(package: Package) -> list[Path]:
    """The package's answer validators (files, or folders of files), in the first folder there is."""
    for folder in ANSWER_FOLDERS:
        directory = package.root / folder
        if directory.is_dir():
            return sorted(path for path in directory.iterdir() if not path.name.startswith("."))
    return []


def check_answer_validators(package: Package) -> list[Check]:
    """One check per answer validator: it accepts every answer, or is not checked (a language
    this judge does not run). PackageError when one does not build."""
    checks = []
    for path in answer_validators(package):
        program = built_validator(package, path, "answer validator")
        if isinstance(program, str):
            checks.append(Check.unmade(package.root.name, f"answer validator {path.name}", NOT_CHECKED, program))
            continue
        checks.append(_validate_answers(package, path, program))
    return checks


def _validate_answers(package: Package, path: Path, program) -> Check:
    what = f"answer validator {path.name}"
    cases = [files for files in package.cases.values() if files.answer_path.is_file()]
    for files in cases:
        outcome = _run(package, path, program, files)
        if outcome.exit_code == VALID_EXIT:
            continue
        stderr = outcome.stderr.decode("utf-8", errors="replace").strip().splitlines()
        said = f": {stderr[-1][:120]}" if stderr else ""
        if outcome.internal_error:
            return Check(package.root.name, what, False, f"could not run ({outcome.internal_error}) on {files.name}")
        if outcome.wall_timed_out or outcome.signal is not None:
            how = "ran out of time" if outcome.wall_timed_out else f"crashed (killed by {signal_name(outcome.signal)})"
            return Check(package.root.name, what, False, f"{how} on {files.name}{said}")
        hint = f" (answer validators exit {VALID_EXIT} for a valid answer)" if outcome.exit_code == 0 else ""
        return Check(package.root.name, what, False, f"rejects {files.name} (exit {outcome.exit_code}){hint}{said}")
    return Check(package.root.name, what, True, f"accepts all {len(cases)} answers")


def _run(package: Package, path: Path, program, files: CaseFiles):
    limits = package.validator_limits()
    command = [part.replace("{memory_mb}", str(limits.memory // MIB)) for part in program.command]
    workspace = ValidatorWorkspace(files)
    try:
        arguments = [] if is_checktestdata(path) else ["{work}/input.in"]
        return run_sandboxed([*command, *arguments], stdin=files.answer_path.read_bytes(), limits=limits,
                             program_dir=program.directory, work_dir=workspace.path)
    finally:
        workspace.close()
