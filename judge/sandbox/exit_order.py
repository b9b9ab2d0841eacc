"""Which of two sandboxed processes ended first, as the kernel saw it.

Each run notices its own process's end in its own thread, and those threads run in an order of
the interpreter's and the scheduler's choosing (another thread holding the GIL delays one but not
the other): times they take afterwards can come in the wrong order. The referee instead asks the
kernel about both processes at once, through their pidfds: the kernel checks every fd of a wait
at the same wake-up, so when only one is ready, that process ended before the other.

A pidfd becomes readable when the process the judge started (the sandbox's outermost process)
has ended, a moment after its program. On a busy machine that moment can come late: the program
on the other end, woken by the closed pipe, may end in between. A side may therefore also be
watched through a read end of the pipe it writes to (its program alone holds the write end, see
judge/sandbox/runtime.py): the pipe hangs up as the program ends, at the very wake-up that gives
the other side its end of file.
"""

from __future__ import annotations

import contextlib
import os
import select
import threading
from collections.abc import Callable, Iterable

TIE = "tie"  # both had ended at the same wake-up: microseconds apart, or the referee ran late
JOIN_TIMEOUT = 10.0  # seconds; both processes are reaped by then, so this only guards a bug


class ExitReferee:
    """Watches two processes, handed over by name through :meth:`on_start`, and tells which
    ended first (:meth:`finish`). :meth:`close` (which :meth:`finish` calls) ends its thread and
    closes every fd, whatever happened to the runs: call it in a ``finally``."""

    def __init__(self, first: str, second: str, hang_ups: dict[str, int] | None = None) -> None:
        """``hang_ups``: a read end of the pipe a side writes to, by name (the referee's own, to
        close; no program but that side's may hold a write end of it)."""
        self._names = (first, second)
        self._pidfds: dict[str, int] = {}
        self._hang_ups = dict(hang_ups or {})
        self._lock = threading.Lock()
        self._closed = False
        self._winner: str | None = None
        with contextlib.ExitStack() as undo:  # nothing left open if one of these fails
            undo.callback(_close_all, self._hang_ups.values())
            self._wake_read, self._wake_write = os.pipe2(os.O_CLOEXEC)
            undo.callback(_close_all, (self._wake_read, self._wake_write))
            # The run that hands over the second pidfd adds both to this set itself, so that
            # the kernel watches both from that moment on, whenever this thread next gets the GIL.
            self._epoll = select.epoll()
            undo.pop_all()
        self._epoll.register(self._wake_read, select.EPOLLIN)
        self._thread = threading.Thread(target=self._watch, name="exit referee", daemon=True)
        self._thread.start()

    def on_start(self, name: str) -> Callable[[int], None]:
        """The callback a run of ``name`` calls with its process's pidfd (run_sandboxed's
        ``on_start``); the referee owns the pidfd from then on."""
        if name not in self._names:
            raise ValueError(f"{name!r} is not one of {self._names}")

        def started(pidfd: int) -> None:
            with self._lock:
                if self._closed or name in self._pidfds:
                    os.close(pidfd)
                    return
                self._pidfds[name] = pidfd
                if len(self._pidfds) == 2:
                    self._watch_both()
        return started

    def finish(self) -> str | None:
        """Once both runs have returned: the name of the process that ended first, TIE, or None
        when the order is unknown (a run never started, or its pidfd could not be had)."""
        with self._lock:
            both_handed = len(self._pidfds) == 2
        if both_handed:  # both processes are reaped by now, so the thread decides at once
            self._thread.join(JOIN_TIMEOUT)
        self.close()
        return self._winner

    def close(self) -> None:
        """Stop watching (the order stays unknown if it was not decided yet) and free all."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            os.write(self._wake_write, b"x")
        self._thread.join()
        with self._lock:
            _close_all((*self._pidfds.values(), *self._hang_ups.values(), self._wake_read, self._wake_write))
            self._pidfds.clear()
            self._hang_ups.clear()
            self._epoll.close()

    def _fds(self) -> dict[int, str]:
        return {**{fd: name for name, fd in self._pidfds.items()},
                **{fd: name for name, fd in self._hang_ups.items()}}

    def _watch_both(self) -> None:
        """(Under the lock, as the second pidfd comes.) Decide at once when either already
        ended; else have the kernel watch both."""
        fds = self._fds()
        snapshot = select.poll()  # one look at every fd: which had ended by now
        for fd in fds:
            snapshot.register(fd, 0)  # readiness and hang-ups are reported whatever is asked
        ended = self._ended(fds, snapshot.poll(0))
        if ended:
            self._winner = ended
            os.write(self._wake_write, b"!")
            return
        for fd in self._pidfds.values():
            self._epoll.register(fd, select.EPOLLIN)
        for fd in self._hang_ups.values():
            self._epoll.register(fd, 0)  # only the hang-up, never the data waiting in the pipe

    def _watch(self) -> None:
        _run_promptly()
        while True:
            events = self._epoll.poll()  # the kernel's look at every fd, as this thread wakes
            with self._lock:
                if self._winner is None and not self._closed:
                    self._winner = self._ended(self._fds(), events)
                if self._winner is not None or self._closed:
                    return
                if any(fd == self._wake_read for fd, _ in events):
                    os.read(self._wake_read, 64)

    def _ended(self, fds: dict[int, str], events: Iterable[tuple[int, int]]) -> str | None:
        """The side that had ended among ``events`` (one look), TIE for both, None for neither."""
        ended = {fds[fd] for fd, event in events if fd in fds and self._ends(fd, event)}
        if len(ended) == 2:
            return TIE
        return ended.pop() if ended else None

    def _ends(self, fd: int, event: int) -> bool:
        if fd in self._pidfds.values():
            return bool(event & (select.POLLIN | select.POLLHUP | select.POLLERR))
        return bool(event & (select.POLLHUP | select.POLLERR))  # the pipe's data is no end


def _close_all(fds: Iterable[int]) -> None:
    for fd in list(fds):
        os.close(fd)


def _run_promptly() -> None:
    """Have the calling thread woken ahead of busy processes (real-time, else the highest nice
    priority), so that the kernel's look at the fds comes as soon as one of them is ready and
    ties stay rare. The thread only ever sleeps in epoll or waits for the GIL: it takes no CPU
    from anyone. Best effort: without the privilege it runs as any other thread."""
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))  # 0: this thread, on Linux
        return
    except (OSError, AttributeError):
        pass
    try:
        os.setpriority(os.PRIO_PROCESS, 0, -20)
    except OSError:
        pass
