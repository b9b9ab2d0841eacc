"""`judge test`: verify problems the way problem setters expect. Each problem's format says what
its checks are (``ProblemFormat.verify``: judge/formats/suite_checks.py for a suite,
judge/icpc/verify.py for a package); a problem that does not load is a failed check, or an
error where its format says so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from judge.catalog import catalog
from judge.errors import SuiteError
from judge.results import Check
from judge.visible_text import visible


def verify_problems(names: list[str] | None = None, jobs: int | None = None,
                    problems_dir: Path | None = None) -> list[Check]:
    """All checks for the named problems (see ``checks_of``)."""
    return list(checks_of(names, jobs, problems_dir))


def checks_of(names: list[str] | None = None, jobs: int | None = None,
              problems_dir: Path | None = None, time_limit: float | None = None) -> Iterator[Check]:
    """The checks for the named problems (default: every problem in force; SuiteError when there
    is none, so that a run that tests nothing never passes), each as soon as it is made;
    ``time_limit`` (CPU seconds) replaces each problem's own."""
    found = catalog(problems_dir)
    sources = [found.find(name) for name in names] if names else list(found.require_some().values())
    for source in sources:
        try:
            problem = source.load(time_limit)
        except SuiteError as error:
            if not source.format.reports_broken_problems:
                raise  # a format whose broken problem is an error naming the file: exit 2
            yield Check(source.id, "loads", False, str(error))
            continue
        yield from (check for check in source.format.verify(problem, jobs) if check is not None)


def check_line(check: Check) -> str:
    """One check on a line of its own, as `judge test` prints it when it is made; the detail is
    never cut (it is what a problem setter reads)."""
    # A detail quotes validators and example submissions: their control characters are shown, not obeyed.
    # The columns of the table it used to be (problem, check, result, detail), for scripts that read them.
    return "  ".join([visible(check.problem), visible(check.what), "ok" if check.ok else "FAIL",
                      visible(check.detail)]).rstrip()


def checks_summary(checks: list[Check]) -> str:
    failed = sum(not check.ok for check in checks)
    return f"{len(checks) - failed} passed, {failed} failed"
