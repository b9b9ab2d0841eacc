"""A compile cache key's build lock (``<key>.lock``, exclusive): one judge builds or removes a key
at a time, holding it only while it does.

A sweep removes the lock file of a key it evicts: whoever locks one checks afterwards that the
path still names the file it locked, and else locks it again.
"""

from __future__ import annotations

import os
from pathlib import Path

from judge.sandbox.host import CLOSE_ON_EXEC, NO_FOLLOW, file_locking

fcntl = file_locking()  # (Windows has none: locks there lock nothing, see judge.sandbox.host)


def build_lock(root: Path, key: str, wait: bool = True) -> int | None:
    """The key's build lock, held (a descriptor to close to release it); None if another judge
    holds it and not ``wait``."""
    path = root / f"{key}.lock"
    while True:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | CLOSE_ON_EXEC | NO_FOLLOW, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(descriptor)
            return None
        if _names(path, descriptor):
            return descriptor
        os.close(descriptor)  # removed (by a sweep) while we waited: lock the new one


def remove_build_lock(root: Path, key: str, descriptor: int) -> None:
    """Remove the key's lock file, which ``descriptor`` holds, and release it."""
    try:
        os.unlink(root / f"{key}.lock")
    finally:
        os.close(descriptor)


def _names(path: Path, descriptor: int) -> bool:
    """Whether ``path`` still names the file open at ``descriptor``."""
    try:
        named = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    opened = os.fstat(descriptor)
    return (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino)
