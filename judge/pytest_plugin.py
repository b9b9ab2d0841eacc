"""pytest plugin: case suites as pytest tests.

    pytest cases/sokoban.yaml --solution my_solution.py
    pytest cases/ --solution sokoban=sok.py --solution stones=stones.c

Each case is one item, so -k, -x, --lf, -n (pytest-xdist) and --junitxml work as usual. A failing
item reports the verdict and the first difference, not a traceback of the judge. Without
--solution no YAML file is collected.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("judge", "judging solutions against case suites")
    group.addoption("--solution", action="append", default=[], metavar="[PROBLEM=]PATH",
                    help="judge this solution against the collected cases/<problem>.yaml suites "
                         "(PROBLEM=PATH for one problem; repeatable)")


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
    if file_path.suffix not in (".yaml", ".yml") or file_path.parent.name != "cases":
        return None
    solutions = _solutions(parent.config)
    solution = solutions.get(file_path.stem) or solutions.get(None)
    if solution is None:
        return None
    config = parent.config
    if not file_path.is_relative_to(config.rootpath):
        # A solution path given as a separate argument can pull pytest's rootdir away from the
        # suite; node ids are relative to the rootdir, so say how to get there from it.
        nodeid = os.path.relpath(file_path, config.rootpath)
        return SuiteFile.from_parent(parent, path=file_path, solution=solution, nodeid=nodeid)
    return SuiteFile.from_parent(parent, path=file_path, solution=solution)


class SuiteFile(pytest.File):
    """One case suite, judged against one solution; the program is prepared once."""

    def __init__(self, *, solution: Path, **kwargs) -> None:
        super().__init__(**kwargs)
        self.solution = solution
        self._prepared = None

    def collect(self):
        from judge.problem import SuiteError, load_suite

        try:
            self.problem = load_suite(self.path, root=self.path.parent.parent)
        except SuiteError as error:
            raise self.CollectError(str(error)) from None
        for case in self.problem.cases:
            yield CaseItem.from_parent(self, name=case.name, case=case)

    def prepared(self):
        """(language, program, limits, execute), or raises JudgeFailure (CE, usage) for every case.

        Python solutions run warm: one sandboxed server for the whole file, closed at the end.
        """
        if self._prepared is None:
            self._prepared = _prepare(self.problem, self.solution)
            if not isinstance(self._prepared, JudgeFailure):
                from judge.runner import executor
                language, program, limits = self._prepared
                runs = executor(language, program, self.problem.io, limits)
                self._prepared += (runs.__enter__(),)
                self.config.add_cleanup(lambda: runs.__exit__(None, None, None))
        if isinstance(self._prepared, JudgeFailure):
            raise self._prepared
        return self._prepared


def _prepare(problem, solution: Path):
    from judge.languages import CompileError, LanguageUnavailable, UnknownLanguage
    from judge.runner import UnsupportedSubmission, base_limits, prepare_submission

    if not solution.is_file():
        return JudgeFailure("usage", f"solution file {solution} does not exist")
    try:
        language, program = prepare_submission(problem, solution)
    except CompileError as error:
        from judge.runner import key_line
        return JudgeFailure("CE", key_line(str(error)) + "\n" + str(error))
    except LanguageUnavailable as error:
        return JudgeFailure("IE", str(error))
    except (UnknownLanguage, UnsupportedSubmission) as error:
        return JudgeFailure("usage", str(error))
    return language, program, language.limits(base_limits(problem))


class JudgeFailure(Exception):
    """A case that is not AC: its verdict and message are the whole report."""

    def __init__(self, verdict: str, message: str) -> None:
        super().__init__(f"{verdict}: {message}")
        self.verdict = verdict
        self.message = message


class CaseItem(pytest.Item):
    def __init__(self, *, case, **kwargs) -> None:
        super().__init__(**kwargs)
        self.case = case

    def runtest(self) -> None:
        from judge.runner import run_case

        language, program, limits, execute = self.parent.prepared()
        result = run_case(self.parent.problem, program, language, limits, self.case, execute)
        self.user_properties.append(("verdict", result.verdict))
        if result.verdict != "AC":
            raise JudgeFailure(result.verdict, result.message)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, JudgeFailure):
            failure = excinfo.value
            return f"{failure.verdict} on case {self.name}: {failure.message}"
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"{self.parent.problem.id}::{self.name}"
