"""Deadlines: which version of each student's work is graded, and how late it was.

A student's folder that is a git repository (as GitHub Classroom hands them in) is graded at its
last commit at or before the deadline (by committer date); later commits are listed as late. With
a late penalty, the last commit up to ``late_until`` is graded instead and its score reduced per
day (or part of a day) past the deadline. A folder without git is judged by its files'
modification times, and the report says so: a file changed after the deadline has no earlier
version to grade, so it is graded with the penalty, or not at all without one.

The versions graded are copied out of git (``git archive``) into a folder of their own, laid out
as `judge grade` reads a class, so the rest of grading never knows about git.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path

from judge.classroom.grading import EMPTY_FOLDER, ClassReport, Skipped, is_ignored, problem_of, rank_students
from judge.errors import UsageError
from judge.text.docs_links import see

DAY = 86400.0
GIT_TIMEOUT = 60
# Nothing of a student's repository configuration may run a command of theirs as the grader.
SAFE_GIT = ["git", "-c", "safe.directory=*", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null",
            "-c", "protocol.allow=never"]


@dataclass(frozen=True)
class Policy:
    deadline: float  # seconds since the epoch
    penalty_per_day: float = 0.0  # a fraction of the score, per day or part of a day late
    late_until: float | None = None  # no work after this counts, penalty or not
    versions: int | None = None  # git: of each file, only its first this many committed versions count

    @property
    def takes_late_work(self) -> bool:
        return self.penalty_per_day > 0


@dataclass
class Lateness:
    """What a student's graded work is and how late it came."""

    source: str  # "git" or "file times"
    version: str = ""  # the commit graded ("" for file times, or when none was early enough)
    committed: float | None = None  # its committer date
    days_late: int = 0
    penalty: float = 0.0  # the fraction of each score taken off
    late_commits: list[dict] = field(default_factory=list)  # {"commit", "committed"} after the deadline, not graded
    late_files: list[str] = field(default_factory=list)  # file times: the files changed after the deadline
    capped: dict[str, int] = field(default_factory=dict)  # git: file -> its versions, when over Policy.versions

    def describe(self) -> str:
        parts = []
        if self.source == "git":
            parts.append(f"graded commit {self.version[:10]}" if self.version else "no commit before the deadline")
        else:
            parts.append("judged by file times (no git repository)")
        if self.days_late:
            parts.append(f"{self.days_late} day(s) late, {self.penalty:.0%} off")
        if self.late_commits:
            parts.append(f"{len(self.late_commits)} later commit(s) not graded")
        parts += [f"{name}: {count} versions, graded at the last one allowed" for name, count in self.capped.items()]
        return "; ".join(parts)


def parse_time(text: str, option: str) -> float:
    """An ISO 8601 time (a date alone is the end of that day in UTC; no zone is UTC)."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise UsageError(f"{option} {text!r} is not a time: write it as 2026-12-01T23:59 or "
                         f"2026-12-01T23:59+01:00 {see('how-to/deadlines.md')}") from None
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        moment = moment.replace(hour=23, minute=59, second=59)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment.timestamp()


def parse_penalty(text: str) -> float:
    """``10%/day`` (or ``0.1/day``) as a fraction per day."""
    match = re.fullmatch(r"\s*([0-9.]+)\s*(%?)\s*(?:/\s*day)?\s*", text)
    try:
        value = float(match[1]) / (100 if match[2] else 1) if match else -1.0
    except ValueError:
        value = -1.0
    if not 0 < value <= 1:
        raise UsageError(f"--late-penalty {text!r} is not a share of the score per day: write 10%/day")
    return value


def snapshot_class(folder: Path, policy: Policy, into: Path) -> dict[str, Lateness]:
    """Copy into ``into`` the version of each student's work that ``policy`` grades, laid out
    as ``folder`` is; return how late each student's work is."""
    lateness = {}
    for student_dir in sorted(path for path in folder.iterdir() if not is_ignored(path)):
        target = into / student_dir.name
        if student_dir.is_symlink() or not student_dir.is_dir():
            # Left for grading's discovery to refuse with its reason.
            os.symlink(student_dir.absolute(), target) if student_dir.is_symlink() else shutil.copy2(student_dir, target)
            continue
        if (student_dir / ".git").exists():
            lateness[student_dir.name] = _snapshot_git(student_dir, policy, target)
        else:
            lateness[student_dir.name] = _snapshot_files(student_dir, policy, target)
    return lateness


def _snapshot_git(repository: Path, policy: Policy, target: Path) -> Lateness:
    if shutil.which("git") is None:
        raise UsageError(f"{repository} is a git repository, and git is not installed: install git "
                         f"(apt-get install git) to grade it against the deadline")
    commits = _commits(repository)
    late_limit = policy.late_until if policy.takes_late_work else policy.deadline
    if late_limit is None:
        late_limit = math.inf
    counted = [commit for commit in commits if commit[1] <= late_limit]
    graded = counted[0] if counted else None  # newest first
    target.mkdir()
    lateness = Lateness("git")
    if graded is not None:
        _extract(repository, graded[0], target)
        lateness.version, lateness.committed = graded
        if policy.versions is not None:
            lateness.capped = _cap_versions(repository, graded[0], target, policy.versions)
        lateness.days_late = _days_late(graded[1], policy.deadline)
        lateness.penalty = min(1.0, lateness.days_late * policy.penalty_per_day)
    lateness.late_commits = [{"commit": sha, "committed": _iso(when)} for sha, when in commits
                             if when > policy.deadline and (graded is None or (sha, when) != graded)]
    return lateness


