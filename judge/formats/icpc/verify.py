"""`judge test PKG`: verify a problem package as problemtools' verifyproblem does, for the parts
this judge runs: samples exist, the input validators accept every input, the output validator
builds, and every example submission gets the verdict its folder names (``partially_accepted``:
a score strictly between 0 and the maximum), narrowed by its ``@EXPECTED_RESULTS@`` line if it has
one (see ``judge.formats.icpc.expectations``).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from judge.formats.icpc.answer_validators import check_answer_validators
from judge.formats.icpc.constant_checks import check_constants
from judge.formats.icpc.data_checks import (
    VALID_EXIT,
    check_example_output_inputs,
    check_example_outputs,
    check_invalid_inputs,
    run_input_validator,
)
from judge.formats.icpc.expectations import (
    CheckedByHand,
    Expectation,
    ExpectationError,
    expectation,
    submissions,
)
from judge.formats.icpc.generators import GENERATORS_FILE
from judge.formats.icpc.graders import CustomGrader
from judge.formats.icpc.package import V2025, CaseFiles, Package, PackageError, arguments_for
from judge.formats.icpc.programs import built_validator, submission_language, unsupported_reason
from judge.formats.icpc.scoring import declared_max_score
from judge.formats.icpc.submission_rules import Rule, check_rules, load_rules, rules_for
from judge.formats.icpc.submission_runs import Planned, SubmissionRuns
from judge.formats.icpc.timelimit import (
    base_seconds,
    cached_slowest_accepted,
    default_limit_warning,
    unsteady_limit_warning,
)
from judge.model.problem import Problem
from judge.model.results import NOT_CHECKED, NOT_JUDGED, Check, SubmissionResult
from judge.model.verdict import Verdict, signal_name
from judge.workers import Future, Workers, wait_all_or_first_failure


def verify_package(problem: Problem, jobs: int | None = None) -> Iterator[Check]:
    """Every check of one package, each as soon as it is made, its time limit inferred first if
    it is not known yet (and cached); PackageError for a package that is broken rather than wrong
    (a validator that does not build or breaks its protocol). The example
    submissions are judged from the start, side by side (``SubmissionRuns``), while the other
    checks are made."""
    package: Package = problem.package
    name = problem.id
    in_order = _submission_rules(package, name)
    planned = [item for item in in_order if isinstance(item, Planned)]
    # A broken package (or Ctrl-C) ends the command: no run or build queued behind it starts.
    with Workers(jobs) as workers, Workers(1) as builder:  # builder: the submissions' builds, ahead of their runs
        runs = SubmissionRuns(problem, planned, workers, builder)
        # the other checks, made while the submissions run
        problem, early_checks = _limit_and_checks(runs, workers.beside(_package_checks, problem))
        timing = package.timing
        yield Check(name, "package loads", True, f"{len(problem.cases)} cases, format {package.version}, "
                                                 f"{', '.join(sorted(package.types))}")
        source = "the format's default" if default_limit_warning(package) else timing.source
        yield Check(name, "time limit", True, f"{problem.time_limit:g} s ({source}){_limit_warning(package)}")
        yield from early_checks
        for item in in_order:
            yield check_submission(problem, item, *runs.result(planned.index(item))) if isinstance(item, Planned) \
                else item
        if not any(item.folder == "accepted" for item in planned):
            yield Check(name, "accepted submission", False, "no accepted submission in a supported language")


def _limit_warning(package: Package) -> str:
    """For an inferred limit, the warning that it may come out otherwise elsewhere, or that it is
    the format's default (or "")."""
    slowest = cached_slowest_accepted(package) if package.timing.source == "inferred" else None
    warning = unsteady_limit_warning(slowest, package.timing) if slowest is not None else default_limit_warning(package)
    return f" ({warning})" if warning else ""


def _limit_and_checks(runs: SubmissionRuns, package_checks: Future[list[Check]]) -> tuple[Problem, list[Check]]:
    """The problem with its time limit (the submissions left start as soon as it is known, whatever
    the checks' progress), and the package's other checks. A part of the package that does not
    build ends the command when it is found, not after the accepted runs; its error comes first
    (it explains why no accepted run passed)."""
    wait_all_or_first_failure([package_checks, *(runs.inference or {}).values()])
    if package_checks.done() and package_checks.exception() is not None:
        package_checks.result()
    try:
        problem = runs.with_time_limit()
    except PackageError:
        package_checks.result()
        raise
    return problem, package_checks.result()


