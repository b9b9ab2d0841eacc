"""ICPC/Kattis problem packages: a folder with ``problem.yaml`` is a problem named by the folder
(read by ``judge.formats.icpc.package``).

Every command loads this format, to know a package when it sees one (``judge.formats.icpc`` alone): the
package machinery itself (``judge.formats.icpc``'s loader, verifier and the rest, some twenty modules)
is imported inside the methods, only for a problem that is a package.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from judge.formats.base import ProblemFormat, ProblemSource
from judge.formats.icpc import is_package_dir
from judge.model.problem import Problem


class PackageFormat(ProblemFormat):
    name = "icpc"
    reports_broken_problems = False  # problemtools stops at a broken package: so does judge test
    accepts_directory_submissions = True

    def sources_in(self, folder: Path) -> list[ProblemSource]:
        if not folder.is_dir() or is_package_dir(folder):
            return []
        # scandir: a file is told from a folder without a stat call (the working directory, where
        # problems are looked for first, may hold many files)
        with os.scandir(folder) as entries:
            folders = sorted(Path(entry.path) for entry in entries if entry.is_dir())
        return [ProblemSource(path.name, path, self) for path in folders if is_package_dir(path)]

    def source_at(self, path: Path) -> ProblemSource | None:
        return ProblemSource(path.resolve().name, path, self) if is_package_dir(path) else None

    def load(self, source: ProblemSource, time_limit: float | None = None, run_programs: bool = True) -> Problem:
        from judge.formats.icpc.loading import load_package  # package machinery: see the module's docstring

        return load_package(source.path, time_limit=time_limit, run_generators=run_programs)

    def ready(self, problem: Problem) -> Problem:
        from judge.formats.icpc.timelimit import with_time_limit  # package machinery: see the module's docstring

        return with_time_limit(problem)

    def time_limit_text(self, problem: Problem) -> str:
        from judge.formats.icpc.timelimit import time_limit_known  # package machinery: see the module's docstring

        return super().time_limit_text(problem) if time_limit_known(problem.package) else "inferred by judge test"

    def verify(self, problem: Problem, jobs: int | None) -> Iterable:
        from judge.formats.icpc.verify import verify_package  # package machinery: see the module's docstring

        return verify_package(problem, jobs)  # a broken package raises: exit 2

    def own_folder(self, problem: Problem, path: Path) -> bool:
        from judge.formats.icpc.expectations import example_submission  # package machinery: see the module's docstring

        return example_submission(problem.package, path)

    def describe(self, problem: Problem) -> str:
        from judge.formats.icpc.show import render_package  # package machinery: see the module's docstring

        return render_package(problem)

    def content_hash(self, problem: Problem) -> str:
        from judge.formats.icpc.package import package_hash  # package machinery: see the module's docstring

        return package_hash(problem.package.root, problem.time_limit)  # its data, validators and limit
