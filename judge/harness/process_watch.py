"""Watching a running program against its limits: the one watcher of the judge's cold runs
(judge/sandbox/run.py) and of both warm servers (python_server.py and exec_server.py, through
case_control.py). Each caller says how to read a run's usage; the rules of when a run is
stopped are written here alone.

Runs INSIDE the sandbox too, next to the servers: standard library only, nothing of the judge.
The Python server loads it before it forks its zygote, so keep its imports to what a Python
case needs anyway.
"""

import os
import time

POLL = 0.05  # seconds between readings of a running program's CPU time and memory
CPU_GRACE = 0.05  # measured CPU may pass the limit by this much before the run is stopped
STDERR_KEEP = 64 * 1024
READS_PER_WAKE = 16  # of stderr, between two looks at the limits


def cpu_rlimit(cpu):
    """RLIMIT_CPU (soft, hard) for a CPU limit of ``cpu`` seconds, cold or warm: a per-process
    backstop past the limit, which the watcher enforces first on the whole process tree (a
    second past the whole seconds above it, and SIGKILL a second later: a PID namespace's init
    ignores SIGXCPU)."""
    soft = -int(-cpu // 1) + 1  # math.ceil, without importing math into every Python case
    return soft, soft + 1


class StderrKept:
    """The first STDERR_KEEP bytes of a run's stderr, and how many more there were."""

    def __init__(self):
        self.kept, self.dropped = bytearray(), 0

    def take(self, fd, most=None):
        """Read what the (non-blocking) pipe holds now, at most ``most`` reads of 64 KiB;
        False once it is at end of file. A bound keeps a program that writes without end
        from holding its watcher here, away from the limits."""
        reads = 0
        while most is None or reads < most:
            reads += 1
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                return True
            if not chunk:
                return False
            room = max(STDERR_KEEP - len(self.kept), 0)
            self.kept += chunk[:room]
            self.dropped += max(0, len(chunk) - room)
        return True

    def text(self):
        text = bytes(self.kept)
        if self.dropped:
            text += f"\n[... {self.dropped} more bytes of stderr not kept]".encode()
        return text


class Watch:
    """What the watcher saw of a run: its stderr, why it was stopped ("wall", "cpu", "memory",
    or None when it ended by itself), and the peaks of its CPU seconds and memory (KiB), with
    what the peak memory reading was made of."""

    def __init__(self):
        self.stderr = StderrKept()
        self.stopped = None
        self.cpu = 0.0
        self.memory_kb = 0
        self.memory_parts = None


def watch(pid, stderr_fd, deadline, cpu_limit, memory_ceiling_kb, read, first_reading=0.0):
    """Wait for ``pid`` to exit while keeping its stderr (``stderr_fd``, non-blocking); stop
    watching as soon as the wall clock passes ``deadline`` (time.monotonic), the run's CPU time
    passes ``cpu_limit`` seconds or its memory ``memory_ceiling_kb``. The caller kills it then.

    ``read()`` gives the run's usage now: (CPU seconds, {kind of memory: KiB}), over every
    process of the run (RLIMIT_CPU and RLIMIT_AS are per process and only backstops). No
    reading is taken before ``first_reading`` seconds have passed (most warm cases are over
    sooner). The caller drains what is left of stderr once the run's processes are gone."""
    import select  # the watcher's own: a Python case never needs it

    pidfd = os.pidfd_open(pid)
    seen = Watch()
    started = time.monotonic()
    try:
        poller = select.poll()
        poller.register(pidfd, select.POLLIN)
        poller.register(stderr_fd, select.POLLIN)
        while seen.stopped is None:
            now = time.monotonic()
            if now - started >= first_reading:
                _take_reading(seen, read, memory_ceiling_kb, lambda: bool(select.select([pidfd], [], [], 0)[0]))
            remaining = deadline - now
            if remaining <= 0:
                seen.stopped = "wall"
            elif seen.cpu > cpu_limit + CPU_GRACE:
                seen.stopped = "cpu"
            elif seen.memory_kb > memory_ceiling_kb:
                seen.stopped = "memory"
            else:
                events = dict(poller.poll(min(remaining, POLL) * 1000))
                if stderr_fd in events and not seen.stderr.take(stderr_fd, most=READS_PER_WAKE):
                    # End of file: nothing holds the pipe any more (in the Python server, a
                    # case killed the zygote, which holds it for every case). Polling it again
                    # would report that at once, forever.
                    poller.unregister(stderr_fd)
                if pidfd in events:
                    break
    finally:
        os.close(pidfd)
    return seen


def _take_reading(seen, read, memory_ceiling_kb, has_ended):
    """One reading of the run's usage into ``seen``'s peaks."""
    cpu, parts = read()
    memory_kb = sum(parts.values())
    if memory_kb > memory_ceiling_kb:
        # Read again before the run is stopped: one reading taken while the run's processes
        # were changing (forking, entering namespaces) must not decide alone. Memory over the
        # limit is still there a moment later, unless the run has ended meanwhile (a short
        # peak: then the first reading stands).
        cpu, again = read()
        if sum(again.values()) < memory_kb and not has_ended():
            parts, memory_kb = again, sum(again.values())
    seen.cpu = max(seen.cpu, cpu)
    if memory_kb > seen.memory_kb:
        seen.memory_kb, seen.memory_parts = memory_kb, parts
