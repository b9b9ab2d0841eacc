"""What the operating system the judge runs on offers: Linux's namespaces, /proc and flock, or
only what Windows and macOS have. Every question of "which system is this" is asked here."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable

# The fix that brings full isolation to a system without Linux's namespaces, named for that system.
WSL_FIX = ("on Windows, run the judge inside WSL (`wsl --install` in an administrator's PowerShell, then "
           "install the judge in that Linux), where the bwrap tier works")
MACOS_FIX = "on macOS, run the judge in a Linux container or virtual machine (Docker Desktop, Colima, UTM)"

# The mode bits that let other users write a file. Windows' os.stat reports every writable file
# as writable by all (0o666): its files' owners and rights are not in the mode, so none count there.
OTHERS_MAY_WRITE = 0o022 if os.name == "posix" else 0

# os.open's flags, where the system has them (Windows has none of these: 0 leaves them out).
NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0)
CLOSE_ON_EXEC = getattr(os, "O_CLOEXEC", 0)
NON_BLOCKING = getattr(os, "O_NONBLOCK", 0)
DIRECTORY = getattr(os, "O_DIRECTORY", 0)


def close_all(fds: Iterable[int]) -> None:
    """Close each of ``fds``; one already closed (or never open) is no error."""
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass


def has_namespaces() -> bool:
    """Whether this is Linux, whose namespaces and /proc the sandbox's isolating tiers are built on."""
    return sys.platform.startswith("linux")


def system_name() -> str:
    """The system's name as people say it: Linux, Windows, macOS (or what Python calls it)."""
    if has_namespaces():
        return "Linux"
    return {"win32": "Windows", "cygwin": "Windows", "darwin": "macOS"}.get(sys.platform, sys.platform)


def linux_elsewhere_fix() -> str:
    """Where this system is not Linux: how to reach the full sandbox from it; else ""."""
    if has_namespaces():
        return ""
    if system_name() == "Windows":
        return WSL_FIX
    if system_name() == "macOS":
        return MACOS_FIX
    return "run the judge on Linux (a container or virtual machine) for the full sandbox"


def file_owner_id() -> int:
    """The user id this process's files are owned by (on Windows, which has none, the 0 that
    os.stat reports for every file)."""
    return os.geteuid() if hasattr(os, "geteuid") else 0


def user_tag() -> str:
    """A name for this user in the judge's per-user folders (the uid on POSIX, the login name on Windows)."""
    if hasattr(os, "geteuid"):
        return str(os.geteuid())
    return "".join(ch for ch in os.environ.get("USERNAME", "user") if ch.isalnum() or ch in "-_") or "user"


def max_rss_bytes_per_unit() -> int:
    """The unit of getrusage's ru_maxrss, in bytes: bytes on macOS's kernel, KiB on Linux's."""
    return 1 if hasattr(os, "uname") and os.uname().sysname == "Darwin" else 1024


class _NoFileLocks:
    """flock's interface where the system has no fcntl (Windows), locking nothing: the judges
    of one user on one laptop share their compile cache unguarded (two at once may build a
    program twice, and a sweep may remove a build another is about to use, which it then builds
    again)."""

    LOCK_SH, LOCK_EX, LOCK_NB, LOCK_UN = 1, 2, 4, 8

    @staticmethod
    def flock(_descriptor: int, _operation: int) -> None:
        return None


def file_locking():
    """The fcntl module, or where there is none a stand-in whose locks lock nothing."""
    try:
        import fcntl
    except ImportError:
        return _NoFileLocks
    return fcntl
