"""The results store: SQLite, one row per submission and one per case result, each case
committed as soon as it is judged, so an interrupted run loses nothing it had recorded.

A submission is identified by (student, problem, source hash, suite hash, judge version): the
same source judged against the same suite by the same judge gives the same results, so a
complete submission is never judged again, and an incomplete one resumes where it stopped.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

from judge import __version__
from judge.classroom.sqlite_file import SQLiteFile
from judge.errors import StoreError
from judge.formats import format_of
from judge.languages.content_hash import source_hash
from judge.model.problem import Problem
from judge.model.results import CaseResult

DEFAULT_DB = Path(".judge") / "results.db"
SCHEMA_VERSION = 3  # PRAGMA user_version of the stores this judge writes; raise it when SCHEMA changes
TABLES = {"submissions", "case_results", "explanations"}
SCHEMA = """
CREATE TABLE IF NOT EXISTS submissions (
    id INTEGER PRIMARY KEY,
    student TEXT NOT NULL,
    problem TEXT NOT NULL,
    path TEXT NOT NULL,
    language TEXT NOT NULL,
    source_hash TEXT NOT NULL,
    suite_hash TEXT NOT NULL,
    judge_version TEXT NOT NULL,
    submitted_at REAL NOT NULL,
    complete INTEGER NOT NULL DEFAULT 0,
    verdict TEXT,
    score REAL,
    max_score REAL,
    compile_message TEXT NOT NULL DEFAULT '',
    UNIQUE (student, problem, source_hash, suite_hash, judge_version)
);
CREATE TABLE IF NOT EXISTS case_results (
    submission_id INTEGER NOT NULL REFERENCES submissions (id),
    position INTEGER NOT NULL,
    case_name TEXT NOT NULL,
    case_group TEXT NOT NULL,
    verdict TEXT NOT NULL,
    cpu_time REAL NOT NULL,
    wall_time REAL NOT NULL,
    memory_kb INTEGER NOT NULL,
    message TEXT NOT NULL,
    visibility TEXT NOT NULL,
    output_excerpt TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (submission_id, case_name)
);
CREATE TABLE IF NOT EXISTS explanations (
    submission_id INTEGER PRIMARY KEY REFERENCES submissions (id),
    record TEXT NOT NULL
);
"""
# What each schema version added to the one before, for a store an older judge wrote.
MIGRATIONS = {
    2: "ALTER TABLE case_results ADD COLUMN output_excerpt TEXT NOT NULL DEFAULT ''",  # a sample's output, for reports
    # A hidden failure's counterexample search (judge/authoring/explain.py), so a re-rendered report has it.
    3: "CREATE TABLE IF NOT EXISTS explanations (submission_id INTEGER PRIMARY KEY REFERENCES submissions (id), "
       "record TEXT NOT NULL)",
}


def suite_hash(problem: Problem) -> str:
    """What the expected results depend on, as the problem's format says (the suite and its
    reference solver; a package's data, validators and time limit)."""
    return format_of(problem).content_hash(problem)


