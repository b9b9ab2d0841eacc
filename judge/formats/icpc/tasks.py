"""The task types of problem packages: batch (the output checked by the default output validator
or the package's own), interactive (the submission talks to the validator through pipes) and
multi-pass (the submission runs again on the input the validator gives, batch or interactive).
One instance per loaded package: it holds the package's output validator."""

from __future__ import annotations

from judge.formats.icpc.judging import run_package_case
from judge.formats.icpc.multipass import run_multipass_case
from judge.formats.icpc.output_validator import OutputValidator
from judge.formats.icpc.package import Package
from judge.sandbox.host import has_namespaces, linux_elsewhere_fix, system_name
from judge.tasks.batch import Batch


class PackageBatch(Batch):
    """Standard input and output, checked by the package's output validator."""

    # DOMjudge (which drops the output past the limit) and problemtools (which measures it
    # afterwards) both let the program run on: one writing without end is TLE, not OLE.
    stops_at_output_limit = False

    def __init__(self, package: Package) -> None:
        self.package = package
        self.validator = OutputValidator(package)

    def judge_case(self, problem, prepared, case, execute):
        return run_package_case(problem, prepared, case, execute, self.validator)


class PackageInteractive(PackageBatch):
    """Submission and output validator connected by pipes both ways, each in its own sandbox."""

    runs_warm = False  # each case needs a fresh program wired to a fresh validator
    wall_factor = 2.0  # the validator's own time passes on the submission's wall clock

    def unusable_by(self, problem, language) -> str | None:
        return interactive_unusable_here()

    def describe(self) -> str:
        return "interactive"


class PackageMultiPass(PackageBatch):
    """The submission runs once per pass, on the input the validator wrote for it."""

    def judge_case(self, problem, prepared, case, execute):
        return run_multipass_case(problem, prepared, case, execute, self.validator)

    def describe(self) -> str:
        return f"multi-pass (up to {self.package.validation_passes} passes)"


class PackageInteractiveMultiPass(PackageMultiPass):
    """Each pass interactive: the validator talks to a fresh run of the submission."""

    runs_warm = False  # as PackageInteractive
    wall_factor = 2.0  # as PackageInteractive

    def unusable_by(self, problem, language) -> str | None:
        return interactive_unusable_here()

    def describe(self) -> str:
        return f"interactive multi-pass (up to {self.package.validation_passes} passes)"


def interactive_unusable_here() -> str | None:
    """Why no interactive problem can be judged on this system, or None: which of the two
    programs ended first is told by Linux's pidfds and epoll (judge/sandbox/exit_order.py)."""
    if has_namespaces():
        return None
    return f"interactive problems are judged on Linux only, which {system_name()} is not; {linux_elsewhere_fix()}"


def package_task(package: Package) -> PackageBatch:
    """The task type the package's problem.yaml asks for."""
    if package.multi_pass:
        return (PackageInteractiveMultiPass if package.interactive else PackageMultiPass)(package)
    return (PackageInteractive if package.interactive else PackageBatch)(package)
