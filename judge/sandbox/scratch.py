"""Scratch directories: one per run or server, named after the judge process that made it, so a
later judge can remove those of a judge that was killed before it could."""

from __future__ import annotations

import functools
import os
import shutil
import stat
import tempfile
import time
from pathlib import Path

from judge.sandbox.command import running_as_root

STALE_AFTER = 600.0  # seconds; a dead judge's scratch directory older than this is removed


def scratch_dir(kind: str) -> Path:
    """A new temporary directory for one run or server."""
    remove_stale_scratch_dirs()
    return Path(tempfile.mkdtemp(prefix=f"judge-{kind}-{os.getpid()}-"))


@functools.cache  # once per judge process
def remove_stale_scratch_dirs() -> None:
    """Remove the scratch directories of judge processes that no longer exist (killed with
    SIGKILL, say: they never got to clean up). Only old ones: a judge in another PID namespace
    sharing this /tmp would look dead too, and its directories are in use."""
    temporary = Path(tempfile.gettempdir())
    now = time.time()
    # run and server: the sandbox's; problem and submission: what a cluster worker was sent;
    # upload: the file a course judge is judging
    for entry in [path for kind in ("run", "server", "problem", "submission", "upload")
                  for path in temporary.glob(f"judge-{kind}-*-*")]:
        owner = entry.name.split("-")[2]
        try:
            old = now - entry.stat().st_mtime > STALE_AFTER
        except OSError:
            continue
        if old and owner.isdigit() and not _process_exists(int(owner)):
            shutil.rmtree(entry, ignore_errors=True)


def _process_exists(pid: int) -> bool:
    if os.name == "nt":  # os.kill there ends the process instead of testing it
        import psutil  # a dependency on Windows
        return psutil.pid_exists(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def hand_over(directory: Path, uid: int) -> None:
    """Give ``directory`` (and what it holds) to the slot uid that will write in it. Its parent
    is opened for the slot uid to pass through, and keeps every permission it had: a caller's
    folder may lie anywhere, in /tmp itself (whose sticky, world-writable mode is every user's)."""
    parent = directory.parent
    os.chmod(parent, stat.S_IMODE(parent.stat().st_mode) | 0o055)
    if running_as_root():
        for path in [directory, *directory.rglob("*")]:
            os.lchown(path, uid, uid)


def own_directory(parent: Path, name: str, uid: int) -> Path:
    """A new empty directory ``parent/name`` that only the slot uid can use."""
    path = parent / name
    path.mkdir(mode=0o700)
    if running_as_root():
        os.chown(path, uid, uid)
    return path
