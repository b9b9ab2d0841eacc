"""`judge grade`: judge a folder of submissions (``SUBMISSIONS/<student>/<problem>.<ext>``),
resuming from the results store, and collect a class report."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from judge.classroom.store import Store
from judge.errors import SuiteError, UnknownLanguage, UsageError
from judge.formats.catalog import catalog
from judge.languages import language_for
from judge.model.problem import Case, Problem
from judge.model.results import CaseResult, SubmissionResult
from judge.model.scoring import rank
from judge.runner import judge_submission, summarize
from judge.sandbox import isolation_summary
from judge.sandbox.host import CLOSE_ON_EXEC, NO_FOLLOW, NON_BLOCKING
from judge.text.suggestions import listing, nearest
from judge.workers import Workers


@dataclass(frozen=True)
class Entry:
    student: str
    problem: str
    path: Path


@dataclass(frozen=True)
class Skipped:
    """A file or folder of the submissions that was not graded, and why."""

    path: str  # relative to the submissions folder: "eve/stones.c", "stray.txt"
    reason: str
    student: str = ""  # "": not inside a student's folder
    problem: str | None = None  # the problem the file was meant for, when that is certain
    late: bool = False  # excluded as handed in after the deadline (with problem None: all the student's work)

    @property
    def file(self) -> str:
        """The name inside the student's folder ("" when the whole folder is meant; the path
        itself for something outside any student's folder)."""
        if not self.student:
            return self.path
        inside = self.student + "/"
        return self.path[len(inside):] if self.path.startswith(inside) else ""

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


@dataclass
class StudentReport:
    student: str
    results: dict[str, SubmissionResult] = field(default_factory=dict)
    rank: int = 0
    lateness: Any = None  # a judge.classroom.deadlines.Lateness, when graded against a deadline

    @property
    def total(self) -> float:
        return round(sum(result.score for result in self.results.values()), 2)


@dataclass
class ClassReport:
    problems: list[str]
    students: list[StudentReport]
    # One sentence per file not graded (str of its Skipped), per file graded under another name and
    # per problem that cannot be loaded: for reading, never for telling which files were graded.
    issues: list[str]
    max_scores: dict[str, float]
    loaded: dict[str, Problem] = field(default_factory=dict)  # the graded problems, for showing their samples
    sandbox: dict = field(default_factory=dict)  # the tier judged in and whether it isolated fully
    skipped: list[Skipped] = field(default_factory=list)  # every file or folder not graded, and why
    deadline: dict | None = None  # the deadline graded against, and its late penalty (judge.classroom.deadlines)
    similarity: Any = None  # a judge.classroom.similarity.SimilarityReport, when asked for (--similarity)
    assignment: Any = None  # a judge.classroom.assignment.Assignment, when graded against one (--assignment)

    def not_graded(self, student: str, problem: str) -> Skipped | None:
        """Why ``student`` has no result for ``problem`` though they sent something for it (two
        files for it, a link, an unreadable file...), or None."""
        return next((entry for entry in self.skipped if entry.student == student and entry.problem == problem), None)

    def standing(self, student: StudentReport, problem: str) -> str:
        """What ``student`` has for ``problem``: "graded" (a score, maybe 0), "late" (handed in
        after the deadline, so excluded), "not graded" (sent, but excluded for the reason
        ``not_graded`` gives) or "missing" (nothing sent)."""
        if problem in student.results:
            return GRADED
        refused = self.not_graded(student.student, problem)
        if refused is not None:
            return LATE if refused.late else NOT_GRADED
        whole_late = any(entry.late and entry.student == student.student and entry.problem is None
                         for entry in self.skipped)
        return LATE if whole_late else MISSING


# What a student has for a problem (ClassReport.standing): every format tells these apart.
GRADED, LATE, NOT_GRADED, MISSING = "graded", "late", "not graded", "missing"


@dataclass
class Discovery:
    """What a submissions folder holds: the submissions to grade, every student folder (graded
    or not), what was skipped and why, and notes on files graded under another name."""

    entries: list[Entry] = field(default_factory=list)
    students: list[str] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


class NoSubmissions(UsageError):
    """The submissions folder holds no student folders."""


# Made by archivers and file managers, never by students: ignored without a word.
IGNORED_NAMES = {"__MACOSX", "Thumbs.db", "desktop.ini"}
# "stones (1).py": what a browser names a file downloaded a second time.
DOWNLOAD_COPY = re.compile(r"^(?P<name>.+?)\s*\(\d+\)$")
LAYOUT = "<student>/<problem>.<ext>"


