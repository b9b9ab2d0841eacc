"""Finding problems: by name in the problem folders, or by path.

Where problems are looked for, in this order (the first that applies decides):

1. ``--problems DIR`` on the command line: only the problems in DIR;
2. ``$JUDGE_PROBLEMS`` (one folder, or several separated by ``:``): only the problems there;
3. otherwise the working directory's problems, when it holds any, and then the built-in ones
   (a working-directory problem hides a built-in one of the same name).

A folder "holds" the problems any format finds in it: ``cases/<id>.yaml`` suites, or problem
package folders. A path to a problem (a suite file, a package folder) is always accepted where a
name is. ``$JUDGE_ROOT`` is the older name of ``$JUDGE_PROBLEMS``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from judge.errors import SuiteError
from judge.formats import ProblemSource, builtin_formats, plugin_formats
from judge.model.problem import Problem
from judge.sandbox.view import conceal
from judge.text.suggestions import listing, nearest

PROBLEMS_ENV = "JUDGE_PROBLEMS"
OLD_PROBLEMS_ENV = "JUDGE_ROOT"
BUILTIN_FOLDER = "_builtin"  # where a regular install keeps the built-in problems, inside the package


@dataclass(frozen=True)
class Catalog:
    """The problem folders in force, in order, and why each is used."""

    folders: tuple[tuple[Path, str], ...]

    def sources(self) -> dict[str, ProblemSource]:
        """Every problem by id; an earlier folder's problem hides a later one's of the same id."""
        found: dict[str, ProblemSource] = {}
        for folder, _why in self.folders:
            for source in sources_in(folder):
                found.setdefault(source.id, source)
        return dict(sorted(found.items()))

    def find(self, name: str) -> ProblemSource:
        """The problem called ``name``, or at the path ``name``; SuiteError saying where it looked."""
        path = Path(name)
        source = source_at(path) if path.exists() else None
        if source is not None:
            conceal(_root_of(path.resolve()))
            return source
        named = self.named(name)
        if named is not None:
            return named
        known = self.sources()
        if path.exists() and (os.sep in name or path.suffix):
            raise SuiteError(f"{name} is not a problem: expected a suite file (cases/<id>.yaml) or a "
                             f"problem package folder (with problem.yaml)")
        raise SuiteError(self.unknown(name, known))

    def named(self, name: str) -> ProblemSource | None:
        """The problem with id ``name``, as ``sources()`` would find it (the first folder's hides
        a later one's; within a folder the built-in formats come first), but looking through
        other packages' formats only in the folders before the one it is found in."""
        for folder, _why in self.folders:
            for group in (builtin_formats, plugin_formats):
                source = next((source for source in _sources_of(group(), folder) if source.id == name), None)
                if source is not None:
                    return source
        return None

    def unknown(self, name: str, known: dict[str, ProblemSource]) -> str:
        if not known:
            return f"unknown problem {name!r}: no problems found ({self.describe()})"
        meant = nearest(name, known)
        hint = f" (did you mean {meant!r}?)" if meant else ""
        return f"unknown problem {name!r}{hint}; known problems: {listing(known)} ({self.describe()})"

    def describe(self) -> str:
        return "looked in " + "; ".join(f"{folder} ({why})" for folder, why in self.folders) if self.folders \
            else "no problem folder: pass --problems DIR or set $JUDGE_PROBLEMS"

    def require_some(self) -> dict[str, ProblemSource]:
        """The problems, or SuiteError when there are none (never an empty, silent success)."""
        known = self.sources()
        if not known:
            raise SuiteError(f"no problems found ({self.describe()}); pass --problems DIR or set "
                             f"${PROBLEMS_ENV} to a folder with cases/<id>.yaml suites or problem packages")
        return known


def catalog(problems_dir: Path | None = None) -> Catalog:
    """The problem folders in force (see the module's docstring for the order); the sandbox
    keeps each out of every run's view, wherever it lies."""
    found = _folders(problems_dir)
    for folder, _why in found.folders:
        conceal(folder)
    return found


def _root_of(path: Path) -> Path:
    """The folder a problem given by path keeps its files in (a suite's is above cases/)."""
    if path.is_file():
        return path.parent.parent if path.parent.name == "cases" else path.parent
    return path


def _folders(problems_dir: Path | None) -> Catalog:
    if problems_dir is not None:
        if not problems_dir.is_dir():
            raise SuiteError(f"--problems {problems_dir}: not a folder")
        return Catalog(((problems_dir.resolve(), "--problems"),))
    configured = os.environ.get(PROBLEMS_ENV) or os.environ.get(OLD_PROBLEMS_ENV)
    if configured:
        variable = PROBLEMS_ENV if os.environ.get(PROBLEMS_ENV) else OLD_PROBLEMS_ENV
        folders = [Path(part).resolve() for part in configured.split(os.pathsep) if part]
        missing = [str(folder) for folder in folders if not folder.is_dir()]
        if missing:
            raise SuiteError(f"${variable} names {', '.join(missing)}, which is not a folder")
        return Catalog(tuple((folder, f"${variable}") for folder in folders))
    folders: list[tuple[Path, str]] = []
    here = Path.cwd().resolve()
    builtin = builtin_problems()
    if here != builtin and _holds_problems(here):
        folders.append((here, "the working directory"))
    if builtin is not None:
        folders.append((builtin, "built-in problems"))
    return Catalog(tuple(folders))


def builtin_problems() -> Path | None:
    """The built-in problems: inside the installed package, or the checkout it runs from."""
    package = Path(__file__).resolve().parents[1]  # judge/, the folder above formats/
    for folder in (package / BUILTIN_FOLDER, package.parent):
        if (folder / "cases").is_dir():
            return folder
    return None


def sources_in(folder: Path) -> list[ProblemSource]:
    """The problems of every format in ``folder``."""
    return list(_sources_of(builtin_formats() + plugin_formats(), folder))


def _sources_of(problem_formats, folder: Path):
    return (source for problem_format in problem_formats for source in problem_format.sources_in(folder))


def _holds_problems(folder: Path) -> bool:
    """Whether ``folder`` holds a problem of any format (other packages' asked only if need be)."""
    return any(next(_sources_of(group(), folder), None) for group in (builtin_formats, plugin_formats))


def source_at(path: Path) -> ProblemSource | None:
    """``path`` as a problem of some format, or None (other packages' formats asked only if need be)."""
    return next((source for group in (builtin_formats, plugin_formats) for problem_format in group()
                 if (source := problem_format.source_at(path))), None)


def find_problem(name: str, problems_dir: Path | None = None) -> ProblemSource:
    return catalog(problems_dir).find(name)


def load_problem(name: str, problems_dir: Path | None = None) -> Problem:
    """The problem called (or at) ``name``, loaded; SuiteError when there is none or it is broken."""
    return find_problem(name, problems_dir).load()


def known_problems(problems_dir: Path | None = None) -> list[str]:
    """The ids of every problem in force."""
    return list(catalog(problems_dir).sources())
