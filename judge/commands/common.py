"""What several commands share: exit statuses, argument types and options, reading a solution
file, opening the results store, a progress bar."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from judge.commands import EXIT_FAILED, EXIT_OK, EXIT_USAGE  # noqa: F401 (the commands import them from here)
from judge.errors import RefusedSubmission, UsageError
from judge.languages.base import own_file
from judge.languages.folder import read_folder
from judge.sandbox import WEAK_ENV, diagnose_refusal, isolation_fix, sandbox_tier, weakness
from judge.workers import usable_cores


def positive(kind: type, name: str):
    """An argparse type: a positive number of ``kind`` (int or float)."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {name}") from None
        if value <= 0 or value != value or value == float("inf"):
            raise argparse.ArgumentTypeError(f"must be a positive number, got {text}")
        return value
    return parse


positive_int = positive(int, "a whole number")
positive_float = positive(float, "a number")


# Wall time a submission's counterexample search may take (judge/authoring/explain.py): judge/authoring/stress.py's
# SEARCH_SECONDS, written out here so that starting `judge` does not load the search.
DEFAULT_EXPLAIN_SECONDS = 10.0
BUDGET_ENV = "JUDGE_EXPLAIN_SECONDS"  # another default for a machine or a CI job (0: no search)


def explain_budget() -> float:
    """$JUDGE_EXPLAIN_SECONDS, else DEFAULT_EXPLAIN_SECONDS: the seconds one submission's
    counterexample search may take; UsageError for a value that is not a number."""
    text = os.environ.get(BUDGET_ENV)
    if text is None:
        return DEFAULT_EXPLAIN_SECONDS
    try:
        seconds = float(text)
    except ValueError:
        raise UsageError(f"${BUDGET_ENV}={text!r} is not a number of seconds (0: no search)") from None
    if not seconds >= 0 or seconds == float("inf"):
        raise UsageError(f"${BUDGET_ENV}={text!r} must be 0 or a positive number of seconds")
    return seconds


def add_problems_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--problems", type=Path, metavar="DIR",
                        help="look for problems only in DIR (default: $JUDGE_PROBLEMS, else the working "
                             "directory's problems and the built-in ones)")


def add_jobs_option(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("-j", "--jobs", type=positive_int, default=usable_cores(),
                        help=f"{what} in parallel (default: the CPUs the judge may use; results are the same as -j 1)")


def add_cold_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cold", action="store_true", help="start every run afresh (no warm server)")


def add_language_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", help="language, when the file's extension does not say it")


def add_weak_sandbox_option(parser: argparse.ArgumentParser, doing: str) -> None:
    parser.add_argument("--allow-weak-sandbox", action="store_true",
                        help=f"{doing} even if the sandbox cannot hide this machine's files (reports say so)")


def require_isolation(allowed: bool, doing: str) -> None:
    """Refuse to judge other people's code where it could read this machine's files (the suites'
    hidden cases included), unless the grader said so (--allow-weak-sandbox or
    $JUDGE_ALLOW_WEAK_SANDBOX=1)."""
    problem = weakness(sandbox_tier())
    if problem and not (allowed or os.environ.get(WEAK_ENV) == "1"):
        refusal = diagnose_refusal()
        why = f"; {refusal.reason}" if refusal else ""
        raise UsageError(f"refusing {doing}: {problem}, so a submission could read the hidden cases and other "
                         f"submissions{why}. Fix: {isolation_fix()}; or pass --allow-weak-sandbox to go on "
                         "anyway (every report will say so)")


def warn_if_weak() -> None:
    """One line on stderr when one's own code runs without file-system isolation."""
    problem = weakness(sandbox_tier())
    if problem:
        print(f"judge: warning: {problem}", file=sys.stderr)


def readable_source(path_text: str, directory_allowed: bool = False, own: bool = True,
                    follow_file_links: bool = False) -> Path:
    """The solution file (or, when ``directory_allowed``, a directory of files: a problem
    package's submission), or a UsageError saying why it cannot be used. One's ``own`` file may
    be a symbolic link (it is resolved here, once); someone else's (a student's) may not.
    ``follow_file_links``: the folder is a package's own example submission (see read_folder)."""
    path = Path(path_text)
    if path.is_symlink() and not own:
        raise UsageError(f"{path_text} is a symbolic link; a student's submission must be a regular file "
                         f"(a link could make the judge read any file of this machine)")
    if not path.exists():
        raise UsageError(f"solution file {path_text} does not exist")
    if directory_allowed and path.is_dir():
        _check_folder(path, follow_file_links)
        return path
    if not path.is_file():
        raise UsageError(f"{path_text} is not a file; give the solution's source file")
    try:
        with open(path, "rb"):
            pass
    except OSError as error:
        raise UsageError(f"cannot read {path_text}: {error.strerror}") from None
    return own_file(path)


def _check_folder(path: Path, follow_file_links: bool = False) -> None:
    """Refuse a folder submission the judge will not read (a symbolic link or special file in it,
    over its caps) before anything runs."""
    try:
        read_folder(path, follow_file_links)
    except RefusedSubmission as error:
        raise UsageError(f"not graded: {error}") from None


def open_store(path: Path | None):
    """The results store at ``path`` (default .judge/results.db), saying so when it is new."""
    from judge.classroom.store import DEFAULT_DB, Store  # deferred: sqlite3, for the commands that record

    chosen = path or DEFAULT_DB
    if not chosen.exists():
        print(f"judge: recording results in a new store {chosen} (choose another with --db)", file=sys.stderr)
    return Store(chosen)


class Progress:
    """A tqdm bar on stderr, made once the number of items is known."""

    def __init__(self, unit: str) -> None:
        self.unit = unit
        self.bar = None

    def start(self, total: int) -> None:
        from tqdm import tqdm  # only when a bar is shown: every command imports this module

        self.bar = tqdm(total=total, unit=self.unit, file=sys.stderr, leave=False)

    def advance(self, _item=None) -> None:
        if self.bar is not None:
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def progress_bar(wanted: bool, unit: str) -> Progress | None:
    """A bar only for people: not when output is piped or machine-readable."""
    return Progress(unit) if wanted and sys.stderr.isatty() and sys.stdout.isatty() else None
