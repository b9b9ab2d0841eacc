"""The course server's tables, in the results store's SQLite file beside the judge's own, and all
of the server's SQL: nothing else in the server names a table. A store for several server
processes (PostgreSQL) would be another class with these methods.

Every upload is committed before the server answers it; its state goes ``queued`` -> ``judging``
-> ``done``. A server that restarts puts what was ``judging`` back in the queue (its rows
forgotten, to be judged again from the start), so nothing accepted is lost and nothing is judged
twice into the same record."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

from judge.classroom.sqlite_file import SQLiteFile
from judge.errors import StoreError

QUEUED, JUDGING, DONE = "queued", "judging", "done"
SCHEMA = """
CREATE TABLE IF NOT EXISTS course_tokens (
    token_hash TEXT PRIMARY KEY,
    student TEXT NOT NULL,
    role TEXT NOT NULL,
    issued_at REAL NOT NULL,
    revoked INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS course_uploads (
    id INTEGER PRIMARY KEY,
    student TEXT NOT NULL,
    problem TEXT NOT NULL,
    file_name TEXT NOT NULL,
    source BLOB NOT NULL,
    submitted_at REAL NOT NULL,
    feedback TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued',
    verdict TEXT,
    score REAL,
    max_score REAL,
    exit_status INTEGER
);
CREATE INDEX IF NOT EXISTS course_uploads_by_student ON course_uploads (student, problem);
CREATE TABLE IF NOT EXISTS course_lines (
    upload_id INTEGER NOT NULL REFERENCES course_uploads (id),
    seq INTEGER NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (upload_id, seq)
);
CREATE TABLE IF NOT EXISTS course_cases (
    upload_id INTEGER NOT NULL REFERENCES course_uploads (id),
    position INTEGER NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (upload_id, position)
);
"""
UPLOAD_FIELDS = ("id", "student", "problem", "file_name", "submitted_at", "feedback", "state", "verdict",
                 "score", "max_score", "exit_status")


@dataclass(frozen=True)
class Upload:
    id: int
    student: str
    problem: str
    file_name: str
    submitted_at: float
    feedback: str
    state: str
    verdict: str | None
    score: float | None
    max_score: float | None
    exit_status: int | None

    def to_json(self) -> dict:
        return {field: getattr(self, field) for field in UPLOAD_FIELDS}


def _owner_only(path: Path) -> None:
    """The store readable and writable by its owner only: it holds every case of every submission,
    hidden ones too. SQLite gives the log files it makes later the database's own mode."""
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        try:
            file.chmod(0o600)
        except FileNotFoundError:
            pass
        except OSError as error:
            raise StoreError(f"cannot make {file} readable by its owner only ({error}); "
                             f"pass a --db of your own") from None


class CourseStore(SQLiteFile):
    """The server's tables in the SQLite file ``path`` (write-ahead log: the judging threads write
    while the HTTP side reads); thread-safe."""

    kind = "the course's store"

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        with self._using():
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")  # an upload answered is on the disk
            with self.db:
                self.db.executescript(SCHEMA)
        _owner_only(path)

    # Tokens (judge/course_server/tokens.py hashes them; only hashes are stored).

    def add_token(self, token_hash: str, student: str, role: str) -> None:
        with self._using(), self.db:
            self.db.execute("INSERT INTO course_tokens (token_hash, student, role, issued_at) VALUES (?, ?, ?, ?)",
                            (token_hash, student, role, time.time()))

    def revoke_tokens(self, student: str) -> int:
        """Revoke every token of ``student``; how many were in force."""
        with self._using(), self.db:
            return self.db.execute("UPDATE course_tokens SET revoked=1 WHERE student=? AND revoked=0",
                                   (student,)).rowcount

    def roles(self, student: str) -> set[str]:
        """The roles ``student``'s tokens were issued for, revoked or not."""
        with self._using():
            return {row[0] for row in self.db.execute("SELECT DISTINCT role FROM course_tokens WHERE student=?",
                                                      (student,))}

    def tokens_in_force(self) -> list[tuple[str, str, str]]:
        """(token hash, student, role) of every token not revoked."""
        with self._using():
            return self.db.execute("SELECT token_hash, student, role FROM course_tokens WHERE revoked=0").fetchall()

    # Uploads.

    def add_upload(self, student: str, problem: str, file_name: str, source: bytes, feedback: str) -> int:
        """Record an upload, committed before this returns; its id."""
        with self._using(), self.db:
            return self.db.execute(
                "INSERT INTO course_uploads (student, problem, file_name, source, submitted_at, feedback) "
                "VALUES (?, ?, ?, ?, ?, ?)", (student, problem, file_name, source, time.time(), feedback)).lastrowid

    def count_uploads(self, student: str, problem: str) -> int:
        with self._using():
            return self.db.execute("SELECT COUNT(*) FROM course_uploads WHERE student=? AND problem=?",
                                   (student, problem)).fetchone()[0]

    def last_upload_time(self, student: str) -> float | None:
        with self._using():
            return self.db.execute("SELECT MAX(submitted_at) FROM course_uploads WHERE student=?",
                                   (student,)).fetchone()[0]

    def upload(self, upload_id: int) -> Upload | None:
        with self._using():
            row = self.db.execute(f"SELECT {', '.join(UPLOAD_FIELDS)} FROM course_uploads WHERE id=?",
                                  (upload_id,)).fetchone()
        return Upload(*row) if row else None

    def uploads(self, student: str | None = None) -> list[Upload]:
        """Every upload (of ``student``), oldest first."""
        where, values = ("WHERE student=?", (student,)) if student is not None else ("", ())
        with self._using():
            rows = self.db.execute(f"SELECT {', '.join(UPLOAD_FIELDS)} FROM course_uploads {where} ORDER BY id",
                                   values).fetchall()
        return [Upload(*row) for row in rows]

    def source(self, upload_id: int) -> bytes:
        with self._using():
            return self.db.execute("SELECT source FROM course_uploads WHERE id=?", (upload_id,)).fetchone()[0]

    def requeue_interrupted(self) -> list[Upload]:
        """After a restart: what was being judged goes back to the queue, its rows and cases
        forgotten; every upload to judge, oldest first."""
        with self._using(), self.db:
            interrupted = [row[0] for row in self.db.execute("SELECT id FROM course_uploads WHERE state=?", (JUDGING,))]
            for upload_id in interrupted:
                self.db.execute("DELETE FROM course_lines WHERE upload_id=?", (upload_id,))
                self.db.execute("DELETE FROM course_cases WHERE upload_id=?", (upload_id,))
            self.db.execute("UPDATE course_uploads SET state=? WHERE state=?", (QUEUED, JUDGING))
        return [upload for upload in self.uploads() if upload.state == QUEUED]

    def start_judging(self, upload_id: int) -> None:
        with self._using(), self.db:
            self.db.execute("UPDATE course_uploads SET state=? WHERE id=?", (JUDGING, upload_id))

    def finish(self, upload_id: int, verdict: str, score: float, max_score: float, exit_status: int) -> None:
        with self._using(), self.db:
            self.db.execute("UPDATE course_uploads SET state=?, verdict=?, score=?, max_score=?, exit_status=? "
                            "WHERE id=?", (DONE, verdict, score, max_score, exit_status, upload_id))

    # What judging produced: the lines the student is shown, the cases the teacher is.

    def add_line(self, upload_id: int, line: str) -> None:
        with self._using(), self.db:
            self.db.execute("INSERT INTO course_lines (upload_id, seq, line) VALUES (?, "
                            "(SELECT COUNT(*) FROM course_lines WHERE upload_id=?), ?)", (upload_id, upload_id, line))

    def lines(self, upload_id: int, after: int = 0) -> list[str]:
        """The lines shown to the student, from the ``after``-th on."""
        with self._using():
            rows = self.db.execute("SELECT line FROM course_lines WHERE upload_id=? AND seq>=? ORDER BY seq",
                                   (upload_id, after)).fetchall()
        return [row[0] for row in rows]

    def add_case(self, upload_id: int, position: int, record: dict) -> None:
        with self._using(), self.db:
            self.db.execute("INSERT OR REPLACE INTO course_cases (upload_id, position, record) VALUES (?, ?, ?)",
                            (upload_id, position, json.dumps(record, ensure_ascii=False)))

    def cases(self, upload_id: int) -> list[dict]:
        """Every case of the upload, whole (for the teacher)."""
        with self._using():
            rows = self.db.execute("SELECT record FROM course_cases WHERE upload_id=? ORDER BY position",
                                   (upload_id,)).fetchall()
        return [json.loads(row[0]) for row in rows]
