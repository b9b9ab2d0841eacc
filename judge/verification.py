"""`judge test`: verify problems the way problem setters expect. Each problem's format says what
its checks are (``ProblemFormat.verify``: judge/formats/suite_checks.py for a suite,
judge/icpc/verify.py for a package); a problem that does not load is a failed check, or an
error where its format says so."""

from __future__ import annotations

from pathlib import Path

from judge.catalog import catalog
from judge.errors import SuiteError
from judge.formats.base import Check
from judge.visible_text import visible


def verify_problems(names: list[str] | None = None, jobs: int | None = None,
                    problems_dir: Path | None = None) -> list[Check]:
    """All checks for the named problems (default: every problem in force; SuiteError when there
    is none, so that a run that tests nothing never passes)."""
    found = catalog(problems_dir)
    sources = [found.find(name) for name in names] if names else list(found.require_some().values())
    checks: list[Check] = []
    for source in sources:
        try:
            problem = source.load()
        except SuiteError as error:
            if not source.format.reports_broken_problems:
                raise  # a format whose broken problem is an error naming the file: exit 2
            checks.append(Check(source.id, "loads", False, str(error)))
            continue
        checks += source.format.verify(problem, jobs)
    return [check for check in checks if check is not None]


def render_checks(checks: list[Check]) -> str:
    """The checks as a table; details are never cut (they are what a problem setter reads)."""
    from tabulate import tabulate

    # A detail quotes validators and example submissions: their control characters are shown, not obeyed.
    rows = [[visible(check.problem), visible(check.what), "ok" if check.ok else "FAIL", visible(check.detail)]
            for check in checks]
    failed = sum(not check.ok for check in checks)
    table = tabulate(rows, headers=["problem", "check", "result", "detail"], disable_numparse=True)
    return f"{table}\n\n{len(checks) - failed} passed, {failed} failed"