def is_ignored(path: Path) -> bool:
    return path.name.startswith(".") or path.name in IGNORED_NAMES


def discover(folder: Path, problems: list[str]) -> Discovery:
    """The submissions in ``folder`` and, with a reason each, everything that could not be used.

    File names match problems without regard to case (``Stones.PY``, Java's ``Omok.java``); a
    browser's download copy (``stones (1).py``) counts as the file it copies. Symbolic links are
    never followed: a link to /proc/self/environ or a hidden suite would be read by the judge.
    """
    found = Discovery()
    root = folder.resolve()
    children = sorted(path for path in folder.iterdir() if not is_ignored(path))
    for student_dir in children:
        name = student_dir.name
        if not _is_utf8(name):
            found.skipped.append(Skipped(_shown_name(name), NOT_UTF8, student=_shown_name(name)))
        elif student_dir.is_symlink():
            found.skipped.append(Skipped(name, "a symbolic link, not followed; a student's folder must be a "
                                               "real folder", student=name))
        elif not student_dir.is_dir():
            found.skipped.append(Skipped(name, f"not a student folder (expected {folder.name}/{LAYOUT}); skipped"))
        else:
            found.students.append(name)
            _discover_student(student_dir, root, problems, found)
    if not found.students:
        raise NoSubmissions(_no_students(folder, children, problems))
    return found


def _no_students(folder: Path, children: list[Path], problems: list[str]) -> str:
    message = f"{folder} holds no student folders; expected {folder}/{LAYOUT}"
    loose = [path.name for path in children if problem_of(path.name, problems)[0]]
    if loose:
        message += (f" ({', '.join(loose[:3])} lie in it directly: put each student's files in a folder of "
                    f"their own, or pass the folder that holds the students' folders)")
    return message


def _discover_student(student_dir: Path, root: Path, problems: list[str], found: Discovery) -> None:
    student = student_dir.name
    files = sorted(path for path in student_dir.iterdir() if not is_ignored(path))
    by_problem: dict[str, list[Path]] = {}
    for path in files:
        where = f"{student}/{_shown_name(path.name)}"
        if not _is_utf8(path.name):
            found.skipped.append(Skipped(where, NOT_UTF8, student))
            continue
        problem, why_not = problem_of(path.name, problems)
        refusal = _refusal(path, root) if problem else None
        if problem is None or refusal:
            found.skipped.append(Skipped(where, refusal or why_not, student, problem))
        else:
            by_problem.setdefault(problem, []).append(path)
    for problem, paths in sorted(by_problem.items()):
        if len(paths) > 1:
            names = ", ".join(path.name for path in paths)
            found.skipped.append(Skipped(student, f"{len(paths)} files for {problem} ({names}); none graded, "
                                                  f"keep one", student, problem))
            continue
        found.entries.append(Entry(student, problem, paths[0]))
        if not _same_name(paths[0].name, problem):
            found.notes.append(f"{student}/{paths[0].name}: graded as {problem} (the name of a browser's "
                               f"second download of {problem}{paths[0].suffix})")
    if not files:
        found.skipped.append(Skipped(student, EMPTY_FOLDER, student))


NOT_UTF8 = "its name is not UTF-8 (rename it); skipped"
EMPTY_FOLDER = "empty folder"


def _is_utf8(name: str) -> bool:
    """Whether a file name was valid UTF-8 (Python keeps each byte that was not as a lone
    surrogate, which neither the results store nor a UTF-8 report can hold)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _shown_name(name: str) -> str:
    """A file name with each byte that is not UTF-8 written as ``\\xff``: text every format can hold."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def problem_of(file_name: str, problems: list[str]) -> tuple[str | None, str]:
    """The problem a file name is for (case aside, download copies as the file they copy), or
    None and why not, with the nearest problem's name for a near miss."""
    stem = file_name.rpartition(".")[0] if "." in file_name else file_name
    copy = DOWNLOAD_COPY.match(stem)
    by_key = {problem.casefold(): problem for problem in problems}
    for candidate in (stem, copy["name"] if copy else None):
        if candidate is not None and candidate.casefold() in by_key:
            return by_key[candidate.casefold()], ""
    reason = f"no problem called {stem!r} (known: {listing(problems)})"
    near = nearest(stem.casefold(), by_key)
    if near:
        reason += f"; did you mean {by_key[near]}?"
    elif problems and (hint := _naming_hint(file_name, problems[0])):
        reason += f"; {hint}"
    return None, reason + "; skipped"


