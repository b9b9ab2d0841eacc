"""Warm starts: one sandboxed server per submission forks a child per case, instead of a fresh
sandbox per case. Python's server forks the interpreter it has already started (see
judge/harness/python_server.py); every other language's execs the prepared command in the child
(judge/harness/exec_server.py). Both speak the protocol of judge/harness/case_control.py.

A pool holds one server per parallel worker. If a server dies or stops answering, that case is
run cold and the server is replaced: verdicts never depend on the warm path working. Once two
servers have died without ever answering (one that cannot start, say), the rest runs cold.

The judge keeps the wall clock itself too: once a server said a case started, its report must come
within the wall-time limit and WALL_BACKSTOP. A case that stopped the server watching it (SIGSTOP
to its parent, say) gets no report: at that deadline the judge kills the server's whole sandbox,
the case is TLE, and the next case gets a new server.
"""

from __future__ import annotations

import dataclasses
import queue
import time
from pathlib import Path
from typing import ClassVar

from judge.harness import EXEC_SERVER_FILE, SERVER_BYTECODE, SERVER_FILE
from judge.harness import case_control as protocol
from judge.languages.program import Program, python_interpreter
from judge.model.vocabulary import SandboxTier
from judge.sandbox import Limits, Outcome, SandboxedServer, private_directories, run_sandboxed, sandbox_tier
from judge.sandbox.command import running_as_root

REPLY_GRACE = 5.0  # seconds past the wall limit before a server that has not started the case is given up on
# Seconds past the wall limit, from the moment the server said the case started, before the
# judge takes the case as stopped at its wall limit: what the server needs to kill, reap and
# sweep a case and report it.
WALL_BACKSTOP = 1.0
# How many servers may die without ever answering before the pool runs everything cold: a
# server that cannot start should not cost every case a failed start.
SILENT_DEATHS = 2
# The dynamic linker binds every symbol once, in the server, instead of lazily in each forked
# child: fewer page faults per case. The server drops it from its environment before any case.
SERVER_ENV: dict[str, str] = {"LD_BIND_NOW": "1"}
# RLIMIT_FSIZE of a Python server: none (prlimit reads this as unlimited). The server writes each
# case's input to a file, which may be larger than the output limit; every case sets the output
# limit on itself before the submission runs.
UNLIMITED_FILE_SIZE = 2**64 - 1


def _or_none(value: int) -> int | None:
    return None if value == protocol.NONE else value


def server_command(program: Program, style: str) -> list[str]:
    """The interpreter line of a cold Python program, pointed at the server instead (at its
    bytecode when the program has it), and given the directories it empties after each case
    besides its working directory: those a cold run has fresh, and a warm case shares with the
    next one."""
    interpreter = program.command[0]
    server = SERVER_BYTECODE if (program.directory / SERVER_BYTECODE).is_file() else SERVER_FILE
    entry = program.command[-1]  # the script a cold run runs (after the function harness, if any)
    return [interpreter, "-I", "-S", "-B", "{prog}/" + server, entry, style, *private_dirs()]


def private_dirs() -> tuple[str, ...]:
    """The writable directories besides its working directory that the sandbox gives each run
    of its own (/tmp and /dev/shm under bwrap and unshare). In the none tier they are the host's,
    shared: a server must not empty them, only remove what its slot uid left there, as the judge
    does after a cold run (and only as root: otherwise the server runs as the judge's own user)."""
    private = private_directories()
    if private and sandbox_tier() == SandboxTier.ROOT:  # a slot's uid with no user namespace of its own
        return (*private, protocol.OWN_UID)
    if private or not running_as_root():
        return private
    return tuple(protocol.OWNED_ONLY + path for path in protocol.SHARED_DIRECTORIES)