def _package_checks(problem: Problem) -> list[Check]:
    """The checks of the package's parts other than its submissions and example outputs, which
    need no time limit."""
    package = problem.package
    validator_error = _build_output_validator(problem)  # first: every submission's case waits for it
    checks = list(check_constants(package))
    if package.generated is not None:
        checks.append(Check(problem.id, "generated data", True, f"{len(package.generated.cases)} cases made by "
                                                                f"generators/generators.yaml (`judge generate` writes them out)"))
        checks += [Check(problem.id, "generated data", True, f"warning: {warning}") for warning in package.generated.warnings]
    elif (package.root / GENERATORS_FILE).is_file():
        checks.append(Check(problem.id, "generated data", True,
                            f"warning: {GENERATORS_FILE} is not run: data/secret holds cases already, which are judged "
                            f"as they are (as `bt run` does); `judge generate {package.root.name} --out DIR` makes "
                            f"the data from it, to compare"))
    checks.append(check_samples(package))
    checks += check_empty_groups(package)
    checks += check_input_validators(package)
    checks += check_answer_validators(package)
    if package.output_validator is not None:
        if validator_error is not None:
            raise validator_error
        checks.append(Check(problem.id, "output validator", True, f"{problem.task.validator.name} builds"))
    checks += check_grader(problem)
    if not package.interactive:
        checks += check_example_outputs(package, problem.task.validator)
    return checks


def _build_output_validator(problem: Problem) -> PackageError | None:
    """Build the package's output validator, if it has one; its PackageError when it does not
    build, for the check that reports it in its place among the others."""
    if problem.package.output_validator is None:
        return None
    try:
        problem.task.validator.program()
    except PackageError as error:
        return error
    return None


def _submission_rules(package: Package, name: str) -> list[Check | Planned]:
    """For each example submission, in the package's order: the check that settles it without
    running it (not judged, and why; or a broken annotation), else what it must get."""
    rules_file = load_rules(package)
    in_order: list[Check | Planned] = []
    for path, folder in submissions(package):
        what = f"submission {folder}/{path.name}"
        reason, rule = unsupported_reason(path, follow_file_links=True), None
        if reason is None and rules_file is not None:
            rule = rules_for(package, rules_file, f"{folder}/{path.name}") or None
        if reason is None and rule is None:
            try:
                rule = expectation(path, folder)
            except ExpectationError as error:
                in_order.append(Check(name, what, False, str(error)))
                continue
            except CheckedByHand as request:
                in_order.append(Check.unmade(name, what, NOT_JUDGED, str(request)))
                continue
            if rule is None:
                reason = (f"folder {folder!r} names no verdict and the source has no @EXPECTED_RESULTS@ "
                          f"line; move it to accepted, wrong_answer, time_limit_exceeded, run_time_error, ...")
        if reason:
            in_order.append(Check.unmade(name, what, NOT_JUDGED, reason))
        else:
            in_order.append(Planned(path, folder, rule))
    return in_order


def check_grader(problem: Problem) -> list[Check]:
    """The custom grader builds (PackageError if not), or the warning that it is not used."""
    package = problem.package
    if package.grader is None:
        return []
    name = str(package.grader.relative_to(package.root))
    if not package.scoring:
        return [Check(problem.id, "custom grader", True, f"warning: {name} is not used: a pass-fail problem's "
                                                         f"verdict is its first failure's (problemtools refuses a "
                                                         f"grader in a pass-fail problem)")]
    groups = package.custom_graded
    if not groups:
        return [Check(problem.id, "custom grader", True, f"warning: {name} is not used: no testdata.yaml says "
                                                         f"grading: custom (nor does problemtools use it)")]
    CustomGrader(package).program()  # PackageError when it does not build
    shown = ", ".join(f"data/{group}".rstrip("/") for group in groups)
    return [Check(problem.id, "custom grader", True, f"{name} builds; it grades {shown}")]


