"""pytest plugin: case suites as pytest tests.

    pytest cases/sokoban.yaml --solution my_solution.py
    pytest cases/ --solution sokoban=sok.py --solution stones=stones.c
    pytest path/to/package/problem.yaml --solution solution.cpp   # an ICPC/Kattis problem package

Each case is one item, so -k, -x, --lf, -n (pytest-xdist) and --junitxml work as usual. A failing
item reports the verdict and the first difference, not a traceback of the judge. Without
--solution no YAML file is collected.

A suite file is prepared once, in its ``setup`` (compiling the solution, starting a warm pool),
and torn down after its last item; a compile error fails every case, with the compiler's message
shown once.

pytest loads this plugin (an entry point) in every session of an environment the judge is
installed in, whether a test uses it or not: the judge proper (its catalog, loaders, runner and
sandbox) is imported inside the hooks that judge something, never as the plugin loads. Only the
judge's vocabulary (errors, results, feedback) is imported here.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from judge.errors import JudgeError, SuiteError
from judge.model.feedback import StudentView, level_for
from judge.model.results import PrepareFailure
from judge.model.verdict import Verdict
from judge.text.suggestions import listing, nearest
from judge.text.visible_text import visible

SUITE_SUFFIXES = (".yaml", ".yml")
PACKAGE_FILE = "problem.yaml"  # a problem package is collected through this file of its folder
SUITES_SEEN = pytest.StashKey[set]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("judge", "judging solutions against case suites")
    group.addoption("--solution", action="append", default=[], metavar="[PROBLEM=]PATH",
                    help="judge this solution against the collected cases/<problem>.yaml suites "
                         "(PROBLEM=PATH for one problem; repeatable)")


def pytest_configure(config: pytest.Config) -> None:
    config.stash[SUITES_SEEN] = set()
    for problem, path in _solutions(config).items():
        if not path.is_file() and not path.is_dir():  # a folder: a problem package's submission
            given = f"{problem}={path}" if problem else str(path)
            raise pytest.UsageError(f"--solution {given}: no such file" if not path.exists()
                                    else f"--solution {given}: not a file; give the solution's source file")


def _solutions(config: pytest.Config) -> dict[str | None, Path]:
    """{problem id or None (any problem): solution path} from the --solution options."""
    chosen: dict[str | None, Path] = {}
    for value in config.getoption("solution") or []:
        problem, separator, path = value.partition("=")
        if separator and problem and "/" not in problem and not Path(value).exists():
            chosen[problem] = Path(path)
        else:
            chosen[None] = Path(value)
    return chosen


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    is_package = file_path.name == PACKAGE_FILE
    if not is_package and (file_path.suffix not in SUITE_SUFFIXES or file_path.parent.name != "cases"):
        return None
    solutions = _solutions(parent.config)
    if not solutions:
        return None
    problem_id = file_path.parent.name if is_package else file_path.stem
    parent.config.stash[SUITES_SEEN].add(problem_id)
    solution = solutions.get(problem_id) or solutions.get(None)
    if solution is None:
        if parent.session.isinitpath(file_path):  # named on the command line, yet no solution for it
            return UnmatchedSuite.from_parent(parent, path=file_path)
        return None
    config = parent.config
    if not file_path.is_relative_to(config.rootpath):
        # A solution path given as a separate argument can pull pytest's rootdir away from the
        # suite; node ids are relative to the rootdir, so say how to get there from it.
        nodeid = os.path.relpath(file_path, config.rootpath)
        return SuiteFile.from_parent(parent, path=file_path, solution=solution, nodeid=nodeid)
    return SuiteFile.from_parent(parent, path=file_path, solution=solution)


def pytest_collection_finish(session: pytest.Session) -> None:
    """--solution that judged nothing is a mistake: say which, and how to name the suite."""

    solutions = _solutions(session.config)
    if not solutions:
        return
    seen = session.config.stash[SUITES_SEEN]
    unmatched = [problem for problem in solutions if problem is not None and problem not in seen]
    if unmatched:
        problem = unmatched[0]
        meant = nearest(problem, sorted(seen))
        hint = f"did you mean {meant!r}? " if meant else ""
        found = listing(sorted(seen)) or "none"
        raise pytest.UsageError(f"--solution {problem}=... names problem {problem!r}, but no suite "
                                f"cases/{problem}.yaml was collected; {hint}(suites collected: {found}). "
                                f"{_where_suites_are(problem)}")
    if not seen:
        raise pytest.UsageError("--solution was given, but no case suite (cases/<problem>.yaml) was collected. "
                                + _where_suites_are(None))


def _where_suites_are(problem: str | None) -> str:
    # The judge proper, only once a test judges: see the module's docstring.
    from judge.formats.catalog import catalog

    try:
        sources = catalog().sources()
    except SuiteError:
        sources = {}
    suite = sources.get(problem or "stones") or next(iter(sources.values()), None)
    if suite is None:
        return "Name the suite file on the command line: pytest path/to/cases/<problem>.yaml --solution ..."
    return f"Name the suite file on the command line, e.g. pytest {suite.path} --solution ..."


class SuiteFile(pytest.File):
    """One case suite, judged against one solution."""

    def __init__(self, *, solution: Path, **kwargs) -> None:
        super().__init__(**kwargs)
        self.solution = solution
        self.prepared = None
        self.execute = None
        self._runs = None
        self.compile_message_shown = False

    def collect(self):
        # The judge proper, only once a test judges: see the module's docstring.
        from judge.formats.suite.format import load_suite

        try:
            if self.path.name == PACKAGE_FILE:  # the folder is the problem
                # The judge proper, only once a test judges: see the module's docstring.
                from judge.formats.icpc.loading import load_package
                from judge.formats.icpc.timelimit import with_time_limit
                self.problem = with_time_limit(load_package(self.path.parent))
            else:
                self.problem = load_suite(self.path)
        except SuiteError as error:
            raise self.CollectError(str(error)) from None
        for case in self.problem.cases:
            yield CaseItem.from_parent(self, name=case.name, case=case)

    def setup(self) -> None:
        """Build the solution once for the whole file (and start its warm pool)."""
        # The judge proper, only once a test judges: see the module's docstring.
        from judge.languages.base import own_file
        from judge.runner import executor, prepare

        try:
            self.prepared = prepare(self.problem, own_file(self.solution))
        except JudgeError as error:  # a language the problem cannot use: the same for every case
            raise pytest.UsageError(f"{self.solution}: {error}") from None
        if not isinstance(self.prepared, PrepareFailure):
            self._runs = executor(self.prepared.language, self.prepared.program, self.problem.io, self.prepared.limits,
                                  cold=not self.problem.task.runs_warm)
            self.execute = self._runs.__enter__()

    def teardown(self) -> None:
        if self._runs is not None:
            self._runs.__exit__(None, None, None)
            self._runs = None


class UnmatchedSuite(pytest.File):
    """A suite named on the command line that no --solution is for: one error saying so."""

    def collect(self):
        given = ", ".join(f"{problem}=..." for problem in _solutions(self.config) if problem)
        raise self.CollectError(f"no --solution for {self.path.stem} ({given} name other problems): pass "
                                f"--solution {self.path.stem}=PATH, or --solution PATH for every suite")


class JudgeFailure(Exception):
    """A case that is not AC: its verdict and message are the whole report (the message's
    control characters shown as escapes: it may quote the program's output)."""

    def __init__(self, verdict: str, message: str) -> None:
        self.verdict = verdict
        self.message = visible(message)
        super().__init__(f"{verdict}: {self.message}")


class CaseItem(pytest.Item):
    def __init__(self, *, case, **kwargs) -> None:
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        # The judge proper, only once a test judges: see the module's docstring.
        from judge.runner import run_case

        suite: SuiteFile = self.parent
        if isinstance(suite.prepared, PrepareFailure):
            raise JudgeFailure(suite.prepared.verdict, self._failure_message(suite))
        result = run_case(suite.problem, suite.prepared, self.case, suite.execute)
        self.user_properties.append(("verdict", str(result.verdict)))
        if result.verdict != Verdict.AC:
            result = StudentView(suite.problem, level_for(suite.problem.feedback, None)).case(result)
            notes = " - ".join(filter(None, [result.description, result.hint]))
            raise JudgeFailure(result.verdict, result.message + (f" (hint: {notes})" if notes else ""))

    def _failure_message(self, suite: SuiteFile) -> str:
        """The whole compiler message on the first case that fails for it; its key line after."""
        failure = suite.prepared
        if suite.compile_message_shown:
            return f"{failure.headline} (the full message is shown on the first case)"
        suite.compile_message_shown = True
        return failure.headline + "\n" + failure.message

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, JudgeFailure):
            failure = excinfo.value
            return f"{failure.verdict} on case {self.name}: {failure.message}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"{self.parent.problem.id}::{self.name}"
