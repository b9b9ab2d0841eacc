"""One SQLite file shared by a process's threads: the results store and the course judge's store.

Each access holds one lock (a connection is not safe to share between threads otherwise), and
every failure of SQLite becomes a StoreError naming the file and what to do about it.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from judge.errors import StoreError

BUSY_TIMEOUT = 30.0  # seconds a write waits for another judge writing the same file


class SQLiteFile:
    """The database at ``path``, opened for every thread of this process; ``kind`` names it in
    errors ("the results database")."""

    kind = "the database"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lock = threading.Lock()
        try:
            self.db = sqlite3.connect(path, check_same_thread=False, timeout=BUSY_TIMEOUT)
        except sqlite3.Error as error:
            raise StoreError(f"cannot open {self.kind} {path} ({error}); pass another --db") from None

    @contextmanager
    def _using(self) -> Iterator[None]:
        """One access to the database, under the thread lock; SQLite's failures become StoreError."""
        with self.lock:
            try:
                yield
            except sqlite3.Error as error:
                raise StoreError(self.explain(error)) from None

    def explain(self, error: sqlite3.Error) -> str:
        """What went wrong with the file, and what to do, in one sentence."""
        text = str(error)
        if "full" in text:
            return (f"the disk holding {self.kind} {self.path} is full ({text}); every result recorded "
                    f"before stays: free some space and run the same command again to resume")
        if "locked" in text or "busy" in text:
            return (f"{self.kind} {self.path} stayed locked by another judge for {BUSY_TIMEOUT:g} s ({text}); "
                    f"run again when it is done, or pass another --db")
        if isinstance(error, sqlite3.DatabaseError) and "not a database" in text:
            return f"{self.path} is not a usable {self.kind.removeprefix('the ')} ({text}); move it away or pass another --db"
        return f"{self.kind} {self.path} could not be used ({text}); pass another --db"

    def close(self) -> None:
        with self.lock:
            self.db.close()
