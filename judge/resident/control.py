"""`judge resident`'s side of the resident judge: whether one serves this installation, and
stopping it. A living resident holds an exclusive lock on the file beside its socket, which
names its process."""

from __future__ import annotations

import fcntl
import os
import signal

from judge.resident import identity, socket_path


def resident_pid() -> int | None:
    """The process of the resident judge serving this installation's commands, if one lives."""
    place = socket_path(identity())
    if place is None:
        return None
    try:
        handle = os.open(place + ".lock", os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:  # held: a resident lives, and wrote its pid there
            text = os.read(handle, 32).decode(errors="replace").strip()
            return int(text) if text.isdigit() else None
        fcntl.flock(handle, fcntl.LOCK_UN)
        return None
    finally:
        os.close(handle)


def stop_resident() -> int | None:
    """Ask the resident judge to end (the commands it is running finish first); its pid, or
    None if there was none."""
    pid = resident_pid()
    if pid is not None:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            return None
    return pid
