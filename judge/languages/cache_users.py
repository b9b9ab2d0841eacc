"""Which compile cache entries the judges on this machine are using, so that no sweep removes one.

Each judge process using a cache keeps one registration in ``<cache>/.users/``: ``<id>.lock``,
which it holds locked (flock, exclusive) for as long as it lives, and ``<id>.keys``, the keys of
the entries its programs use, rewritten (aside, then renamed) when that set changes. A process so
holds one descriptor per cache however many programs it has: a descriptor per entry would stay
open for each program's lifetime, and be there in every run it makes.

An entry is in use for as long as the path handed out for it lives (a ``Program`` holds that very
object); once it is dropped, the key leaves the registration when the process next registers a
key or sweeps. A registration whose lock is free belongs to a judge that died: a sweep removes it.

The cache-wide lock ``.users.lock`` orders registering against evicting: a judge registers a key
(and sees that its entry is there) holding it shared; a sweep reads the registrations and renames
its victims aside holding it exclusively. Both hold it for moments only.
"""

from __future__ import annotations

import collections
import os
import threading
import uuid
import weakref
from contextlib import contextmanager
from pathlib import Path

from judge.sandbox.host import CLOSE_ON_EXEC, NO_FOLLOW, file_locking

fcntl = file_locking()  # (Windows has none: locks there lock nothing, see judge.sandbox.host)

USERS = ".users"
USERS_LOCK = ".users.lock"
_OPEN = CLOSE_ON_EXEC | NO_FOLLOW


class EntryPath(type(Path())):  # PosixPath or WindowsPath: the other cannot be made here
    """A cache entry's path that keeps the entry in use while it lives. Paths derived from it
    (``entry / name``) keep nothing."""

    # What the release is tied to: a plain Path (in the Pythons the judge supports) cannot be
    # referred to weakly.
    __slots__ = () if hasattr(type(Path()), "__weakref__") else ("__weakref__",)


@contextmanager
def cache_wide(root: Path, operation: int):
    """The cache-wide lock, held (``fcntl.LOCK_SH`` or ``LOCK_EX``) for the block."""
    descriptor = os.open(root / USERS_LOCK, os.O_RDWR | os.O_CREAT | _OPEN, 0o600)
    try:
        fcntl.flock(descriptor, operation)
        yield
    finally:
        os.close(descriptor)


class _Registration:
    """This process's registration in one cache."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.pid = os.getpid()
        self.id = f"{self.pid}-{uuid.uuid4().hex[:12]}"
        self.counts: collections.Counter[str] = collections.Counter()
        self.released: list[str] = []  # appended to by finalizers, which must take no lock
        self.written: frozenset[str] | None = None
        self.mutex = threading.Lock()
        self.descriptor = self._lock_file()

    def _lock_file(self) -> int:
        """Create and lock ``<id>.lock``: locked under another name first, so that a sweep never
        sees it unlocked and takes it for a dead judge's; and holding the cache-wide lock, so that
        no sweep sees the new name between its creation and its lock (and removes it as a killed
        judge's)."""
        folder = self.root / USERS
        folder.mkdir(mode=0o700, exist_ok=True)
        aside = folder / f"{self.id}.new"
        with cache_wide(self.root, fcntl.LOCK_SH):
            descriptor = os.open(aside, os.O_RDWR | os.O_CREAT | os.O_EXCL | _OPEN, 0o600)
            fcntl.flock(descriptor, fcntl.LOCK_EX)
            aside.rename(folder / f"{self.id}.lock")
        return descriptor

    def current(self) -> bool:
        """Whether the lock file is still there (a cache removed whole takes it along)."""
        try:
            named = os.stat(self.root / USERS / f"{self.id}.lock", follow_symlinks=False)
        except OSError:
            return False
        opened = os.fstat(self.descriptor)
        return (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino)

    def hold(self, key: str) -> EntryPath | None:
        """The entry ``key``, registered in use; None if there is no such directory (a sweep may
        just have removed it)."""
        entry = self.root / key
        with self.mutex, cache_wide(self.root, fcntl.LOCK_SH):
            if entry.is_symlink() or not entry.is_dir():
                return None
            self.counts[key] += 1
            self._write()
        path = EntryPath(entry)
        weakref.finalize(path, self.released.append, key)
        return path

    def flush(self) -> None:
        """Write the registration without the keys whose paths were dropped."""
        with self.mutex, cache_wide(self.root, fcntl.LOCK_SH):
            self._write()

    def _write(self) -> None:
        while self.released:
            key = self.released.pop()
            self.counts[key] -= 1
            if self.counts[key] <= 0:
                del self.counts[key]
        keys = frozenset(self.counts)
        if keys == self.written:
            return
        folder = self.root / USERS
        aside = folder / f"{self.id}.keys.new"
        descriptor = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _OPEN, 0o600)
        with os.fdopen(descriptor, "w") as handle:
            handle.write("".join(f"{key}\n" for key in sorted(keys)))
        aside.rename(folder / f"{self.id}.keys")
        self.written = keys

    def forget(self) -> None:
        """Let go of an inherited registration (in a forked child: the parent still holds it)."""
        os.close(self.descriptor)


_registrations: dict[Path, _Registration] = {}
_registrations_mutex = threading.Lock()


def _after_fork() -> None:
    """A forked child registers anew (``registration`` sees the pid change): its locks must not
    be ones another thread of the parent held as it forked."""
    global _registrations_mutex
    _registrations_mutex = threading.Lock()


os.register_at_fork(after_in_child=_after_fork)


def registration(root: Path) -> _Registration:
    """This process's registration in the cache at ``root``, made on first use (and again after
    a fork, or when the cache was removed meanwhile)."""
    with _registrations_mutex:
        found = _registrations.get(root)
        if found is not None and found.pid == os.getpid() and found.current():
            return found
        if found is not None:
            found.forget()
        _registrations[root] = _Registration(root)
        return _registrations[root]


def hold(root: Path, key: str) -> EntryPath | None:
    """The entry ``key`` of the cache at ``root``, in use while the returned path lives."""
    return registration(root).hold(key)


def in_use(root: Path) -> tuple[set[str], set[str]]:
    """The keys some living judge uses, and the ids of the living judges; removes a dead
    judge's registration. The caller holds the cache-wide lock exclusively."""
    folder = root / USERS
    keys: set[str] = set()
    living: set[str] = set()
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return keys, living
    for name in names:
        if name.endswith(".new") and not name.endswith(".keys.new") and not _alive(folder / name):
            (folder / name).unlink(missing_ok=True)  # a judge killed as it registered
        if not name.endswith(".lock"):
            continue
        user = name[: -len(".lock")]
        if _alive(folder / name):
            living.add(user)
            try:
                keys.update((folder / f"{user}.keys").read_text().split())
            except FileNotFoundError:
                pass  # registered, but holds nothing yet
        else:
            for leftover in (name, f"{user}.keys", f"{user}.keys.new"):
                (folder / leftover).unlink(missing_ok=True)
    return keys, living


def _alive(lock_file: Path) -> bool:
    """Whether a judge holds ``lock_file`` (it does until it dies)."""
    try:
        descriptor = os.open(lock_file, os.O_RDONLY | _OPEN)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(descriptor)
    return False
