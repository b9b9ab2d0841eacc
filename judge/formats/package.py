"""ICPC/Kattis problem packages: a folder with ``problem.yaml`` is a problem named by the folder
(read by ``judge.icpc.package``)."""

from __future__ import annotations

from pathlib import Path

from judge.formats.base import ProblemFormat, ProblemSource
from judge.problem import Problem


class PackageFormat(ProblemFormat):
    name = "icpc"

    def sources_in(self, folder: Path) -> list[ProblemSource]:
        from judge.icpc import is_package_dir

        if not folder.is_dir() or is_package_dir(folder):
            return []
        return [ProblemSource(path.name, path, self) for path in sorted(folder.iterdir()) if is_package_dir(path)]

    def source_at(self, path: Path) -> ProblemSource | None:
        from judge.icpc import is_package_dir

        return ProblemSource(path.resolve().name, path, self) if is_package_dir(path) else None

    def load(self, source: ProblemSource) -> Problem:
        from judge.icpc.package import load_package

        return load_package(source.path)
