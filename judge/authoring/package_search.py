"""A failing input of the student's own for a problem package: when a submission fails a hidden
case, make fresh cases with the package's own seeded generators (generators/generators.yaml,
each command that takes ``{seed}``, run with seeds of the judge's own), answer them with the
package's solution, and judge the submission on them until one fails or the budget is spent.

There is no shrinking, as there is for a problem's Hypothesis strategies: the generators are
tried in the order generators.yaml lists them, which is usually the smallest cases first."""

from __future__ import annotations

import dataclasses
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from judge.formats.icpc.generated_data import CaseMaker, default_solution
from judge.formats.icpc.generators import GENERATORS_FILE, SEED, Plan, PlannedCase, read_plan, seed_of
from judge.formats.icpc.package import CaseFiles, PackageError
from judge.model.problem import Case, Problem
from judge.model.results import CaseResult, Prepared
from judge.model.verdict import Verdict
from judge.model.vocabulary import Visibility


@dataclasses.dataclass
class Found:
    """What the search found: the failing input, its answer and the submission's result on it
    (``result`` None: none found, and ``note`` says why); ``tried``: fresh cases judged."""

    input: str = ""
    answer: str = ""
    result: CaseResult | None = None
    note: str = ""
    tried: int = 0
    rejected_hidden: int = 0


def seeded_cases(plan: Plan) -> list[PlannedCase]:
    """The secret cases of generators.yaml that a seeded command makes (answered ones only)."""
    return [case for case in plan.cases if case.command is not None and SEED.search(case.command.text)
            and case.answered and case.name.startswith("secret/")]


def search(problem: Problem, prepared: Prepared, deadline: float, is_hidden_input: Callable[[str], bool],
           run_case: Callable[[Problem, Prepared, Case], CaseResult], examples: int | None = None,
           salt: str = "judge-search", on_tried: Callable[[int], None] | None = None) -> Found:
    """Fresh cases from the package's seeded generators, judged with ``run_case`` until one
    fails, ``deadline`` (time.monotonic()) passes or ``examples`` were judged; an input
    ``is_hidden_input`` is skipped. ``salt`` chooses the seeds (the same salt, the same cases);
    ``on_tried`` is told the count after each case judged."""
    package = problem.package
    if package.interactive:
        return Found(note=f"the problem package {problem.id} is interactive: a case's input is the "
                          f"validator's, not the submission's, so no input can show its failure")
    if not (package.root / GENERATORS_FILE).is_file():
        return Found(note=f"the problem package {problem.id} has no input generator (no {GENERATORS_FILE}), "
                          f"so no input of the judge's own can be searched for")
    plan = read_plan(package.root, default_solution(package), package.constants)
    candidates = seeded_cases(plan)
    if not candidates:
        return Found(note=f"no input generator of {problem.id}'s {GENERATORS_FILE} takes a {{seed}}, so it makes "
                          f"no input but its own: no input of the judge's own can be searched for")
    scratch = Path(tempfile.mkdtemp(prefix="judge-search-"))
    try:
        return _search(problem, prepared, deadline, is_hidden_input, run_case, plan, candidates, scratch,
                       examples, salt, on_tried)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _search(problem, prepared, deadline, is_hidden_input, run_case, plan, candidates, scratch, examples, salt,
            on_tried) -> Found:
    maker = CaseMaker(problem.package, plan, scratch / "made")
    found = Found()
    attempt = 0
    def more() -> bool:
        return time.monotonic() < deadline and (examples is None or found.tried < examples)

    while more():
        attempt += 1
        for planned in candidates:
            if not more():
                break
            # Seeds of the judge's own: never those generators.yaml gives its own cases.
            seed = seed_of(planned.command.text, f"{salt}-{attempt}", 1)
            try:  # without its `match:`, which describes the case generators.yaml makes, not this one
                files = maker.case_files(dataclasses.replace(planned, seed=seed, match={}))
            except PackageError as error:  # the package's own fault: the run's result stands
                found.note = f"the search stopped: {error}"
                return found
            text, answer = (files[".in"].decode("utf-8", errors="replace"),
                            files.get(".ans", b"").decode("utf-8", errors="replace"))
            if is_hidden_input(text):
                found.rejected_hidden += 1
                continue
            found.tried += 1
            result = _judge_fresh(problem, prepared, planned, files, scratch / f"case-{found.tried}", run_case)
            if on_tried is not None:
                on_tried(found.tried)
            if result.verdict != Verdict.AC:
                found.input, found.answer, found.result = text, answer, result
                return found
    found.note = (f"none found before the budget was spent ({found.tried} fresh inputs from {GENERATORS_FILE} tried)"
                  if examples is None or found.tried < examples else
                  f"none found in {found.tried} fresh inputs from {GENERATORS_FILE}")
    return found


def _judge_fresh(problem: Problem, prepared: Prepared, planned: PlannedCase, files: dict[str, bytes], folder: Path,
                 run_case: Callable[[Problem, Prepared, Case], CaseResult]) -> CaseResult:
    """The submission's result on a made case, judged as the package's cases of its group are
    (their output validator arguments), in a copy of the package that has it."""
    folder.mkdir(parents=True)
    (folder / "case.in").write_bytes(files[".in"])
    (folder / "case.ans").write_bytes(files.get(".ans", b""))
    package = problem.package
    name = f"{planned.directory}/judge-search"
    alike = next((files for files in package.cases.values() if files.group == planned.directory),
                 next((files for files in package.cases.values() if files.group.startswith("secret")), None))
    case_files = CaseFiles(name=name, input_path=folder / "case.in", answer_path=folder / "case.ans",
                           group=planned.directory,
                           output_validator_args=alike.output_validator_args if alike else ())
    extended = dataclasses.replace(package, cases={**package.cases, name: case_files})
    fresh = dataclasses.replace(problem, package=extended, task=type(problem.task)(extended))
    case = Case(name=name, input=(folder / "case.in").read_text(encoding="utf-8", errors="replace"),
                expected=(folder / "case.ans").read_text(encoding="utf-8", errors="replace"),
                group=planned.directory, visibility=Visibility.HIDDEN)
    return run_case(fresh, prepared, case)