def _cap_versions(repository: Path, sha: str, target: Path, allowed: int) -> dict[str, int]:
    """Put back, of each file of ``target`` committed more than ``allowed`` times up to ``sha``,
    its version at the last commit allowed; return those files with their number of versions."""
    capped = {}
    for path in sorted(target.iterdir()):
        if not path.is_file() or path.is_symlink():
            continue
        history = (_git(repository, "log", "--format=%H", sha, "--", path.name) or "").split()  # newest first
        if len(history) > allowed:
            content = _git_bytes(repository, "show", f"{history[-allowed]}:{path.name}")
            if content is not None:
                path.write_bytes(content)
                capped[path.name] = len(history)
    return capped


def _git_bytes(repository: Path, *args: str) -> bytes | None:
    try:
        done = subprocess.run([*SAFE_GIT, "-C", str(repository), *args], capture_output=True, timeout=GIT_TIMEOUT,
                              check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def _snapshot_files(student_dir: Path, policy: Policy, target: Path) -> Lateness:
    target.mkdir()
    lateness = Lateness("file times")
    newest = policy.deadline
    for path in sorted(student_dir.iterdir()):
        if is_ignored(path):
            continue
        changed = path.lstat().st_mtime
        late = changed > policy.deadline
        if late:
            lateness.late_files.append(path.name)
        if late and (not policy.takes_late_work or (policy.late_until is not None and changed > policy.late_until)):
            continue  # no earlier version of it to grade
        newest = max(newest, changed)
        _copy_entry(path, target / path.name)
    lateness.days_late = _days_late(newest, policy.deadline)
    lateness.penalty = min(1.0, lateness.days_late * policy.penalty_per_day)
    return lateness


def _copy_entry(path: Path, target: Path) -> None:
    """A student's file or folder as it is, links kept as links (grading refuses them)."""
    if path.is_symlink():
        os.symlink(os.readlink(path), target)
    elif path.is_dir():
        shutil.copytree(path, target, symlinks=True)
    else:
        shutil.copy2(path, target)


def _commits(repository: Path) -> list[tuple[str, float]]:
    """(sha, committer time) of every commit reachable from HEAD, newest first."""
    done = _git(repository, "log", "--format=%H %ct", "HEAD")
    if done is None:
        return []
    commits = []
    for line in done.splitlines():
        sha, _, when = line.partition(" ")
        if when.isdigit():
            commits.append((sha, float(when)))
    return sorted(commits, key=lambda commit: -commit[1])


def _extract(repository: Path, sha: str, target: Path) -> None:
    """The files of commit ``sha`` into ``target``; nothing is written outside it."""
    with tempfile.TemporaryFile() as archive:
        done = subprocess.run([*SAFE_GIT, "-C", str(repository), "archive", "--format=tar", sha],
                              stdout=archive, stderr=subprocess.PIPE, timeout=GIT_TIMEOUT, check=False)
        if done.returncode != 0:
            return
        archive.seek(0)
        with tarfile.open(fileobj=archive) as tar:
            tar.extractall(target, filter="data")


def _git(repository: Path, *args: str) -> str | None:
    try:
        done = subprocess.run([*SAFE_GIT, "-C", str(repository), *args], capture_output=True, text=True,
                              timeout=GIT_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def _days_late(moment: float, deadline: float) -> int:
    return max(0, math.ceil((moment - deadline) / DAY))


def _iso(moment: float) -> str:
    return datetime.fromtimestamp(moment, timezone.utc).isoformat(timespec="seconds")


def apply_lateness(report: ClassReport, lateness: dict[str, Lateness], policy: Policy) -> None:
    """Reduce late students' scores by their penalty, note how each one's work was chosen, and
    list work handed in too late to grade as not graded."""
    report.deadline = {"deadline": _iso(policy.deadline), "penalty_per_day": policy.penalty_per_day,
                       "late_until": _iso(policy.late_until) if policy.late_until else None}
    for student in report.students:
        late = lateness.get(student.student)
        if late is None:
            continue
        student.lateness = late
        if late.penalty:
            student.results = {problem: replace(result, score=round(result.score * (1 - late.penalty), 2))
                               for problem, result in student.results.items()}
        withheld = []
        if late.source == "git" and not late.version:
            withheld.append(Skipped(student.student, "no commit at or before the deadline", student.student,
                                    late=True))
        for name in late.late_files if not policy.takes_late_work else ():
            withheld.append(Skipped(f"{student.student}/{name}", "changed after the deadline (by its file "
                                    "time: no git repository), so not graded", student.student,
                                    problem_of(name, report.problems)[0], late=True))
        if withheld:  # their folder as graded is empty because of it: that is the reason to give
            report.skipped = [skip for skip in report.skipped
                              if (skip.path, skip.reason) != (student.student, EMPTY_FOLDER)]
            report.skipped += withheld
    report.students = rank_students(report.students)


