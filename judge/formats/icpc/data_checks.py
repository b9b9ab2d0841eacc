"""`judge test`'s checks of a package's example data that are not test cases (2025-09, section
"Test data"): ``data/invalid_input`` (at least one input validator must reject each input),
``data/invalid_output`` (the output validator must reject each ``.out``) and
``data/valid_output`` (it must accept each ``.out``)."""

from __future__ import annotations

from pathlib import Path

from judge.formats.icpc.package import (
    CaseFiles,
    Package,
    arguments_for,
    example_output_arguments,
    invalid_input_arguments,
)
from judge.formats.icpc.programs import run_package_program
from judge.model.results import Check
from judge.model.verdict import Verdict

VALID_EXIT = 42


def rejection_text(exit_code: int | None) -> str:
    """How an input validator that did not exit VALID_EXIT answered (it exited by itself)."""
    said = f"rejects it (exit {exit_code})"
    if exit_code == 0:  # the usual first validator: it "succeeded"
        said += f"; input validators exit {VALID_EXIT} for a valid input and 43 for an invalid one"
    return said


def run_input_validator(package: Package, program, text: bytes, arguments: tuple[str, ...]):
    """The outcome of one input validator on one input (exit 42: valid)."""
    return run_package_program(package, program, text, arguments)


def _files(package: Package, folder: str, suffix: str) -> list[Path]:
    root = package.data_dir / folder
    return sorted(path for path in root.rglob(f"*{suffix}") if path.is_file()) if root.is_dir() else []


def _name(package: Package, path: Path) -> str:
    return str(path.relative_to(package.data_dir).with_suffix(""))


def check_invalid_inputs(package: Package, validators: list[tuple[Path, object]]) -> list[Check]:
    """Each ``data/invalid_input`` input must be rejected by at least one of the input
    ``validators`` ((path, built program) each), given its own ``input_validator_args``."""
    inputs = _files(package, "invalid_input", ".in")
    if not inputs or not validators:
        return []
    what = "input validators on invalid_input"
    for path in inputs:
        arguments = invalid_input_arguments(package, path)
        for validator, program in validators:
            outcome = run_input_validator(package, program, path.read_bytes(), arguments_for(arguments, validator))
            if outcome.internal_error or outcome.signal is not None or outcome.wall_timed_out:
                return [Check(package.root.name, what, False, f"{validator.name} did not judge "
                                                              f"{_name(package, path)}: it crashed or ran out of time")]
            if outcome.exit_code != VALID_EXIT:
                break  # rejected: one validator is enough
        else:
            names = ", ".join(validator.name for validator, _ in validators)
            return [Check(package.root.name, what, False,
                          f"accepts {_name(package, path)}, an invalid input (no input validator rejects it: {names})")]
    return [Check(package.root.name, what, True, f"rejects all {len(inputs)} invalid inputs")]


def check_example_output_inputs(package: Package, validators: list[tuple[Path, object]]) -> list[Check]:
    """The ``.in`` of each ``data/invalid_output`` and ``valid_output`` example "must contain valid
    input": every input validator accepts it, given its folders' ``input_validator_args``."""
    inputs = [path for folder in ("invalid_output", "valid_output") for path in _files(package, folder, ".in")]
    if not inputs or not validators:
        return []
    what = "input validators on example outputs' inputs"
    for path in inputs:
        arguments = invalid_input_arguments(package, path)
        for validator, program in validators:
            outcome = run_input_validator(package, program, path.read_bytes(), arguments_for(arguments, validator))
            if outcome.exit_code != VALID_EXIT:
                how = rejection_text(outcome.exit_code) if outcome.exit_code is not None \
                    else "crashed or ran out of time on it"
                return [Check(package.root.name, what, False, f"{_name(package, path)}.in: {validator.name} {how}; "
                                                              f"an example output's input must be valid")]
    return [Check(package.root.name, what, True, f"accept all {len(inputs)} inputs")]


def check_example_outputs(package: Package, validator) -> list[Check]:
    """Each ``.out`` of ``data/invalid_output`` is rejected and each of ``data/valid_output``
    accepted by the output validator (``validator``: the package's, or its default one)."""
    checks = []
    for folder, wanted in (("invalid_output", Verdict.WA), ("valid_output", Verdict.AC)):
        outputs = [path for path in _files(package, folder, ".in")
                   if path.with_suffix(".out").is_file() and path.with_suffix(".ans").is_file()]
        if not outputs:
            continue
        what = f"output validator on {folder}"
        failed = None
        for path in outputs:
            files = CaseFiles(_name(package, path), path, path.with_suffix(".ans"), folder,
                              example_output_arguments(package, path))
            judgement = validator.check(files, path.with_suffix(".out").read_bytes())
            if judgement.verdict != wanted:
                failed = f"{_name(package, path)}: got {judgement.verdict}, expected {wanted}" + (
                    f" ({judgement.message})" if judgement.message else "")
                break
        verb = "rejects" if wanted == Verdict.WA else "accepts"
        checks.append(Check(package.root.name, what, failed is None,
                            failed or f"{verb} all {len(outputs)} outputs"))
    return checks
