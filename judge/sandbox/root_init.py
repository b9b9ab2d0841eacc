"""The root tier's init: bwrap's PID 1 of the run's namespace runs as root (not as the slot uid),
and bwrap's monitor, the process the judge started, ends before it, which leaves it to the judge
(the subreaper of every run). It is no process of the slot uid, so the sweeps by uid never see
it: the judge learns its pid from bwrap itself (``--info-fd``) and reaps it when the run ends,
with the usage it holds (it reaped the program, so the program's CPU time and peak are its).
"""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

from judge.harness.proc_usage import parent_of

INFO_BYTES = 4096  # bwrap's JSON about the sandbox: a few short fields


# The lowest number the write end may have: above every descriptor a spawn's file actions
# write to (stdin, stdout, stderr, an interactive run's pipes, the info descriptor itself), so
# that no earlier action overwrites it, and its own dup2 never maps a number onto itself (which
# would leave it close-on-exec, and bwrap with no info descriptor).
INFO_WRITE_FLOOR = 16


def open_info() -> tuple[int, int]:
    """(read end, write end) of a pipe for bwrap's ``--info-fd``, both close-on-exec."""
    import fcntl  # Linux's, as the root tier is; imported here so other systems can import this module

    read, write = os.pipe2(os.O_CLOEXEC)
    try:
        high = fcntl.fcntl(write, fcntl.F_DUPFD_CLOEXEC, INFO_WRITE_FLOOR)
    finally:
        os.close(write)
    return read, high


def reap_init(info: int) -> tuple[float, int]:
    """Reap the init bwrap named on ``info`` (read end of its info pipe, closed here) once the
    process the judge started was reaped: (its CPU seconds, its peak KiB), zeros if there is none
    to reap. Only a child of the judge's in a PID namespace of its own is touched: whatever the
    pipe says, no other process is killed."""
    try:
        os.set_blocking(info, False)
        data = os.read(info, INFO_BYTES)
    except (BlockingIOError, OSError):
        data = b""
    finally:
        os.close(info)
    init = _child_pid(data)
    if init is None or parent_of(init) != os.getpid() or not _heads_a_pid_namespace(init):
        return 0.0, 0
    try:
        os.kill(init, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        _, _, usage = os.wait4(init, 0)
    except ChildProcessError:
        return 0.0, 0
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def _child_pid(data: bytes) -> int | None:
    try:
        pid = json.loads(data.decode(errors="replace"))["child-pid"]
    except (ValueError, KeyError, TypeError):
        return None
    return pid if isinstance(pid, int) and pid > 1 else None


def _heads_a_pid_namespace(pid: int) -> bool:
    """Whether ``pid`` is PID 1 of a namespace below the judge's (its NSpid line ends in 1)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    for line in status.splitlines():
        if line.startswith("NSpid:"):
            pids = line.split()[1:]
            return len(pids) >= 2 and pids[-1] == "1"
    return False
