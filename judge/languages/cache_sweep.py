"""Keeping the compile cache within its caps (see cache_limits.py), while other judges use it.

Every new entry adds its size to a running total (``.usage``); when the total passes the cap, or
an hour has gone by since the last sweep, the judge that wrote it sweeps: it measures every
entry, removes those unused for longer than the age cap, and then the least recently used ones
(an entry is touched each time it is used) until the cache is back under ``LOW_WATER`` of its
cap, so that the next sweep is a good many builds away. One judge sweeps at a time; the others
skip it.

An entry is removed only when no judge is using it (no living judge's registration names it, see
cache_users.py) nor building its key (its build lock is free, see cache_locks.py), by renaming it
aside, holding the cache-wide lock, and then deleting it: no judge ever sees half an entry under
its key. What a killed judge left behind (a half-written entry, a build too large to keep, a lock
file, its registration) is removed once it is an hour old and unlocked, or its judge is gone.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from judge.languages.cache_limits import CacheLimits
from judge.languages.cache_locks import build_lock, remove_build_lock
from judge.languages.cache_users import cache_wide, in_use, registration
from judge.sandbox.host import CLOSE_ON_EXEC, NO_FOLLOW, file_locking

fcntl = file_locking()  # (Windows has none: locks there lock nothing, see judge.sandbox.host)

USAGE = ".usage"  # "<bytes of entries> <bytes after the last sweep> <time of the last sweep>"
SWEEP_LOCK = ".sweep.lock"
TRASH_PREFIX = ".trash-"  # an entry renamed aside, being deleted
UNCACHED_PREFIX = "uncached-"  # a build too large to keep, used from here while it is judged
LOW_WATER = 0.8  # a sweep brings the cache down to this share of its cap
SWEEP_INTERVAL = 3600.0  # seconds: entries past the age cap wait at most this long
LEFTOVER_AGE = 3600.0  # seconds: far longer than writing an entry takes
ENTRY_NAME = re.compile(r"[0-9a-f]{32}")


@dataclass(frozen=True)
class Usage:
    total: int  # bytes of entries, as counted by the last sweep plus what was written since
    after_sweep: int
    swept_at: float


def note_new_entry(root: Path, size: int, limits: CacheLimits) -> None:
    """Count a new entry of ``size`` bytes, and sweep if the cache is due for one."""
    with _usage_file(root) as usage_file:
        usage = _read(usage_file)
        usage = Usage(usage.total + size, usage.after_sweep, usage.swept_at)
        _write(usage_file, usage)
    over = usage.total > limits.total_bytes
    # Over the cap but with little written since the last sweep: it could not free more (what is
    # left is in use), and a sweep per build would cost more than the space it finds.
    worth_it = usage.total - usage.after_sweep >= limits.total_bytes * (1 - LOW_WATER)
    if (over and worth_it) or time.time() - usage.swept_at > SWEEP_INTERVAL:
        try:
            sweep(root, limits)
        except OSError as error:  # housekeeping: the build it follows stands
            print(f"judge: warning: sweeping the compile cache {root} failed: {error}", file=sys.stderr)


def sweep(root: Path, limits: CacheLimits) -> bool:
    """Remove expired entries, then least recently used ones down to LOW_WATER of the cap, and
    old leftovers. False if another judge is sweeping (which does the same)."""
    descriptor = os.open(root / SWEEP_LOCK, os.O_RDWR | os.O_CREAT | CLOSE_ON_EXEC | NO_FOLLOW, 0o600)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        registration(root).flush()  # this judge's own dropped programs are not in use either
        with _usage_file(root) as usage_file:
            counted_before = _read(usage_file).total
        now = time.time()
        entries, leftovers = _survey(root, now)
        total = sum(size for _, size, _ in entries)
        trash: list[Path] = []
        with cache_wide(root, fcntl.LOCK_EX):  # no judge registers a key meanwhile
            used, living = in_use(root)
            for last_used, size, name in sorted(entries):  # least recently used first
                expired = now - last_used > limits.age_seconds
                if not expired and total <= limits.total_bytes * LOW_WATER:
                    break
                aside = None if name in used else _set_aside(root, name)
                if aside is not None:
                    trash.append(aside)
                    total -= size
        for path in trash:
            shutil.rmtree(path, ignore_errors=True)
        for path in leftovers:
            _remove_leftover(root, path, living)
        with _usage_file(root) as usage_file:
            written_meanwhile = _read(usage_file).total - counted_before
            _write(usage_file, Usage(total + max(0, written_meanwhile), total, now))
        return True
    finally:
        os.close(descriptor)


def _set_aside(root: Path, key: str) -> Path | None:
    """Rename the entry ``key`` to the trash unless a judge is building it (the caller holds the
    cache-wide lock, and no judge uses it); where it went, or None."""
    lock = build_lock(root, key, wait=False)
    if lock is None:
        return None
    trash = root / f"{TRASH_PREFIX}{key}-{uuid.uuid4().hex[:8]}"
    try:
        (root / key).rename(trash)
    except OSError:
        os.close(lock)
        return None
    remove_build_lock(root, key, lock)
    return trash


def cache_usage(root: Path) -> tuple[int, int]:
    """The number of entries and their bytes (measured, for `judge doctor`)."""
    entries, _ = _survey(root, time.time())
    return len(entries), sum(size for _, size, _ in entries)


def _survey(root: Path, now: float) -> tuple[list[tuple[float, int, str]], list[Path]]:
    """Each entry's (time of last use, bytes, key), and the leftovers old enough to remove."""
    entries, leftovers = [], []
    for item in os.scandir(root):
        try:
            status = item.stat(follow_symlinks=False)
        except OSError:  # removed meanwhile
            continue
        if ENTRY_NAME.fullmatch(item.name) and item.is_dir(follow_symlinks=False):
            entries.append((status.st_mtime, _bytes_in(Path(item.path)), item.name))
        elif item.name.startswith(UNCACHED_PREFIX) or (_leftover(root, item.name)
                                                       and now - status.st_mtime > LEFTOVER_AGE):
            leftovers.append(Path(item.path))
    return entries, leftovers


