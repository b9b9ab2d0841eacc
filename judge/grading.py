"""`judge grade`: judge a folder of submissions (``SUBMISSIONS/<student>/<problem>.<ext>``),
resuming from the results store, and collect a class report."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from judge.languages import UnknownLanguage, language_for
from judge.catalog import catalog
from judge.errors import SuiteError
from judge.problem import Case, Problem
from judge.runner import CaseResult, SubmissionResult, judge_submission, summarize
from judge.sandbox import isolation_summary
from judge.scoring import rank
from judge.store import Store

if TYPE_CHECKING:
    from judge.cluster import Cluster


@dataclass(frozen=True)
class Entry:
    student: str
    problem: str
    path: Path


@dataclass
class StudentReport:
    student: str
    results: dict[str, SubmissionResult] = field(default_factory=dict)
    rank: int = 0

    @property
    def total(self) -> float:
        return round(sum(result.score for result in self.results.values()), 2)


@dataclass
class ClassReport:
    problems: list[str]
    students: list[StudentReport]
    issues: list[str]
    max_scores: dict[str, float]
    loaded: dict[str, Problem] = field(default_factory=dict)  # the graded problems, for showing their samples
    sandbox: dict = field(default_factory=dict)  # the tier judged in and whether it isolated fully


def discover(folder: Path, problems: list[str]) -> tuple[list[Entry], list[str]]:
    """The submissions in ``folder`` and, as sentences, everything that could not be used."""
    entries, issues = [], []
    for student_dir in sorted(folder.iterdir()):
        if not student_dir.is_dir():
            issues.append(f"{student_dir.name}: not a student folder (expected {folder.name}/<student>/<problem>.<ext>); skipped")
            continue
        files = sorted(path for path in student_dir.iterdir() if not path.name.startswith("."))
        by_problem: dict[str, list[Path]] = {}
        for path in files:
            problem = path.stem
            if not path.is_file():
                issues.append(f"{student_dir.name}/{path.name}: not a file; skipped")
            elif problem not in problems:
                issues.append(f"{student_dir.name}/{path.name}: no problem called {problem!r} "
                              f"(known: {', '.join(problems)}); skipped")
            elif not _supported(path):
                issues.append(f"{student_dir.name}/{path.name}: unsupported file type {path.suffix or '(none)'}; skipped")
            elif not _readable(path):
                issues.append(f"{student_dir.name}/{path.name}: cannot be read; skipped")
            else:
                by_problem.setdefault(problem, []).append(path)
        for problem, paths in sorted(by_problem.items()):
            if len(paths) > 1:
                names = ", ".join(path.name for path in paths)
                issues.append(f"{student_dir.name}: {len(paths)} files for {problem} ({names}); none graded, keep one")
                continue
            entries.append(Entry(student_dir.name, problem, paths[0]))
        if not files:
            issues.append(f"{student_dir.name}: empty folder")
    return entries, issues


def _supported(path: Path) -> bool:
    try:
        language_for(path)
        return True
    except UnknownLanguage:
        return False


def _readable(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            handle.read(1)
        return True
    except OSError:
        return False


def grade_folder(folder: Path, store: Store, jobs: int = 1, on_start: Callable[[int], None] | None = None,
                 on_done: Callable[[Entry], None] | None = None, problems_dir: Path | None = None,
                 cluster: Cluster | None = None) -> ClassReport:
    """Judge every submission in ``folder`` (reusing complete results from ``store``) against the
    problems in force (``problems_dir``, else the usual places: see judge/catalog.py), here or,
    with ``cluster``, on its workers."""
    sources = catalog(problems_dir).require_some()
    entries, issues = discover(folder, list(sources))
    problems = {}
    for problem_id in sorted({entry.problem for entry in entries}):
        try:
            problems[problem_id] = sources[problem_id].load()
        except SuiteError as error:
            issues.append(str(error))
    entries = [entry for entry in entries if entry.problem in problems]
    if cluster is not None:
        entries = cluster.usable(entries, issues)
    if on_start:
        on_start(len(entries))

    def grade(entry: Entry) -> SubmissionResult:
        result = grade_entry(entry, problems[entry.problem], store)
        if on_done:
            on_done(entry)
        return result

    if cluster is not None:
        results = cluster.grade(entries, problems, store, on_done, issues)
    else:
        with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
            try:
                results = list(pool.map(grade, entries))
            except BaseException:  # stopped: submissions not begun yet are not started
                pool.shutdown(wait=False, cancel_futures=True)
                raise
    students: dict[str, StudentReport] = {}
    for student_dir in sorted(path.name for path in folder.iterdir() if path.is_dir()):
        students[student_dir] = StudentReport(student_dir)
    for entry, result in zip(entries, results):
        if result is not None:  # None: the cluster gave up on it (an issue says so)
            students[entry.student].results[entry.problem] = result
    ordered = list(students.values())
    for report, place in zip(ordered, rank([report.total for report in ordered])):
        report.rank = place
    ordered.sort(key=lambda report: (report.rank, report.student))
    return ClassReport(sorted(problems), ordered, issues,
                       {problem_id: problem.total_points for problem_id, problem in problems.items()}, problems,
                       sandbox=isolation_summary())


@dataclass
class Resumption:
    """Where a submission stands in the store: its row, what is recorded, which cases remain."""

    submission_id: int
    complete: bool
    language: str
    recorded: dict[str, CaseResult]
    compile_message: str
    remaining: list[Case]

    @property
    def needs_judging(self) -> bool:
        return bool(self.remaining) and not self.complete


def resume_entry(entry: Entry, problem: Problem, store: Store) -> Resumption:
    """The submission's row in the store (made if new) and what is left to judge."""
    language = language_for(entry.path).name
    submission_id, complete = store.submission(entry.student, problem, entry.path, language)
    recorded = {result.name: result for result in store.recorded_cases(submission_id)}
    remaining = [case for case in problem.cases if case.name not in recorded]
    return Resumption(submission_id, complete, language, recorded, store.compile_message(submission_id), remaining)


def finish_entry(entry: Entry, problem: Problem, store: Store, resumption: Resumption,
                 fresh: SubmissionResult | None) -> SubmissionResult:
    """Record the ``fresh`` case results (if any judging was done) and the submission's summary."""
    recorded = dict(resumption.recorded)
    compile_message = resumption.compile_message
    if fresh is not None:
        positions = {case.name: index for index, case in enumerate(problem.cases)}
        compile_message = fresh.compile_message
        for result in fresh.cases:
            if result.name not in recorded:  # CE and IE results arrive without on_case
                store.record_case(resumption.submission_id, positions[result.name], result)
            recorded[result.name] = result
    ordered = [recorded[case.name] for case in problem.cases if case.name in recorded]
    result = summarize(problem, entry.path, resumption.language, ordered, compile_message)
    if not resumption.complete:
        store.complete(resumption.submission_id, result.verdict, result.score, result.max_score, compile_message)
    return result


def grade_entry(entry: Entry, problem: Problem, store: Store) -> SubmissionResult:
    """One submission's result: from the store if complete, else judged (resuming if begun)."""
    resumption = resume_entry(entry, problem, store)
    fresh = None
    if resumption.needs_judging:
        positions = {case.name: index for index, case in enumerate(problem.cases)}
        fresh = judge_submission(problem, entry.path, cases=resumption.remaining, on_case=lambda result:
                                 store.record_case(resumption.submission_id, positions[result.name], result))
    return finish_entry(entry, problem, store, resumption, fresh)
