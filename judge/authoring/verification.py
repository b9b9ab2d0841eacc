"""`judge test`: verify problems the way problem setters expect. Each problem's format says what
its checks are (``ProblemFormat.verify``: judge/formats/suite/checks.py for a suite,
judge/formats/icpc/verify.py for a package); a problem that does not load is a failed check, or an
error where its format says so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from judge.errors import SuiteError
from judge.formats.catalog import catalog
from judge.model.results import NOT_CHECKED, NOT_JUDGED, Check
from judge.text.visible_text import visible


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
    status = check.not_made or ("ok" if check.ok else "FAIL")
    return "  ".join([visible(check.problem), visible(check.what), status, visible(check.detail)]).rstrip()


def checks_summary(checks: list[Check]) -> str:
    """``N passed, N failed``, then the checks not made, counted apart with their reasons:
    ``14 passed, 0 failed, 1 not judged: no Kotlin toolchain``."""
    passed = sum(check.passed for check in checks)
    failed = sum(not check.ok for check in checks)
    parts = [f"{passed} passed, {failed} failed"]
    for word in (NOT_CHECKED, NOT_JUDGED):
        unmade = [check for check in checks if check.not_made == word]
        if unmade:
            reasons = list(dict.fromkeys(short_reason(check.detail) for check in unmade))
            shown = "; ".join(reasons[:SUMMARY_REASONS]) + ("; ..." if len(reasons) > SUMMARY_REASONS else "")
            parts.append(f"{len(unmade)} {word}: {visible(shown)}")
    return ", ".join(parts)


SUMMARY_REASONS = 3  # distinct reasons a summary line quotes; the lines above it give them all


def short_reason(detail: str) -> str:
    """The part of a check's detail a summary quotes: without the parenthesis that ends it, up
    to its first ``;``."""
    return _without_last_parenthesis(detail).split(";", 1)[0].strip()


def _without_last_parenthesis(text: str) -> str:
    if not text.endswith(")"):
        return text
    depth = 0
    for index in range(len(text) - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(text[index], 0)
        if depth == 0:
            return text[:index].rstrip()
    return text


def not_made(checks: list[Check]) -> list[Check]:
    """The checks that could not be made (``--strict`` fails on them)."""
    return [check for check in checks if check.not_made]
