"""What a problem format provides: finding its problems in a folder, and loading one."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from judge.model.results import Check

if TYPE_CHECKING:
    from judge.model.problem import Problem


@dataclass(frozen=True)
class ProblemSource:
    """A problem found on disk but not read yet: cheap to list, loaded on demand."""

    id: str
    path: Path  # the file or folder the problem is (a suite file, a package folder)
    format: ProblemFormat

    def load(self, time_limit: float | None = None, run_programs: bool = True) -> Problem:
        """Read and check the whole problem; SuiteError naming the file and the fix. ``time_limit``
        (CPU seconds) replaces the problem's own. Loading runs no submission (a package's time
        limit not worked out yet stays unknown: see ``load_to_judge``); without ``run_programs``
        it runs nothing at all (no generator either: see `judge show`)."""
        return self.format.load(self, time_limit, run_programs)

    def load_to_judge(self, time_limit: float | None = None) -> Problem:
        """``load``, then what judging needs that loading does not do (``ProblemFormat.ready``)."""
        return self.format.ready(self.load(time_limit))

    def strategy_path(self) -> Path | None:
        """The Hypothesis strategies for `judge stress`, found without loading the problem (so
        the example generator can start first)."""
        return self.format.strategy_path(self)


class ProblemFormat:
    """One way of writing problems down (the built-in YAML suites, ICPC packages, ...)."""

    name = ""
    # `judge test` lists a problem that does not load as a failed check (and tests the others);
    # a format that says False makes it an error (exit 2), as its own tools do.
    reports_broken_problems = True

    def sources_in(self, folder: Path) -> list[ProblemSource]:
        """The problems of this format that ``folder`` holds (none: an empty list)."""
        raise NotImplementedError

    def source_at(self, path: Path) -> ProblemSource | None:
        """``path`` itself as a problem of this format, or None if it is not one."""
        raise NotImplementedError

    def load(self, source: ProblemSource, time_limit: float | None = None, run_programs: bool = True) -> Problem:
        """The problem, with ``time_limit`` (CPU seconds) instead of its own when given; see
        ``ProblemSource.load`` for ``run_programs``."""
        raise NotImplementedError

    def ready(self, problem: Problem) -> Problem:
        """``problem`` ready to be judged: a format whose loading leaves something to work out by
        running programs (a package's time limit) does it here, at the point a command needs it."""
        return problem

    def strategy_path(self, source: ProblemSource) -> Path | None:
        return None

    def time_limit_text(self, problem: Problem) -> str:
        """The time limit as `judge list` shows it."""
        return f"{problem.time_limit:g} s"

    def verify(self, problem: Problem, jobs: int | None) -> Iterable[Check | None]:
        """`judge test`'s checks of a problem of this format, each as soon as it is made (they are
        printed as they come; None: a check that does not apply)."""
        raise NotImplementedError

    def describe(self, problem: Problem) -> str:
        """What `judge show` prints: statement, limits and samples."""
        raise NotImplementedError

    def content_hash(self, problem: Problem) -> str:
        """A key of everything the expected results depend on: results recorded under another
        key are judged again (see judge/classroom/store.py)."""
        raise NotImplementedError

    # A submission may be a folder of files (as a package's submissions may), not only one file.
    # How a submission is built and scored is the problem's own (``Problem.rules``, attached as
    # the format loads it).
    accepts_directory_submissions = False

    def own_folder(self, problem: Problem, path: Path) -> bool:
        """Whether the folder at ``path`` is one of the problem's own programs (a package's example
        submission), whose links to the problem's files are followed; never a contestant's."""
        return False
