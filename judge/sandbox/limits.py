"""What a run is allowed (``Limits``) and what came of it (``Outcome``), and the sandbox's errors."""

from __future__ import annotations

import dataclasses
import signal
from dataclasses import dataclass

from judge.errors import SandboxError  # noqa: F401 (judge.sandbox exports it)

ADDRESS_SPACE_ALLOWANCE = 1 << 30
STACK_LIMIT = 64 << 20  # deep recursion is normal in contest code


@dataclass(frozen=True)
class Limits:
    """Resource limits for one run. Times in seconds, sizes in bytes."""

    cpu_time: float
    wall_time: float
    memory: int
    output: int
    processes: int = 64
    open_files: int = 256
    limit_address_space: bool = True  # False for runtimes that reserve huge virtual memory
    memory_slack: int = 0  # resident memory a runtime itself needs on top of the limit (JVM, node)
    # Whether the program may write files (its working directory, /tmp and /dev/shm); where it
    # may not, they are read-only in every tier that builds a view.
    write_files: bool = True
    # Each process's stack, or None for no limit: a problem's own validators and generators get
    # the stack they need (a regex over a long line recurses deeply), as verification tools give them.
    stack: int | None = STACK_LIMIT
    # Whether a write past ``output`` stops the program (SIGXFSZ), or only fails (EFBIG) while the
    # program runs on: then a run out of time is TLE though its output passed the limit, as
    # DOMjudge and problemtools judge it (C's and C++'s streams, Java and node write on; a Python
    # program ends on the error it raises, which is OLE).
    stop_at_output_limit: bool = True

    @staticmethod
    def wall_for(cpu_time: float) -> float:
        """The wall-clock limit that goes with a CPU limit: the time limit itself, with DOMjudge's
        default overshoot (``timelimit_overshoot: 1s|10%``, the larger of the two). A program still
        running then is too slow, however little CPU time it used (see ``loaded_wall``)."""
        return cpu_time + max(1.0, cpu_time * 0.1)

    @staticmethod
    def loaded_wall(cpu_time: float) -> float:
        """The wall-clock limit of a case run again because a loaded machine, not the program,
        stopped it (judge.model.verdict.slowed_by_machine): room for a program short of its CPU time."""
        return cpu_time * 3 + 1

    @classmethod
    def for_cpu(cls, cpu_time: float, **rest) -> Limits:
        """Limits with the wall-clock limit that goes with ``cpu_time``."""
        return cls(cpu_time=cpu_time, wall_time=cls.wall_for(cpu_time), **rest)

    def with_cpu(self, cpu_time: float) -> Limits:
        """These limits with another CPU limit (and a wall limit at least the one that goes with it)."""
        return dataclasses.replace(self, cpu_time=cpu_time, wall_time=max(self.wall_time, self.wall_for(cpu_time)))

    def with_wall(self, wall_time: float) -> Limits:
        """These limits with another wall-clock limit."""
        return dataclasses.replace(self, wall_time=wall_time)

    @property
    def memory_ceiling(self) -> int:
        """Resident bytes the whole run may hold: the limit plus what the runtime itself needs."""
        return self.memory + self.memory_slack

    @property
    def address_space(self) -> int | None:
        """RLIMIT_AS, or None for none. Only a backstop against one huge allocation: the limit is
        enforced on resident memory, so reservations that are never touched cost nothing. It
        leaves room for a stack of STACK_LIMIT for every thread the process limit allows (each
        thread reserves one, and a program may use them all)."""
        if not self.limit_address_space:
            return None
        return 2 * self.memory + ADDRESS_SPACE_ALLOWANCE + self.processes * STACK_LIMIT


@dataclass
class Outcome:
    """What happened when a program ran: plain measurements, no judgement."""

    exit_code: int | None = None
    signal: int | None = None
    cpu_time: float = 0.0
    wall_time: float = 0.0
    memory_kb: int = 0
    stdout: bytes = b""
    stderr: bytes = b""
    wall_timed_out: bool = False
    output_exceeded: bool = False
    internal_error: str | None = None
    # What memory_kb was made of when the watcher's reading was the peak ({"resident": KiB,
    # "in-memory files": KiB, ...}); None when it is one process's peak as the kernel kept it.
    memory_parts: dict[str, int] | None = None
    stopped: str | None = None  # the limit the judge stopped it at: "wall", "cpu", "memory" or None

    def memory_text(self) -> str:
        """``peak 300 MiB`` and, when more than resident memory counted, what it was made of."""
        text = f"peak {self.memory_kb // 1024} MiB"
        parts = {name: kb for name, kb in (self.memory_parts or {}).items() if kb >= 1024}
        if set(parts) - {"resident"}:
            text += ": " + ", ".join(f"{name} {kb // 1024} MiB" for name, kb in parts.items())
        return text


class RunsStopped(KeyboardInterrupt):
    """The judge is stopping (a signal): runs in progress were killed and give no outcome, and
    no new run starts. A KeyboardInterrupt, so that nothing catching Exception records it."""

    def __init__(self, signum: int = signal.SIGINT) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        """The shell's convention for a process ended by a signal: 128 + its number."""
        return 128 + self.signum