def check_samples(package: Package) -> Check:
    name = package.root.name
    count = len(package.samples) + len(package.interactions)
    if package.samples_only:
        unchecked = "; no score is checked: a scoring problem's score is its secret groups'" if package.scoring else ""
        return Check(name, "samples", True, f"warning: data/secret has no cases: judged on data/sample only{unchecked}")
    if count:
        return Check(name, "samples", True, f"{count} in data/sample")
    return Check(name, "samples", True, "warning: no samples in data/sample")


def check_empty_groups(package: Package) -> list[Check]:
    """A warning naming the test data groups (but data/sample) that hold no case: problemtools
    counts each an error; both judge the package without them."""
    told = ("secret",) if package.samples_only else ()  # check_samples says so already
    empty = [name for name in package.groups if name not in ("", "sample") and name.split("/")[0] not in told
             and not any(case.startswith(name + "/") for case in package.cases)]
    if not empty:
        return []
    shown = ", ".join(f"data/{name}" for name in empty)
    hold = "holds" if len(empty) == 1 else "hold"
    return [Check(package.root.name, "test data groups", True, f"warning: {shown} {hold} no test case "
                                                               f"(problemtools counts that an error); judged without")]


def check_input_validators(package: Package) -> list[Check]:
    checks, built = [], []
    for path in package.input_validators:
        program = built_validator(package, path, "input validator")
        if isinstance(program, str):
            checks.append(Check.unmade(package.root.name, f"input validator {path.name}", NOT_CHECKED, program))
            continue
        checks.append(_validate_inputs(package, path, program))
        built.append((path, program))
    return checks + check_invalid_inputs(package, built) + check_example_output_inputs(package, built)


def _validate_inputs(package: Package, path: Path, program) -> Check:
    for files in package.cases.values():
        outcome = run_input_validator(package, program, files.input_path.read_bytes(), _input_arguments(files, path))
        if outcome.exit_code == VALID_EXIT:
            continue
        if outcome.exit_code == 0:
            raise PackageError(f"{path}: the input validator exited 0 on {files.input_path.name}; input "
                               f"validators must exit {VALID_EXIT} for valid input (and anything else for invalid)")
        stderr = outcome.stderr.decode("utf-8", errors="replace").strip().splitlines()
        said = f": {stderr[-1][:120]}" if stderr else ""
        failed = _validator_failure(outcome)
        if failed:  # it did not judge the input: it crashed, or could not run
            return Check(package.root.name, f"input validator {path.name}", False, f"{failed} on {files.name}{said}")
        return Check(package.root.name, f"input validator {path.name}", False,
                     f"rejects {files.name} (exit {outcome.exit_code})" + said)
    return Check(package.root.name, f"input validator {path.name}", True, f"accepts all {len(package.cases)} inputs")


def _validator_failure(outcome) -> str:
    """How a validator failed to judge at all ("" if it judged: it exited by itself)."""
    if outcome.internal_error:
        return f"could not run ({outcome.internal_error})"
    if outcome.wall_timed_out:
        return "ran out of time"
    if outcome.signal is not None:
        return f"crashed (killed by {signal_name(outcome.signal)})"
    return ""


def _input_arguments(files: CaseFiles, validator: Path) -> tuple[str, ...]:
    return arguments_for(files.input_validator_args, validator)