class Store(SQLiteFile):
    """Thread-safe access to one results database. Several judges may write one store at once
    (write-ahead log, writes wait up to BUSY_TIMEOUT for each other); every failure to use it is
    a StoreError naming the file and what to do."""

    kind = "the results database"

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        super().__init__(path)
        try:
            _check_is_ours(self.db, path)  # reads only: a file that is not ours is left exactly as it was
            with self._using():
                self.db.execute("PRAGMA journal_mode=WAL")
                self.db.execute("PRAGMA synchronous=NORMAL")
                with self.db:
                    _migrate(self.db)
                    self.db.executescript(SCHEMA)
                    self.db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except BaseException:
            self.db.close()
            raise

    def submission(self, student: str, problem: Problem, source: Path, language: str,
                   submitted_at: float | None = None, follow_file_links: bool = False) -> tuple[int, bool]:
        """The id of this submission's row (made if new) and whether its results are complete.

        ``submitted_at`` defaults to the file's modification time: when a student handed it in.
        ``follow_file_links``: the source is a package's own folder (see read_folder).
        """
        key = (student, problem.id, source_hash(source, follow_file_links), suite_hash(problem), __version__)
        with self._using(), self.db:
            # Insert-if-absent, then read, in one write transaction: another judge claiming the
            # same submission at the same moment gets the same row, never a second one.
            self.db.execute(
                "INSERT OR IGNORE INTO submissions (student, problem, path, language, source_hash, suite_hash, "
                "judge_version, submitted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (student, problem.id, str(source), language, *key[2:], submitted_at or _submitted_at(source)))
            row = self.db.execute(
                "SELECT id, complete FROM submissions WHERE student=? AND problem=? AND source_hash=? "
                "AND suite_hash=? AND judge_version=?", key).fetchone()
            return row[0], bool(row[1])

    def record_case(self, submission_id: int, position: int, result: CaseResult) -> None:
        with self._using(), self.db:
            self.db.execute(
                "INSERT OR REPLACE INTO case_results (submission_id, position, case_name, case_group, verdict, "
                "cpu_time, wall_time, memory_kb, message, visibility, output_excerpt) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (submission_id, position, result.name, result.group, result.verdict, result.cpu_time,
                 result.wall_time, result.memory_kb, result.message, result.visibility, result.output_excerpt))

    def recorded_cases(self, submission_id: int) -> list[CaseResult]:
        with self._using():
            rows = self.db.execute(
                "SELECT case_name, case_group, verdict, cpu_time, wall_time, memory_kb, message, visibility, "
                "output_excerpt FROM case_results WHERE submission_id=? ORDER BY position", (submission_id,)).fetchall()
        return [CaseResult(name=row[0], group=row[1], verdict=row[2], cpu_time=row[3], wall_time=row[4],
                           memory_kb=row[5], message=row[6], visibility=row[7], output_excerpt=row[8]) for row in rows]

    def compile_message(self, submission_id: int) -> str:
        with self._using():
            row = self.db.execute("SELECT compile_message FROM submissions WHERE id=?", (submission_id,)).fetchone()
        return row[0] if row else ""

    def complete(self, submission_id: int, verdict: str, score: float, max_score: float,
                 compile_message: str) -> None:
        with self._using(), self.db:
            self.db.execute("UPDATE submissions SET complete=1, verdict=?, score=?, max_score=?, "
                            "compile_message=? WHERE id=?", (verdict, score, max_score, compile_message,
                                                              submission_id))

    def record_explanation(self, submission_id: int, record: dict) -> None:
        """Keep what the counterexample search for a submission's hidden failures found (or why
        it found nothing): JSON, as judge/authoring/explain.py's ``Explanation.to_record`` gives it."""
        with self._using(), self.db:
            self.db.execute("INSERT OR REPLACE INTO explanations (submission_id, record) VALUES (?, ?)",
                            (submission_id, json.dumps(record, ensure_ascii=False)))

    def explanation(self, submission_id: int) -> dict | None:
        """What ``record_explanation`` kept for the submission, or None."""
        with self._using():
            row = self.db.execute("SELECT record FROM explanations WHERE submission_id=?", (submission_id,)).fetchone()
        return json.loads(row[0]) if row else None

    def earlier_result(self, student: str, problem_id: str, source: str, suite: str) -> dict | None:
        """The latest complete result of the same file (``source``: its hash) for the same
        student and problem, judged against another version of the problem (``suite``: the
        version now) or by another judge version; None if there is none."""
        with self._using():
            row = self.db.execute(
                "SELECT verdict, score, max_score FROM submissions WHERE student=? AND problem=? AND source_hash=? "
                "AND complete=1 AND NOT (suite_hash=? AND judge_version=?) ORDER BY id DESC LIMIT 1",
                (student, problem_id, source, suite, __version__)).fetchone()
        return dict(zip(("verdict", "score", "max_score"), row)) if row else None

    def is_complete(self, student: str, problem_id: str, source: str, suite: str) -> bool:
        """Whether this file was judged to the end against this version of the problem by this judge."""
        with self._using():
            row = self.db.execute(
                "SELECT complete FROM submissions WHERE student=? AND problem=? AND source_hash=? AND suite_hash=? "
                "AND judge_version=?", (student, problem_id, source, suite, __version__)).fetchone()
        return bool(row and row[0])

    def copy_to(self, path: Path) -> None:
        """A consistent copy of the whole store at ``path`` (SQLite's backup, safe while others write)."""
        with self._using():
            target = sqlite3.connect(path)
            try:
                self.db.backup(target)
            finally:
                target.close()

    def history(self) -> list[dict]:
        """Every complete submission, oldest first: the input of the scoreboards."""
        with self._using():
            return _history(self.db)


