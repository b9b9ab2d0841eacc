"""The judge's extension points, declared in one place as typed protocols: a problem format, a
language, a task type, a score type, and the output formats of each kind of result. A new one of any of them is
one module that provides what its protocol declares; the judge calls nothing else of it.

The built-in ones inherit defaults from a base class beside them (``formats/base.py``,
``languages/base.py``, ``tasks/base.py``); another package's need not, as long as it has the
protocol's attributes and methods. Registering one: a format or a language through the
``judge.formats`` or ``judge.languages`` entry-point group, a task type in ``judge.tasks``'s
``TASK_TYPES``, an output format as a module ``judge/renderers/<kind>/<name>.py``. A score type is
one class the scoring rules that use it construct (``judge/model/scoring.py`` holds the shared ones).

This module imports nothing of the judge at run time: every layer may name these protocols.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from judge.classroom.grading import ClassReport
    from judge.classroom.similarity import SimilarityReport
    from judge.formats.base import ProblemSource
    from judge.languages.functions import FunctionStyle
    from judge.languages.program import Program
    from judge.model.problem import Case, Problem
    from judge.model.results import CaseResult, Check, Prepared, SubmissionResult
    from judge.model.scoring import Scored
    from judge.model.signature import Signature
    from judge.model.vocabulary import TaskStyle, Visibility
    from judge.renderers.report import CaseTable
    from judge.sandbox import Limits, Outcome
    from judge.tasks.base import Execute


@runtime_checkable
class ProblemFormat(Protocol):
    """One way of writing problems down (the built-in YAML suites, ICPC packages, ...)."""

    name: str
    # `judge test` lists a problem that does not load as a failed check (and tests the others);
    # a format that says False makes it an error (exit 2), as its own tools do.
    reports_broken_problems: bool
    # A submission may be a folder of files (as a package's submissions may), not only one file.
    # How a submission is built and scored is the problem's own (``Problem.rules``, attached as
    # the format loads it).
    accepts_directory_submissions: bool

    def sources_in(self, folder: Path) -> list[ProblemSource]:
        """The problems of this format that ``folder`` holds (none: an empty list)."""

    def source_at(self, path: Path) -> ProblemSource | None:
        """``path`` itself as a problem of this format, or None if it is not one."""

    def load(self, source: ProblemSource, time_limit: float | None = None, run_programs: bool = True) -> Problem:
        """The problem, with ``time_limit`` (CPU seconds) instead of its own when given; SuiteError
        naming the file and the fix. Loading runs no submission; without ``run_programs`` it runs
        nothing at all (no generator either: see `judge show`)."""

    def ready(self, problem: Problem) -> Problem:
        """``problem`` ready to be judged: a format whose loading leaves something to work out by
        running programs (a package's time limit) does it here, at the point a command needs it."""

    def strategy_path(self, source: ProblemSource) -> Path | None:
        """The Hypothesis strategies for `judge stress`, found without loading the problem (so the
        example generator can start first); None: the format has none."""

    def time_limit_text(self, problem: Problem) -> str:
        """The time limit as `judge list` shows it."""

    def verify(self, problem: Problem, jobs: int | None) -> Iterable[Check | None]:
        """`judge test`'s checks of a problem of this format, each as soon as it is made (they are
        printed as they come; None: a check that does not apply)."""

    def describe(self, problem: Problem) -> str:
        """What `judge show` prints: statement, limits and samples."""

    def content_hash(self, problem: Problem) -> str:
        """A key of everything the expected results depend on: results recorded under another
        key are judged again (see judge/classroom/store.py)."""

    def own_folder(self, problem: Problem, path: Path) -> bool:
        """Whether the folder at ``path`` is one of the problem's own programs (a package's example
        submission), whose links to the problem's files are followed; never a contestant's."""


@runtime_checkable
class Language(Protocol):
    """One language: how to recognise a submission, find the toolchain (and what to install when
    it is missing), prepare a program, what the sandbox must expose to run it, its time and memory
    allowances, and a tiny program that proves it works."""

    name: str
    title: str  # how people write its name (C++, Kotlin); empty: its name
    extensions: tuple[str, ...]
    # What the ICPC problem package format calls it (its language table), first the current code:
    # a package's include/<code>/ files go with its submissions. Empty: its name.
    package_codes: tuple[str, ...]
    styles: tuple[TaskStyle, ...]  # the task types (by name) it can be judged in
    # How it declares and calls a function-style problem's function (judge/languages/functions/).
    function_style: FunctionStyle | None
    toolchain: tuple[str, ...]  # executables that must exist
    apt_packages: tuple[str, ...]  # Debian packages that provide the toolchain
    # Host paths its programs need, and its compiler besides, beyond the base system (/usr/bin and
    # the shared libraries): the sandbox shows nothing else (judge/sandbox/view.py).
    runtime_paths: tuple[str, ...]
    build_paths: tuple[str, ...]
    # Allowances over the problem's limits (``limits`` applies them): CPU time x factor + extra
    # seconds, for runtimes that start slowly or compile at run time.
    time_factor: float
    time_extra: float
    # Whether its programs ship the exec server and run their cases through it: one sandbox per
    # submission instead of one per case.
    exec_server: bool
    # A program that reads two integers and prints their sum: `judge doctor` runs it.
    self_test_source: str
    self_test_file: str
    # A folder program (a package's submission or validator), so that a format names no language's
    # files: what its sources include rather than compile (C's headers), the languages whose sources
    # it builds beside its own (C++ builds C), and the entry files a folder names, in order.
    header_extensions: tuple[str, ...]
    also_builds: tuple[str, ...]
    folder_entries: tuple[str, ...]
    # About how many seconds a small program's build takes (a JVM compiler's start, a C++
    # compiler's headers): among programs judged side by side, the slowest to build start first.
    build_seconds: float

    @property
    def install_hint(self) -> str:
        """What to install for its toolchain, said to a person."""

    def version(self) -> str:
        """The toolchain's version line; LanguageUnavailable naming what to install if missing."""

    def prepare(self, source: Path, style: str, signature: Signature | None = None) -> Program:
        """Turn a source file into a runnable Program (compiling it once, cached). For a
        function-style problem, ``signature`` is its typed signature, if the suite gives one."""

    def prepare_folder(self, files: dict[str, bytes], path: Path, entry: str | None,
                       header_folders: tuple[str, ...] = ()) -> Program:
        """Turn a folder's files into a runnable Program by this language's rules for its entry (a
        format passes what only it knows: the ``entry`` its package names, the ``header_folders``
        it supplied); CompileError when it cannot be built."""

    def holds_entry(self, files: dict[str, bytes]) -> bool:
        """Whether ``files`` (a package's code that goes with every submission) hold a folder
        program's entry by this language's rules: then they choose it, not the submission's name."""

    def cannot_run(self, path: Path) -> str | None:
        """Why a source file of this language still cannot run here (a Python 2 script), or None:
        a package's checks skip it with that reason."""

    def naming_hint(self, problem: str) -> str:
        """What to tell a student whose file is named after no problem (Java: after the problem,
        not the class), ``problem`` as the example; "" for nothing."""

    def failing_line(self, stderr: str) -> str | None:
        """Where the runtime's report of an uncaught error places it in the submission (``line 7``),
        or None: a sample case's message says where it failed."""

    def limits(self, base: Limits) -> Limits:
        """The limits a program of this language runs with, from the problem's base limits."""

    def ran_out_of_memory(self, stderr: bytes) -> bool:
        """Whether the runtime said, on ``stderr``, that it ran out of memory."""

    def warm_pool(self, program: Program, style: str, limits: Limits) -> Any:
        """A pool that runs this program's cases faster than a fresh start each (see
        judge/languages/warm.py), or None: every case starts afresh."""


@runtime_checkable
class TaskType(Protocol):
    """How cases of one kind of problem are fed, answered, checked and shown."""

    name: str  # the suite's `io` value; languages list the task types they support by it
    case_field: str  # the suite field (and JSON key) holding a case's data: "input" or "args"
    default_checker: str
    value_label: str  # what a case's value is called when shown: "input", "arguments"
    runs_warm: bool  # whether a language's warm pool may run its cases
    # The wall clock's multiple of the time limit and its overshoot: 2 where the program waits on a validator
    # working beside it (an interactive run), as DOMjudge doubles it there.
    wall_factor: float

    def case_data(self, raw: dict, read: Callable[..., Any]) -> dict:
        """The Case fields this task type reads from one raw suite case. ``read(key, kind[,
        default])`` reads a field of that type (SuiteError when it is wrong, or missing without
        a default)."""

    def value(self, case: Case) -> Any:
        """A case's data as the reference solver, the validator and stress testing see it."""

    def make_case(self, value: Any, name: str, visibility: Visibility = ...) -> Case:
        """A case made from a value of the kind ``value`` returns (stress testing makes these)."""

    def unusable_by(self, problem: Problem, language: Language) -> str | None:
        """Why ``language`` cannot be judged on ``problem`` (a usage error), or None."""

    def stdin(self, case: Case) -> bytes:
        """What the program is given on standard input."""

    def run(self, execute: Execute, command: list[str], case: Case, limits: Limits, program_dir: Path) -> Outcome:
        """Run the prepared program on one case."""

    def judge_case(self, problem: Problem, prepared: Prepared, case: Case, execute: Execute) -> CaseResult | None:
        """A task type that decides a case's verdict its own way (a problem package's output
        validator, an interactive run) returns the case's result; None: the runner runs the case
        with ``run`` and checks the output with the problem's checker."""

    def reference_answer(self, reference: ModuleType, value: Any) -> Any:
        """The trusted reference solver's answer for a case's value."""

    def answer_text(self, answer: Any) -> str:
        """An answer as the program's output would be written, for the checkers."""

    def output_answer(self, output: str) -> Any:
        """A program's output read back as an answer, for a checker to compare another output with
        (the inverse of ``answer_text``)."""

    def show_value(self, value: Any) -> str:
        """A case's value for people (stress counterexamples, sample listings)."""

    def show_answer(self, answer: Any) -> str:
        """An expected answer for people."""

    def show_sample(self, name: str, value: Any, expected: Any) -> str:
        """A sample case and its expected answer, as `judge show` prints it."""

    def describe(self) -> str:
        """The I/O style in a word or two, for `judge list`."""


@runtime_checkable
class ScoreType(Protocol):
    """How a group's results (each case's or sub-group's verdict and score, in order) reduce to the
    group's own verdict and score, as CMS's group score types reduce their cases. A problem's score
    is its groups reduced, up to the whole."""

    name: str  # what it is called where a problem's settings choose it ("sum", "pass-fail")

    def reduce(self, results: Iterable[Scored]) -> Scored:
        """The group's (verdict, score). ``results`` come lazily, in order: one that stops early
        (a break at the first rejection) leaves the rest unworked-out."""


# Output formats: one module each, ``judge/renderers/<kind>/<name>.py``, which the command of that
# kind offers as ``--format <name>``. A module provides what its kind's protocol declares.


@runtime_checkable
class GradeReportFormat(Protocol):
    """A format of a class report (``renderers/grade/``) whose text is printed, or written to
    ``--out``."""

    FOR_STUDENTS: bool  # students read it: each problem's feedback policy applies
    SHOWS_COUNTEREXAMPLES: bool  # it shows hidden failures' counterexamples: only then does `judge grade` search

    def render(self, report: ClassReport, **options: Any) -> str:
        """The report's text; ``options`` are those of `judge grade`'s that the format takes
        (``cases``, ``canvas``)."""


@runtime_checkable
class GradeFilesFormat(Protocol):
    """A format of a class report that writes several files (one per student, say) under a folder."""

    FOR_STUDENTS: bool
    SHOWS_COUNTEREXAMPLES: bool
    DEFAULT_OUT: Path  # the folder written without --out

    def write(self, report: ClassReport, out: Path) -> list[Path]:
        """Write the report under ``out``; the files written."""


@runtime_checkable
class RunResultFormat(Protocol):
    """A format of one submission's result (``renderers/run/``), printed by `judge run`."""

    def render(self, result: SubmissionResult, problem: Problem) -> str:
        """The whole result, printed when the judging is over."""


@runtime_checkable
class RowsFormat(RunResultFormat, Protocol):
    """A run format that prints each case's row as the case is decided, then the rest."""

    def row_table(self, names: list[str]) -> CaseTable:
        """The table the rows of the cases ``names`` are printed in, one at a time."""

    def render_after_rows(self, result: SubmissionResult, problem: Problem, whole_counterexample: bool = False) -> str:
        """What follows the rows once every case is decided."""


@runtime_checkable
class SimilarityReportFormat(Protocol):
    """A format of `judge similarity`'s report (``renderers/similarity/``)."""

    def render(self, report: SimilarityReport) -> str:
        """The report's text."""


@runtime_checkable
class StatementFormat(Protocol):
    """A format of a problem's statement (``renderers/statement/``), for `judge show`."""

    def render(self, problem: Problem) -> str:
        """The statement, limits and samples."""


# What each kind of result's formats provide (one of the protocols: a grade format either renders
# or writes).
RESULT_FORMATS: dict[str, tuple[type, ...]] = {
    "grade": (GradeReportFormat, GradeFilesFormat),
    "run": (RunResultFormat,),
    "similarity": (SimilarityReportFormat,),
    "statement": (StatementFormat,),
}