def check_submission(problem: Problem, planned: Planned, result: SubmissionResult, warning: str = "") -> Check:
    """Compare a submission's result with what its folder (or annotation, or submissions.yaml)
    promises."""
    package, path, rule = problem.package, planned.path, planned.rule
    what = f"submission {planned.folder}/{path.name}"
    _refuse_broken_validator(package, result)
    if isinstance(rule, list):
        return _check_rules(problem, what, rule, result)
    failing = next((case for case in result.cases if case.verdict != Verdict.AC), None)
    detail = f"got {result.verdict}" + (f", score {result.score:g}/{result.max_score:g}" if package.scoring else "")
    detail += f" on {failing.name}: {failing.message}" if failing and result.verdict != Verdict.AC else ""
    # A scoring problem judged on its samples alone: its score says nothing, and is not checked.
    scored = package.scoring and not package.samples_only
    full = declared_max_score(package) if scored else None  # None: no full score to compare with
    short = ""
    if rule.partial and full is not None:
        ok = 0 < result.score < full
        expected = f"a score strictly between 0 and {full:g}"
    elif rule.partial:  # its verdict is still checked: a partially accepted submission is accepted
        ok, expected = result.verdict == Verdict.AC, "AC"
    else:
        ok = result.verdict in rule.verdicts
        if ok and rule.verdicts == {Verdict.AC} and full is not None and result.score != full:
            short = _short_of_full_score(package, rule, result) or ""
            ok = bool(short)
        expected = " or ".join(sorted(rule.verdicts))
    if rule.partial or rule.verdicts == {Verdict.AC} or rule.score is not None:  # a score it would be held to
        detail += _unchecked_score(package, scored, full)
    if rule.score is not None and scored:
        ok = ok and abs(result.score - rule.score) <= 1e-6 * max(1.0, abs(rule.score))
        expected += f" with score {rule.score:g}"
    if not rule.origin.startswith("folder"):
        expected += f" ({rule.origin})"
    if ok:
        detail += short + (warning or accepted_margin_warning(problem, path, rule, result))
    return Check(problem.id, what, ok, detail if ok else f"expected {expected}, {detail}")


def _unchecked_score(package: Package, scored: bool, full: float | None) -> str:
    """Why a scoring problem's score is not compared with a full score ("" when it is)."""
    if not package.scoring or full is not None:
        return ""
    if not scored:
        return " (its score is not checked: no data/secret)"
    return " (no full score to check: testdata.yaml gives no range, as problemtools then has none)"


def _short_of_full_score(package: Package, rule: Expectation, result: SubmissionResult) -> str | None:
    """For an accepted submission without the full score: the warning where the package's tool
    only warns (problemtools, of one short of it in a legacy or 2023-07 package's accepted/
    folder), else None (it fails: above the maximum, 2025-09, or an annotation that says so)."""
    if result.score > result.max_score or package.version == V2025 or not rule.origin.startswith("folder"):
        return None
    return (" (warning: short of the full score, which problemtools only warns of in accepted/; "
            "partially_accepted/ is the folder for it)")


def accepted_margin_warning(problem: Problem, path: Path, rule: Expectation, result) -> str:
    """A warning when an accepted submission is slower than time_limit / ac_to_time_limit, the
    package format's safety margin (only where the package gives the limit: an inferred one
    has the margin built in)."""
    timing, limit = problem.package.timing, problem.time_limit
    if rule.verdicts == {Verdict.AC} and result.verdict == Verdict.AC and result.cases and timing.source != "inferred":
        language = submission_language(path, follow_file_links=True)
        slowest = max(base_seconds(language, case.cpu_time) for case in result.cases)
        if slowest * timing.ac_to_time_limit > limit:
            return (f" (warning: {slowest:.2f} s CPU on its slowest case, more than the time limit / "
                    f"{timing.ac_name} = {limit / timing.ac_to_time_limit:.2f} s)")
    return ""


def _check_rules(problem: Problem, what: str, rules: list[Rule], result) -> Check:
    if result.verdict == Verdict.CE:
        return Check(problem.id, what, False, f"got CE: {' '.join(result.compile_message.split())[:200]}")
    package = problem.package
    if package.scoring and package.samples_only:  # the samples' score says nothing: not checked
        rules = [dataclasses.replace(rule, score=None) for rule in rules]
    failures = check_rules(rules, result)
    counts = Counter(case.verdict for case in result.cases)
    summary = ", ".join(f"{count} {verdict}" for verdict, count in sorted(counts.items()))
    summary += f", score {result.score:g}/{result.max_score:g}" if package.scoring else ""
    summary += " (its score is not checked: no data/secret)" if package.scoring and package.samples_only else ""
    if failures:  # every rule failed, each a sentence: one alone may not say what went wrong
        return Check(problem.id, what, False, f"{'; '.join(failures)}; got {summary}")
    return Check(problem.id, what, True, f"meets submissions.yaml: {summary}")


def _refuse_broken_validator(package: Package, result) -> None:
    for case in result.cases:
        if case.verdict == Verdict.IE and case.message.startswith("output validator") and " exited " in case.message:
            raise PackageError(f"{package.output_validator}: {case.message} (on case {case.name})")