# A submission recorded but not complete is being judged, unless the same file has a complete result
# (judged again after the problem or the judge changed): then its unfinished row is a leftover.
JUDGING = ("complete=0 AND NOT EXISTS (SELECT 1 FROM submissions AS done WHERE done.complete=1 AND "
           "done.student=submissions.student AND done.problem=submissions.problem AND "
           "done.source_hash=submissions.source_hash)")


def _history(db: sqlite3.Connection, judging: bool = False) -> list[dict]:
    """The complete submissions, oldest first; with ``judging``, also those being judged (their
    verdict, score and max_score None), read in the same query so that none is counted twice."""
    where = f"complete=1 OR ({JUDGING})" if judging else "complete=1"
    rows = db.execute("SELECT student, problem, CASE WHEN complete=1 THEN verdict END, score, max_score, "
                      f"submitted_at FROM submissions WHERE {where} ORDER BY submitted_at, id").fetchall()
    keys = ("student", "problem", "verdict", "score", "max_score", "submitted_at")
    return [dict(zip(keys, row)) for row in rows]


def _migrate(db: sqlite3.Connection) -> None:
    """Bring a store an older judge wrote up to SCHEMA_VERSION (a new, empty one needs nothing)."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if not db.execute("SELECT 1 FROM sqlite_master WHERE name='case_results'").fetchone():
        return
    for step in range(max(version, 1) + 1, SCHEMA_VERSION + 1):
        db.execute(MIGRATIONS[step])


def _check_is_ours(db: sqlite3.Connection, path: Path) -> None:
    """StoreError unless ``db`` is a results store this judge can read (or a new, empty file)."""
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    except sqlite3.DatabaseError as error:
        raise StoreError(f"{path} is not a usable results database ({error}); move it away or pass "
                         f"another --db") from None
    if version > SCHEMA_VERSION:
        raise StoreError(f"{path} was written by a newer judge (store version {version}; this judge "
                         f"reads up to {SCHEMA_VERSION}); upgrade the judge, or pass another --db")
    if tables and not tables & TABLES:
        raise StoreError(f"{path} is not a usable results database (an SQLite database of something else: "
                         f"{', '.join(sorted(tables))}); pass another --db")


def read_history(path: Path, judging: bool = False) -> list[dict]:
    """``Store.history`` of the database at ``path``, opened read-only (it never writes, so it
    can watch a store that a running `judge grade` fills); [] while it has no results yet. With
    ``judging``, the submissions being judged too, with verdict None (what a scoreboard shows as
    pending)."""
    try:
        db = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=5)
    except sqlite3.Error as error:
        raise StoreError(f"cannot open {path} read-only ({error}); check the path and its permissions") from None
    try:
        _check_is_ours(db, path)
        return _history(db, judging)
    except sqlite3.OperationalError as error:
        if "no such table" in str(error):  # created, not yet set up by the judge writing it
            return []
        raise StoreError(f"cannot read {path} ({error})") from None
    except sqlite3.DatabaseError as error:
        raise StoreError(f"{path} is not a usable results database ({error}); pass another --db") from None
    finally:
        db.close()


def _submitted_at(source: Path) -> float:
    """When the student submitted: the file's modification time (else now)."""
    try:
        return source.stat().st_mtime
    except OSError:
        return time.time()


def record_run(store: Store, student: str, problem: Problem, source: Path, result,
               follow_file_links: bool = False, submitted_at: float | None = None) -> None:
    """Record a complete `judge run` so that it counts in the scoreboards' history, as submitted
    at ``submitted_at`` (default now). ``follow_file_links``: the source is a package's own folder
    (see read_folder)."""
    submission_id, complete = store.submission(student, problem, source, result.language,
                                               submitted_at or time.time(), follow_file_links)
    if complete:
        return
    positions = {case.name: index for index, case in enumerate(problem.cases)}
    for case in result.cases:
        store.record_case(submission_id, positions[case.name], case)
    store.complete(submission_id, result.verdict, result.score, result.max_score, result.compile_message)
