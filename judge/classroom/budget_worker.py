"""Work on untrusted input bounded by what it costs, not by the input's size: a function called in
a worker process of its own, each call under a CPU-time and a memory budget. A call over its
budget ends the worker (CPU: the kernel's SIGXCPU) or fails its allocations (memory: the address
space limit), and is reported as ``CallFailed`` with the reason; the next call gets a new worker.

The worker is ``python -m judge.classroom.budget_worker``: it reads calls (the function's module and name,
and its arguments, pickled) on stdin and writes results on its stdout; what the function itself
prints goes to stderr. A module may define ``warm_up()``, called once as the worker imports it,
outside any budget: what the work needs whatever its input (imports, tables) is not the input's
cost. Where the system has no ``resource`` limits (Windows), calls run unbounded.
"""

from __future__ import annotations

import importlib
import math
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Callable

HEADER = struct.Struct("<Q")  # each message: its length, then its pickle
WALL_FACTOR, WALL_EXTRA = 4, 10.0  # a call's wall-clock guard, over its CPU budget: a busy machine is slower


@dataclass(frozen=True)
class Budget:
    cpu_seconds: float
    memory_bytes: int

    def describe(self) -> str:
        return f"{self.cpu_seconds:g} s of CPU time and {self.memory_bytes >> 20} MiB of memory"


class CallFailed(Exception):
    """A call that did not finish: over its budget, or failed; ``reason`` says which."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BudgetedWorker:
    """Calls ``function(*args)`` in a worker process, each within ``budget``. Use as a context
    manager: the worker ends with it."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> BudgetedWorker:
        return self

    def __exit__(self, *_exc) -> None:
        self._stop()

    def call(self, function: Callable, *args: Any) -> Any:
        """The function's result; CallFailed when it went over the budget or raised. The
        function must be importable by its module and name (defined at a module's top level)."""
        process = self._started()
        try:
            _write(process.stdin, pickle.dumps((function.__module__, function.__qualname__, args)))
        except (BrokenPipeError, OSError):
            raise CallFailed(self._ended(process)) from None
        wall = self.budget.cpu_seconds * WALL_FACTOR + WALL_EXTRA
        if os.name != "nt" and not select.select([process.stdout], [], [], wall)[0]:  # select takes pipes on POSIX only
            self._stop()
            raise CallFailed(f"still working after {wall:g} s of wall time")
        reply = _read(process.stdout)
        if reply is None:
            raise CallFailed(self._ended(process))
        outcome, value = pickle.loads(reply)
        if outcome == "memory":
            raise CallFailed(f"over its budget of {self.budget.memory_bytes >> 20} MiB of memory")
        if outcome == "error":
            raise CallFailed(value)
        return value

    def _started(self) -> subprocess.Popen:
        if self.process is None or self.process.poll() is not None:
            package_parent = str(Path(__file__).resolve().parents[2])  # the worker imports this judge
            path = os.pathsep.join(filter(None, [package_parent, os.environ.get("PYTHONPATH")]))
            self.process = subprocess.Popen(
                [sys.executable, "-m", "judge.classroom.budget_worker", str(self.budget.cpu_seconds), str(self.budget.memory_bytes)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": path})
        return self.process

    def _ended(self, process: subprocess.Popen) -> str:
        """Why the worker ended in the middle of a call."""
        code = process.wait()
        self.process = None
        if hasattr(signal, "SIGXCPU") and code == -signal.SIGXCPU:  # the kernel's, for a process over its RLIMIT_CPU
            return f"over its budget of {self.budget.cpu_seconds:g} s of CPU time"
        return f"the worker ended (exit status {code})"

    def _stop(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        if process.poll() is None:
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()


def _write(stream: BinaryIO, payload: bytes) -> None:
    stream.write(HEADER.pack(len(payload)) + payload)
    stream.flush()


def _read(stream: BinaryIO) -> bytes | None:
    """One message, or None at the end of the stream (the other side ended)."""
    header = stream.read(HEADER.size)
    if len(header) < HEADER.size:
        return None
    (size,) = HEADER.unpack(header)
    payload = stream.read(size)
    return payload if len(payload) == size else None


# ----------------------------------------------------------------------------------------------
# The worker's side

def _serve(requests: BinaryIO, replies: BinaryIO, budget: Budget) -> None:
    warm: set[str] = set()
    while (request := _read(requests)) is not None:
        module_name, name, args = pickle.loads(request)
        module = importlib.import_module(module_name)  # imported, and warmed up, outside the budget
        if module_name not in warm and hasattr(module, "warm_up"):
            module.warm_up()
        warm.add(module_name)
        function = getattr(module, name)
        _limit(budget)
        try:
            reply: tuple[str, Any] = ("ok", function(*args))
        except MemoryError:
            reply = ("memory", None)
        except Exception as error:  # the caller says the input was not handled, and why
            reply = ("error", f"{type(error).__name__}: {error}")
        finally:
            _unlimit_memory()
        _write(replies, pickle.dumps(reply))


def _limit(budget: Budget) -> None:
    """This call's budget: CPU time from what the worker has used so far, memory from its size now."""
    try:
        import resource
    except ImportError:  # no limits on this system
        return
    used = resource.getrusage(resource.RUSAGE_SELF)
    seconds = math.ceil(used.ru_utime + used.ru_stime + budget.cpu_seconds)
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, resource.getrlimit(resource.RLIMIT_CPU)[1]))
    size = _address_space_bytes()
    if size is not None:
        resource.setrlimit(resource.RLIMIT_AS, (size + budget.memory_bytes, resource.getrlimit(resource.RLIMIT_AS)[1]))


def _unlimit_memory() -> None:
    try:
        import resource
    except ImportError:
        return
    resource.setrlimit(resource.RLIMIT_AS, (resource.getrlimit(resource.RLIMIT_AS)[1],) * 2)


def _address_space_bytes() -> int | None:
    """The worker's virtual size (Linux's /proc), or None where it cannot be read."""
    try:
        return int(Path("/proc/self/statm").read_text().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


if __name__ == "__main__":
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # what the function prints is not a reply
    _serve(sys.stdin.buffer, replies, Budget(float(sys.argv[1]), int(sys.argv[2])))