def _leftover(root: Path, name: str) -> bool:
    """Whether ``name`` is something a judge leaves only while at work: a lock file of a key with
    no entry, a half-written entry (``<key>.<random>``), a build too large to keep, the trash."""
    key, dot, rest = name.partition(".")
    if ENTRY_NAME.fullmatch(key) and dot:
        return rest != "lock" or not (root / key).exists()
    return name.startswith((UNCACHED_PREFIX, TRASH_PREFIX))


def _remove_leftover(root: Path, path: Path, living: set[str]) -> None:
    key, _, rest = path.name.partition(".")
    if path.name.startswith(UNCACHED_PREFIX):  # used for as long as the judge that built it lives
        if uncached_owner(path.name) not in living:
            shutil.rmtree(path, ignore_errors=True)
        return
    lock = build_lock(root, key, wait=False) if ENTRY_NAME.fullmatch(key) else None
    if ENTRY_NAME.fullmatch(key) and lock is None:
        return  # a judge is building the key: this may be its half-written entry
    if rest == "lock":  # a key that is not building and has no entry (it did not compile, say)
        if not (root / key).exists():
            remove_build_lock(root, key, lock)
            return
    else:
        shutil.rmtree(path, ignore_errors=True)
    if lock is not None:
        os.close(lock)


def uncached_name(owner: str, key: str) -> str:
    """The prefix of a build too large to keep, made by the judge registered as ``owner``."""
    return f"{UNCACHED_PREFIX}{owner}.{key}-"


def uncached_owner(name: str) -> str:
    return name[len(UNCACHED_PREFIX):].partition(".")[0]


def _bytes_in(entry: Path) -> int:
    total = 0
    for top, _, names in os.walk(entry):
        for name in names:
            try:
                total += os.lstat(os.path.join(top, name)).st_size
            except OSError:
                pass
    return total


@contextmanager
def _usage_file(root: Path):
    # The judge's alone, as every lock file here: a sandboxed program able to open it could lock
    # it, and stall every judge.
    descriptor = os.open(root / USAGE, os.O_RDWR | os.O_CREAT | CLOSE_ON_EXEC | NO_FOLLOW, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield descriptor
    finally:
        os.close(descriptor)


def _read(descriptor: int) -> Usage:
    try:
        total, after_sweep, swept_at = os.pread(descriptor, 100, 0).split()
        return Usage(int(total), int(after_sweep), float(swept_at))
    except ValueError:  # new, or unreadable: the next sweep counts it all
        return Usage(0, 0, 0.0)


def _write(descriptor: int, usage: Usage) -> None:
    os.ftruncate(descriptor, 0)
    os.pwrite(descriptor, f"{usage.total} {usage.after_sweep} {usage.swept_at:.3f}".encode(), 0)
