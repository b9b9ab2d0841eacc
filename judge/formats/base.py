"""What a problem format provides: finding its problems in a folder, and loading one."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from judge.problem import Problem


@dataclass(frozen=True)
class ProblemSource:
    """A problem found on disk but not read yet: cheap to list, loaded on demand."""

    id: str
    path: Path  # the file or folder the problem is (a suite file, a package folder)
    format: ProblemFormat

    def load(self) -> Problem:
        """Read and check the whole problem; SuiteError naming the file and the fix."""
        return self.format.load(self)

    def strategy_path(self) -> Path | None:
        """The Hypothesis strategies for `judge stress`, found without loading the problem (so
        the example generator can start first)."""
        return self.format.strategy_path(self)


class ProblemFormat:
    """One way of writing problems down (the built-in YAML suites, ICPC packages, ...)."""

    name = ""

    def sources_in(self, folder: Path) -> list[ProblemSource]:
        """The problems of this format that ``folder`` holds (none: an empty list)."""
        raise NotImplementedError

    def source_at(self, path: Path) -> ProblemSource | None:
        """``path`` itself as a problem of this format, or None if it is not one."""
        raise NotImplementedError

    def load(self, source: ProblemSource) -> Problem:
        raise NotImplementedError

    def strategy_path(self, source: ProblemSource) -> Path | None:
        return None