def _naming_hint(file_name: str, problem: str) -> str:
    """What the file's language says about naming a file after a problem ("" for none, or no language)."""
    try:
        return language_for(Path(file_name)).naming_hint(problem)
    except UnknownLanguage:
        return ""


def _same_name(file_name: str, problem: str) -> bool:
    return Path(file_name).stem.casefold() == problem.casefold()


def _refusal(path: Path, root: Path) -> str | None:
    """Why a file named after a problem cannot be graded, or None if it can."""
    if path.is_symlink():
        return "a symbolic link, not followed; a submission must be a regular file"
    if not path.resolve().is_relative_to(root):
        return "lies outside the submissions folder; skipped"
    if not path.is_file():
        return "not a file; skipped"
    if not _supported(path):
        return f"unsupported file type {path.suffix or '(none)'}; skipped"
    if not _readable(path):
        return "cannot be read; skipped"
    return None


def _supported(path: Path) -> bool:
    try:
        language_for(path)
        return True
    except UnknownLanguage:
        return False


def _readable(path: Path) -> bool:
    try:
        descriptor = os.open(path, os.O_RDONLY | NO_FOLLOW | NON_BLOCKING | CLOSE_ON_EXEC)
    except OSError:
        return False
    try:
        os.read(descriptor, 1)
        return True
    except OSError:
        return False
    finally:
        os.close(descriptor)


class GradingBackend(Protocol):
    """Where the grading loop's submissions are judged: here (``LocalPool``) or on a Dask
    cluster (judge/classroom/cluster.py's ``Cluster``)."""

    def usable(self, entries: list[Entry], skip: Callable[[Entry, str], None]) -> list[Entry]:
        """The entries this backend can judge; each other one is passed to ``skip`` with why."""

    def grade(self, entries: list[Entry], problems: dict[str, Problem], store: Store,
              on_done: Callable[[Entry], None] | None,
              skip: Callable[[Entry, str], None]) -> list[SubmissionResult | None]:
        """Each entry's result, in order, recorded in ``store`` (None: not graded, given to ``skip``)."""


class LocalPool:
    """Grading here: ``jobs`` submissions at a time, each judged in this machine's sandbox."""

    def __init__(self, jobs: int = 1) -> None:
        self.jobs = max(1, jobs)

    def usable(self, entries: list[Entry], skip: Callable[[Entry, str], None]) -> list[Entry]:
        return entries

    def grade(self, entries: list[Entry], problems: dict[str, Problem], store: Store,
              on_done: Callable[[Entry], None] | None,
              skip: Callable[[Entry, str], None]) -> list[SubmissionResult | None]:
        def grade(entry: Entry) -> SubmissionResult | None:
            try:
                result = grade_entry(entry, problems[entry.problem], store)
            except OSError as error:
                if not (entry.path.is_symlink() or not _readable(entry.path)):
                    raise  # not the submission's doing
                # the file changed since it was found (became a link, went away)
                skip(entry, f"cannot be read ({error.strerror}); skipped")
                result = None
            if on_done:
                on_done(entry)
            return result

        # Stopped, or the store failed: submissions not begun are not started.
        with Workers(self.jobs) as workers:
            return list(workers.in_order(grade, entries))


