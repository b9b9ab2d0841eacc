"""Whether an interactive validator decided on what the submission wrote, or on its end.

problemtools and DOMjudge let a validator's rejection win over the submission's crash or time-out
when the validator "exited first", and tell which exited first by which process the kernel
reported first. A submission that writes a wrong answer and crashes at once then gets WA or RTE
as the scheduler pleases. The judge makes the order itself instead: it holds its own copy of the
write end of the pipe into the validator, so the submission's end reaches the validator (as the
end of its input) only when the judge gives it. Once the submission has ended, the judge waits
until the validator has either ended (it decided on what the submission wrote: it was first) or
sleeps on its empty input (it needs more: it is given the end, and ends after the submission).
A deterministic validator therefore gives the same answer on every run, whatever the load.
"""

from __future__ import annotations

import os
import select
import threading
import time
from collections.abc import Callable

from judge.harness.proc_usage import descendants
from judge.sandbox.host import close_all

LOOK_INTERVAL_MS = 2  # between two looks at a validator that may be waiting for input
# How long a validator whose run has not handed its pidfd yet is waited for: it started before the
# submission, so only a system without pidfds makes the wait this long (it is then given the end).
START_WAIT = 5.0


class HeldEnd:
    """The judge's copy of the write end of the pipe from submission to validator.

    ``write_end`` is that copy, ``input_read`` a read end of the same pipe (to see what is still
    unread) and ``output_read`` one of the pipe from validator to submission: all three the
    held end's own, to close. Hand :meth:`validator_started` to the validator's run as its
    ``on_start``; once the submission's run has returned, :meth:`give` decides."""

    def __init__(self, write_end: int, input_read: int, output_read: int) -> None:
        self._write_end, self._input_read, self._output_read = write_end, input_read, output_read
        self._validator_pidfd: int | None = None
        self._lock = threading.Lock()
        self._closed = False

    def validator_started(self, pidfd: int) -> None:
        with self._lock:
            if self._closed:
                os.close(pidfd)
            else:
                self._validator_pidfd = pidfd

    def give(self, validator_running: Callable[[], bool]) -> bool:
        """(After the submission's run returned.) Wait until the validator has ended or waits
        for input, then give it the end of its input; whether it had ended before that, that
        is: decided without the submission's end. ``validator_running``: whether the
        validator's run has not returned yet (it may not even have started)."""
        previous: tuple | None = None
        start_by = time.monotonic() + START_WAIT
        while True:
            pidfd = self._validator_pidfd
            if pidfd is None:  # not started yet, or it could not be (then its run says why)
                if not validator_running() or time.monotonic() > start_by:
                    self.close()
                    return False
                select.select([], [], [], LOOK_INTERVAL_MS / 1000)
                continue
            if _readable(pidfd, timeout_ms=0):
                self.close()
                return True
            look = self._sleeping_on_empty_pipes(_pid_of(pidfd))
            if look is not None and look == previous:  # asleep, and nothing of it ran meanwhile
                self.close()
                return False
            previous = look
            if _readable(pidfd, timeout_ms=LOOK_INTERVAL_MS):
                self.close()
                return True

    def close(self) -> None:
        """Give the end of input (if not given yet) and close every fd held."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            fds = [self._write_end, self._input_read, self._output_read]
            if self._validator_pidfd is not None:
                fds.append(self._validator_pidfd)
        close_all(fds)

    def _sleeping_on_empty_pipes(self, pid: int | None) -> tuple | None:
        """When the validator's pipes are both empty and every thread of its sandbox sleeps
        (none runs, none has ended unreaped): each thread's context switches so far, which
        change as soon as one of them runs. Else None."""
        if pid is None or _unread(self._input_read) or _unread(self._output_read):
            return None
        switches = []
        for process in (pid, *descendants(pid)):
            threads = _threads_asleep(process)
            if threads is None:
                return None
            switches.append((process, threads))
        return tuple(switches)


def _readable(fd: int, timeout_ms: int) -> bool:
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    return bool(poller.poll(timeout_ms))


def _unread(fd: int) -> int:
    """Bytes waiting in the pipe ``fd`` reads."""
    import fcntl  # Linux's, as interactive judging is; here so that other systems can import this module
    import termios

    return int.from_bytes(fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0"), "little")


def _pid_of(pidfd: int) -> int | None:
    try:
        with open(f"/proc/self/fdinfo/{pidfd}") as info:
            for line in info:
                if line.startswith("Pid:"):
                    pid = int(line.split()[1])
                    return pid if pid > 0 else None
    except (OSError, ValueError):
        pass
    return None


def _threads_asleep(pid: int) -> tuple | None:
    """Each thread's (id, voluntary, involuntary context switches) when all of ``pid``'s
    threads sleep interruptibly (as one blocked in a read does); None when one runs, waits on
    the disk, has ended, or the process is gone."""
    try:
        threads = sorted(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return None
    seen = []
    for thread in threads:
        fields = _status_fields(f"/proc/{pid}/task/{thread}/status")
        if fields is None or not fields.get("State", "").startswith("S"):
            return None
        seen.append((thread, fields.get("voluntary_ctxt_switches"), fields.get("nonvoluntary_ctxt_switches")))
    return tuple(seen)


def _status_fields(path: str) -> dict[str, str] | None:
    try:
        with open(path) as status:
            return {name: value.strip() for name, _, value in (line.partition(":") for line in status)}
    except OSError:
        return None
