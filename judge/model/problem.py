"""A problem: everything about it in one object, whatever format it was written in.

Loaders (``judge/formats/``) build ``Problem`` values; nothing else knows where a problem's files
live. ``judge/formats/catalog.py`` finds problems by name or path.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from judge.errors import SuiteError
from judge.model.feedback import FeedbackPolicy
from judge.model.verdict import Verdict
from judge.model.vocabulary import TaskStyle, Visibility

if TYPE_CHECKING:
    from judge.extension_points import TaskType
    from judge.model.signature import Signature

VISIBILITIES = Visibility.names()
SCORING_MODES = ("cases", "groups")
MIB = 1024 * 1024

__all__ = ["Case", "Problem", "ProblemFiles", "SuiteError"]

EXACT_CHECKERS = ("tokens", "exact", "data")  # judge/problem_code/checkers.py's built-ins that accept one output only


@dataclass(frozen=True)
class Case:
    """One test case: stdin text for stdio problems, call arguments for function problems."""

    name: str
    input: str | None = None
    args: tuple | None = None
    expected: Any = None  # str for stdio, any JSON value for function problems; None = ask the reference
    group: str = "default"
    points: float = 1.0
    visibility: Visibility = Visibility.HIDDEN
    origin: str | None = None
    hint: str = ""  # the author's, shown to the student when the case fails
    description: str = ""  # what the case is for, shown with the hint
    show_name: bool = False  # a hidden case's name is safe to show students (judge/model/feedback.py numbers it otherwise)

    def __post_init__(self) -> None:
        # Whatever a loader wrote ("sample", from YAML), the case holds the word itself.
        object.__setattr__(self, "visibility", Visibility(self.visibility))

    def stdin_bytes(self) -> bytes:
        """What the submission reads: the input text, or the call's arguments as JSON."""
        if self.args is not None:
            return json.dumps(list(self.args)).encode()
        return (self.input or "").encode()


@dataclass(frozen=True)
class ProblemFiles:
    """Where a problem's parts are. Only the problem's loader fills this in; a part the problem
    does not have is None."""

    root: Path  # what paths written in the problem (a custom checker's, say) are relative to
    suite: Path | None = None  # the file the cases and settings were read from
    reference: Path | None = None  # trusted solver: solve(text) or solution(...)
    validator: Path | None = None  # validate(value) raising ValueError
    strategies: Path | None = None  # Hypothesis strategies for `judge stress`: inputs()
    solutions: Path | None = None  # example solutions in <verdict folder>/ subfolders
    generators: tuple[Path, ...] = ()  # programs that make some of its cases (a suite's `generated:`)


@dataclass(frozen=True)
class JudgeRules:
    """How a problem's submissions are built and scored: the judge's own way (one source file in
    one of its languages; the verdict and score of judge/model/verdict.py and judge/model/scoring.py). A
    format with rules of its own gives its problems a subclass as it loads them (a problem
    package's: judge/formats/icpc/rules.py), so the runner never asks which format a problem came from."""

    def prepare(self, problem: Problem, source: Path) -> Any:
        """The submission built this problem's own way (a ``judge.model.results`` Prepared or
        PrepareFailure); None: the judge's way."""
        return None

    def aggregate(self, problem: Problem, results: list) -> tuple[Verdict, float] | None:
        """(verdict, score) of a submission from its case results, when the problem decides them
        its own way; None: the judge's rules."""
        return None


@dataclass(frozen=True)
class Problem:
    """A problem's settings, its cases and its parts."""

    id: str
    title: str
    statement: str
    task: TaskType
    time_limit: float  # CPU seconds per case, before per-language adjustment
    memory_limit: int  # bytes
    output_limit: int  # bytes
    files: ProblemFiles
    checker: str = "tokens"
    checker_options: dict = field(default_factory=dict)
    scoring: str = "cases"
    total_points: float = 100.0
    group_points: dict = field(default_factory=dict)
    cases: tuple[Case, ...] = ()
    format: str = "suite"  # the loader that read it
    package: Any = None  # a judge.formats.icpc.package.Package, for problems read from a problem package
    rules: JudgeRules = JudgeRules()  # how its submissions are built and scored
    signature: Signature | None = None  # function style: the typed function submissions define
    may_write_files: bool = True  # whether submissions may write in their working directory, /tmp and /dev/shm
    # Whether a submission's stack has the sandbox's own limit; False: only the memory limit bounds
    # it (RLIMIT_STACK unlimited), as DOMjudge and BAPCtools run a package's submissions.
    stack_limited: bool = True
    feedback: FeedbackPolicy = FeedbackPolicy()  # what students are shown of hidden cases (judge/model/feedback.py)
    # What judge/problem_code/ loaded of the setter's Python files (each module, the checker, the
    # reference's answers), kept with the problem and its copies: loaded once, gone with it.
    code: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def io(self) -> TaskStyle:
        """The task type's name, as suites and JSON reports write it ("stdio", "function")."""
        return self.task.name

    @property
    def one_right_output(self) -> bool:
        """Whether the expected output is the only right one, but for spacing (the token, exact
        and data checkers; a package's default validator without a float tolerance), so that
        where another output first differs from it is where that output goes wrong. A custom
        checker or output validator may accept other outputs, and a tolerance other digits:
        there the first difference may be no fault, and is not pointed at."""
        if self.package is not None:
            return self.package.one_right_output
        return self.checker in EXACT_CHECKERS

    @property
    def suite_path(self) -> Path | None:
        return self.files.suite

    @property
    def reference_path(self) -> Path | None:
        return self.files.reference

    @property
    def project_root(self) -> Path:
        return self.files.root

    def case(self, name: str) -> Case:
        """The case called ``name``; SuiteError listing the names when there is none."""
        for case in self.cases:
            if case.name == name:
                return case
        names = ", ".join(case.name for case in self.cases)
        raise SuiteError(f"problem {self.id} has no case {name!r}; its cases are: {names}")

    def example_solutions(self) -> list[tuple[Path, Verdict]]:
        """(file, the verdict its folder promises) for every example solution, sorted."""
        folder = self.files.solutions
        if folder is None or not folder.is_dir():
            return []
        found = []
        for sub in sorted(folder.iterdir()):
            verdict = Verdict.from_folder(sub.name)
            if verdict is not None and sub.is_dir():
                found += [(path, verdict) for path in sorted(sub.iterdir()) if path.is_file()]
        return found