def grade_folder(folder: Path, store: Store, jobs: int = 1, on_start: Callable[[int], None] | None = None,
                 on_done: Callable[[Entry], None] | None = None, problems_dir: Path | None = None,
                 backend: GradingBackend | None = None, only: list[str] | None = None,
                 languages: tuple[str, ...] = ()) -> ClassReport:
    """Judge every submission in ``folder`` (reusing complete results from ``store``) against the
    problems in force (``problems_dir``, else the usual places: see judge/formats/catalog.py), on
    ``backend`` (default: here, ``jobs`` at a time). NoSubmissions if it holds no student folders.
    With ``only`` (an assignment's problems) exactly those are the report's columns, and a file for
    another problem is not graded; with ``languages``, a file in another language is not graded."""
    backend = backend or LocalPool(jobs)
    sources = catalog(problems_dir).require_some()
    found = discover(folder, list(sources))
    if only is not None or languages:
        _keep_assigned(found, only, languages)
    issues = [str(item) for item in found.skipped] + found.notes
    problems = {}
    wanted = only if only is not None else {entry.problem for entry in found.entries}
    for problem_id in sorted(wanted):
        try:
            problems[problem_id] = sources[problem_id].load_to_judge()
        except SuiteError as error:
            issues.append(str(error))
            found.skipped += [_not_graded(entry, f"problem {problem_id} cannot be loaded ({error}); skipped")
                              for entry in found.entries if entry.problem == problem_id]

    def skip(entry: Entry, reason: str) -> None:
        """Record that ``entry`` was not graded: as a fact, for the reports, and as a sentence."""
        item = _not_graded(entry, reason)
        found.skipped.append(item)
        issues.append(str(item))

    entries = backend.usable([entry for entry in found.entries if entry.problem in problems], skip)
    if on_start:
        on_start(len(entries))
    results = backend.grade(entries, problems, store, on_done, skip)
    students = {student: StudentReport(student) for student in found.students}
    for entry, result in zip(entries, results):
        if result is not None:  # None: not graded after all (skipped says why)
            students[entry.student].results[entry.problem] = result
    ordered = rank_students(list(students.values()))
    return ClassReport(sorted(problems), ordered, issues,
                       {problem_id: problem.total_points for problem_id, problem in problems.items()}, problems,
                       sandbox=isolation_summary(), skipped=found.skipped)


def _keep_assigned(found: Discovery, only: list[str] | None, languages: tuple[str, ...]) -> None:
    """Move out of ``found.entries``, with the reason, the files for problems not in ``only`` and
    those written in a language not in ``languages``."""
    kept = []
    for entry in found.entries:
        language = language_for(entry.path).name
        if only is not None and entry.problem not in only:
            reason = f"{entry.problem} is not part of this assignment ({', '.join(only)}); not graded"
        elif languages and language not in languages:
            reason = f"written in {language}; this assignment accepts {', '.join(languages)} only; not graded"
        else:
            kept.append(entry)
            continue
        found.skipped.append(_not_graded(entry, reason))
    found.entries = kept


def rank_students(students: list[StudentReport]) -> list[StudentReport]:
    """``students`` ranked by total (each one's ``rank`` set), best first, ties by name."""
    for student, place in zip(students, rank([student.total for student in students])):
        student.rank = place
    return sorted(students, key=lambda student: (student.rank, student.student))


def _not_graded(entry: Entry, reason: str) -> Skipped:
    return Skipped(f"{entry.student}/{entry.path.name}", reason, entry.student, entry.problem)


@dataclass
class Resumption:
    """Where a submission stands in the store: its row, what is recorded, which cases remain."""

    submission_id: int
    complete: bool
    language: str
    recorded: dict[str, CaseResult]
    compile_message: str
    remaining: list[Case]
    positions: dict[str, int]  # each case's place in the problem's order, by name

    @property
    def needs_judging(self) -> bool:
        return bool(self.remaining) and not self.complete

    def record(self, store: Store, result: CaseResult) -> None:
        """Record a case just judged, unless it already is (a task run again after its worker
        died judges its cases again)."""
        if result.name not in self.recorded:
            store.record_case(self.submission_id, self.positions[result.name], result)
            self.recorded[result.name] = result


def resume_entry(entry: Entry, problem: Problem, store: Store) -> Resumption:
    """The submission's row in the store (made if new) and what is left to judge."""
    language = language_for(entry.path).name
    submission_id, complete = store.submission(entry.student, problem, entry.path, language)
    recorded = {result.name: result for result in store.recorded_cases(submission_id)}
    remaining = [case for case in problem.cases if case.name not in recorded]
    positions = {case.name: index for index, case in enumerate(problem.cases)}
    return Resumption(submission_id, complete, language, recorded, store.compile_message(submission_id), remaining,
                      positions)


def finish_entry(entry: Entry, problem: Problem, store: Store, resumption: Resumption,
                 fresh: SubmissionResult | None) -> SubmissionResult:
    """Record the ``fresh`` case results (if any judging was done) and the submission's summary."""
    compile_message = resumption.compile_message
    if fresh is not None:
        compile_message = fresh.compile_message
        for result in fresh.cases:
            resumption.record(store, result)  # CE and IE results arrive without on_case
    recorded = resumption.recorded
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
        fresh = judge_submission(problem, entry.path, cases=resumption.remaining, keep_output=False,
                                 on_case=lambda result: resumption.record(store, result))
    return finish_entry(entry, problem, store, resumption, fresh)
