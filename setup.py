"""Packaging: everything is in pyproject.toml except one step. A regular (non-editable) install
carries the built-in problems inside the package, as ``judge/_builtin/`` (the repository keeps
them at the top level: ``cases/``, ``reference/``, ...). An editable install reads them from the
checkout itself."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

PROBLEM_FOLDERS = ("cases", "reference", "validators", "strategies", "solutions")


class BuildWithProblems(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        here = Path(__file__).resolve().parent
        target = Path(self.build_lib) / "judge" / "_builtin"
        for folder in PROBLEM_FOLDERS:
            for path in sorted((here / folder).rglob("*")):
                if path.is_file() and "__pycache__" not in path.parts:
                    destination = target / path.relative_to(here)
                    self.mkpath(str(destination.parent))
                    self.copy_file(str(path), str(destination), preserve_mode=False)


setup(cmdclass={"build_py": BuildWithProblems})
