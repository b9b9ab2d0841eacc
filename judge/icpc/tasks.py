"""The task types of problem packages: batch (the output checked by the default output validator
or the package's own) and interactive (the submission talks to the validator through pipes).
One instance per loaded package: it holds the package's output validator."""

from __future__ import annotations

from judge.icpc.package import Package
from judge.tasks.batch import Batch


class PackageBatch(Batch):
    """Standard input and output, checked by the package's output validator."""

    def __init__(self, package: Package) -> None:
        from judge.icpc.output_validator import OutputValidator

        self.package = package
        self.validator = OutputValidator(package)

    def judge_case(self, problem, prepared, case, execute):
        from judge.icpc.judging import run_package_case

        return run_package_case(problem, prepared, case, execute, self.validator)


class PackageInteractive(PackageBatch):
    """Submission and output validator connected by pipes both ways, each in its own sandbox."""

    runs_warm = False  # each case needs a fresh program wired to a fresh validator

    def describe(self) -> str:
        return "interactive"