class WarmPool:
    """Warm Python servers for one prepared submission, one per concurrent user."""

    # The server and its zygote are two processes more than a case itself may have.
    server_processes = 2
    server_env: ClassVar[dict[str, str]] = SERVER_ENV

    def __init__(self, program: Program, style: str, limits: Limits) -> None:
        self.program = program
        self.style = style
        self.server_limits = dataclasses.replace(limits, cpu_time=24 * 3600.0, limit_address_space=False,
                                                 processes=limits.processes + self.server_processes,
                                                 output=self.server_output_limit(limits))
        self.idle: queue.SimpleQueue[SandboxedServer] = queue.SimpleQueue()
        self.all: list[SandboxedServer] = []
        self.answered: set[SandboxedServer] = set()  # servers that have answered a request
        self.silent_deaths = 0

    def start(self, count: int) -> None:
        """Start up to ``count`` servers now, without waiting for them to be ready."""
        for _ in range(count - len(self.all)):
            server = self._start()
            if server:
                self.idle.put(server)

    def server_command(self) -> list[str]:
        return server_command(self.program, self.style)

    @staticmethod
    def server_output_limit(limits: Limits) -> int:
        """The server's own RLIMIT_FSIZE (the Python server's cases set theirs)."""
        return UNLIMITED_FILE_SIZE

    def serves(self, command: list[str], stdin: bytes, limits: Limits) -> bool:
        """Whether this pool's servers can run ``command`` on ``stdin`` under ``limits`` (the
        Python server knows its program, and applies every limit per case)."""
        return True

    def execute(self, command: list[str], stdin: bytes, limits: Limits, program_dir: Path) -> Outcome:
        """Run one case warm (same signature as a cold run, which is the fallback)."""
        server = self._take() if self.serves(command, stdin, limits) else None
        outcome = self._ask(server, stdin, limits) if server else None
        if server and (outcome is None or server.closed):  # gone, silent, or killed for its case
            self._retire(server)
        elif server:
            self.answered.add(server)
            self.idle.put(server)
        if outcome is None:
            return run_sandboxed(command, stdin=stdin, limits=limits, program_dir=program_dir)
        return outcome

    def _take(self) -> SandboxedServer | None:
        try:
            return self.idle.get_nowait()
        except queue.Empty:
            return self._start()

    def _start(self) -> SandboxedServer | None:
        if self.silent_deaths >= SILENT_DEATHS:
            return None
        try:
            server = SandboxedServer(self.server_command(), self.server_limits, self.program.directory,
                                     extra_env=self.server_env)
        except OSError:
            return None
        self.all.append(server)
        return server

    def _ask(self, server: SandboxedServer, stdin: bytes, limits: Limits) -> Outcome | None:
        """The case's outcome through ``server``, or None if the server died or did not start
        it in time (the case is run cold then)."""
        address_space = limits.address_space or 0
        request = protocol.REQUEST.pack(len(stdin), limits.cpu_time, limits.wall_time,
                                        limits.memory_ceiling, limits.output, address_space,
                                        limits.open_files)
        try:
            if not server.send(request + stdin):
                return None
            if server.receive(len(protocol.STARTED), time.monotonic() + limits.wall_time + REPLY_GRACE) \
                    != protocol.STARTED:
                return None
            started = time.monotonic()
            try:
                header = server.receive(protocol.REPORT.size, started + limits.wall_time + WALL_BACKSTOP)
            except TimeoutError:
                return self._stopped_watcher(server, started, limits)
            if header is None:
                return None
            report = dict(zip(protocol.REPORT_FIELDS, protocol.REPORT.unpack(header)))
            streams = server.receive(report["stdout"] + report["stderr"], time.monotonic() + REPLY_GRACE)
        except TimeoutError:
            return None
        if streams is None:
            return None
        stdout, stderr = streams[:report["stdout"]], streams[report["stdout"]:]
        return Outcome(exit_code=_or_none(report["exit_code"]), signal=_or_none(report["signal"]),
                       cpu_time=report["cpu"], wall_time=report["wall"], memory_kb=report["memory_kb"],
                       stdout=stdout[:limits.output], stderr=stderr,
                       wall_timed_out=protocol.STOPPED[report["stopped"]] == "wall",
                       output_exceeded=len(stdout) >= limits.output)

    def _stopped_watcher(self, server: SandboxedServer, started: float, limits: Limits) -> Outcome:
        """The outcome of a case whose server started it and then fell silent past its wall
        limit: the case stopped it (the server's own work per case is bounded), and ran on
        unwatched. Its sandbox is killed with everything in it; the case is over its wall limit."""
        self.answered.add(server)  # it did start: no sign that servers cannot start
        server.stop()
        note = ("the judge stopped the case at its wall-time limit: the server watching it fell silent "
                "(stopped by the case?) and was killed\n")
        return Outcome(wall_time=time.monotonic() - started, stderr=note.encode(), wall_timed_out=True)

    def _retire(self, server: SandboxedServer) -> None:
        if server not in self.answered:
            self.silent_deaths += 1
        self.answered.discard(server)
        server.close()
        self.all.remove(server)

    def close(self) -> None:
        for server in self.all:
            server.stop()
        for server in self.all:
            server.close()
        self.all.clear()


class ExecPool(WarmPool):
    """Warm exec servers for one prepared submission of a language that runs a command (C, C++,
    Java, JavaScript): each case is the program's command, exec'd afresh by the server."""

    server_processes = 1  # the server itself
    server_env: ClassVar[dict[str, str]] = {}  # the case inherits the server's environment: the sandbox's own

    def __init__(self, program: Program, style: str, limits: Limits) -> None:
        super().__init__(program, style, limits)
        self.limits = limits
        self.command = program.argv(limits)

    def server_command(self) -> list[str]:
        """The server, with the address space every case gets (the server takes it as its own
        limit: cases inherit it with the server's other limits) and the program's command."""
        interpreter = python_interpreter()  # the one Python programs run with
        on_output_limit = "stop" if self.limits.stop_at_output_limit else "run-on"  # as exec_server.py reads it
        return [interpreter, "-I", "-S", "-B", "{prog}/" + EXEC_SERVER_FILE, str(self.limits.address_space or 0),
                on_output_limit, *private_dirs(), "--", *self.command]

    @staticmethod
    def server_output_limit(limits: Limits) -> int:
        """The case's own: it inherits the server's limits."""
        return limits.output

    def serves(self, command: list[str], stdin: bytes, limits: Limits) -> bool:
        """Cases inherit the server's limits but CPU time: another command line or other limits
        run cold, and so does an input larger than the output limit, which the server could not
        write to the case's input file under the limit it shares with its cases."""
        same_limits = dataclasses.replace(limits, cpu_time=0, wall_time=0) \
            == dataclasses.replace(self.limits, cpu_time=0, wall_time=0)
        return list(command) == self.command and same_limits and len(stdin) <= limits.output
