"""A problem found on disk (``ProblemSource``), and the defaults a problem format inherits
(``ProblemFormat``; the contract is ``judge.extension_points.ProblemFormat``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from judge.model.results import Check

if TYPE_CHECKING:
    from judge import extension_points
    from judge.model.problem import Problem


@dataclass(frozen=True)
class ProblemSource:
    """A problem found on disk but not read yet: cheap to list, loaded on demand."""

    id: str
    path: Path  # the file or folder the problem is (a suite file, a package folder)
    format: extension_points.ProblemFormat

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
    """The defaults the built-in formats inherit; what a format provides is declared by
    ``judge.extension_points.ProblemFormat``, whose docstrings say what each part does."""

    name = ""
    reports_broken_problems = True
    accepts_directory_submissions = False

    def sources_in(self, folder: Path) -> list[ProblemSource]:
        raise NotImplementedError

    def source_at(self, path: Path) -> ProblemSource | None:
        raise NotImplementedError

    def load(self, source: ProblemSource, time_limit: float | None = None, run_programs: bool = True) -> Problem:
        raise NotImplementedError

    def ready(self, problem: Problem) -> Problem:
        return problem  # nothing left to work out

    def strategy_path(self, source: ProblemSource) -> Path | None:
        return None

    def time_limit_text(self, problem: Problem) -> str:
        return f"{problem.time_limit:g} s"

    def verify(self, problem: Problem, jobs: int | None) -> Iterable[Check | None]:
        raise NotImplementedError

    def describe(self, problem: Problem) -> str:
        raise NotImplementedError

    def content_hash(self, problem: Problem) -> str:
        raise NotImplementedError

    def own_folder(self, problem: Problem, path: Path) -> bool:
        return False  # no folder is one of the problem's own programs
