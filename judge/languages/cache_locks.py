"""The compile cache's two locks, shared by every judge on the machine.

- A key's build lock (``<key>.lock``, exclusive): one judge builds or removes a key at a time.
- An entry's use lock (a lock on the entry's directory itself): held shared by every judge using
  the entry, for as long as the path handed out for it lives; the sweep removes an entry only
  when it can take it exclusively, so never one in use.

A lock file may be removed (the sweep removes an evicted key's): whoever locks one checks
afterwards that the path still names the file it locked, and else locks it again.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import weakref
from pathlib import Path, PosixPath


class EntryPath(PosixPath):
    """A cache entry's path that keeps the entry in use while it lives: a program's directory is
    used for as long as the program is (each of its cases runs from it), and a ``Program`` holds
    this very object. Paths derived from it (``entry / name``) keep nothing."""

    # What the release is tied to: a plain Path (in the Pythons the judge supports) cannot be
    # referred to weakly.
    __slots__ = () if hasattr(PosixPath, "__weakref__") else ("__weakref__",)


def build_lock(root: Path, key: str, wait: bool = True) -> int | None:
    """The key's build lock, held (a descriptor to close to release it); None if another judge
    holds it and not ``wait``."""
    path = root / f"{key}.lock"
    while True:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
        if not _flock(descriptor, fcntl.LOCK_EX, wait):
            os.close(descriptor)
            return None
        if _names(path, descriptor):
            return descriptor
        os.close(descriptor)  # removed (by the sweep) while we waited: lock the new one


def remove_build_lock(root: Path, key: str, descriptor: int) -> None:
    """Remove the key's lock file, which ``descriptor`` holds, and release it."""
    try:
        os.unlink(root / f"{key}.lock")
    finally:
        os.close(descriptor)


def in_use(entry: Path, temporary: bool = False) -> EntryPath | None:
    """``entry``, held in use until the returned path is dropped (and then removed too, if
    ``temporary``); None if there is no such directory, or it was swept away meanwhile."""
    try:
        descriptor = os.open(entry, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        return None
    # Waits only while a sweep holds it, which renames it away at once; then it is no longer here.
    fcntl.flock(descriptor, fcntl.LOCK_SH)
    if not _names(entry, descriptor):
        os.close(descriptor)
        return None
    path = EntryPath(entry)
    weakref.finalize(path, _release, descriptor, str(entry) if temporary else None)
    return path


def unused(entry: Path) -> int | None:
    """The entry's use lock, held exclusively (no judge is using it), or None."""
    try:
        descriptor = os.open(entry, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except OSError:
        return None
    if _flock(descriptor, fcntl.LOCK_EX, wait=False) and _names(entry, descriptor):
        return descriptor
    os.close(descriptor)
    return None


def _release(descriptor: int, remove: str | None) -> None:
    if remove:
        shutil.rmtree(remove, ignore_errors=True)
    os.close(descriptor)


def _flock(descriptor: int, operation: int, wait: bool) -> bool:
    try:
        fcntl.flock(descriptor, operation if wait else operation | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _names(path: Path, descriptor: int) -> bool:
    """Whether ``path`` still names the file open at ``descriptor``."""
    try:
        named = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    opened = os.fstat(descriptor)
    return (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino)
