"""Long-lived sandboxed processes (the warm Python server)."""

from __future__ import annotations

import dataclasses
import os
import select
from pathlib import Path
from typing import BinaryIO

from judge.sandbox.limits import Limits
from judge.sandbox.scratch import hand_over, own_directory
from judge.sandbox.slots import Claim, kill_group, spawned_pids
from judge.sandbox.spawn import RunSpec, spawn
from judge.sandbox.tiers import sandbox_tier


class SandboxedServer:
    """A process that lives in the sandbox across many runs and talks over its stdin/stdout.

    It holds one slot (uid) for its whole life; ``close`` kills everything it started.
    ``limits`` apply to the server itself (process count, open files, stack); the server
    applies each run's own limits to the children it forks.
    """

    def __init__(self, command: list[str], limits: Limits, program_dir: Path, tier: str | None = None,
                 extra_env: dict[str, str] | None = None) -> None:
        """``command`` is the server's command line, with ``{prog}`` for the program directory
        and ``{tmp}`` for a directory of its own; ``extra_env`` adds to the sandbox's fixed
        environment."""
        self.tier = tier or sandbox_tier()
        self._claim = Claim("server")
        self.uid, self.scratch = self._claim.uid, self._claim.scratch
        try:
            self._start(command, limits, program_dir, extra_env or {})
        except BaseException:
            self._claim.give_back(check=False)
            raise
        self.reader = os.fdopen(self._server_stdout, "rb")
        self.writer = os.fdopen(self._server_stdin, "wb")

    def _start(self, command: list[str], limits: Limits, program_dir: Path, extra_env: dict[str, str]) -> None:
        work_dir = self.scratch / "work"
        work_dir.mkdir()
        hand_over(work_dir, self.uid)
        # The server's own files, apart from its working directory: where the tier builds a view,
        # its private /tmp; elsewhere a directory of the scratch area, which goes when the server does.
        spec = RunSpec(tuple(command), limits, self.tier, self.uid, work_dir, program_dir=program_dir,
                       scratch=self.scratch, scratch_in_memory=True, env=extra_env)
        if not spec.inside:
            spec = dataclasses.replace(spec, own_files=own_directory(self.scratch, "tmp", self.uid))
        to_server, self._server_stdin = os.pipe2(os.O_CLOEXEC)
        self._server_stdout, from_server = os.pipe2(os.O_CLOEXEC)
        actions = [(os.POSIX_SPAWN_DUP2, to_server, 0), (os.POSIX_SPAWN_DUP2, from_server, 1),
                   (os.POSIX_SPAWN_OPEN, 2, str(self.scratch / "server.log"), os.O_WRONLY | os.O_CREAT, 0o600)]
        try:
            self.pid = spawn(spec, actions)
        finally:
            os.close(to_server)
            os.close(from_server)

    def exchange(self, request: bytes, reply_size: int, timeout: float) -> tuple[bytes, BinaryIO] | None:
        """Send one request; return (the reply's first ``reply_size`` bytes, the reply stream for
        the rest), or None if the server is gone or silent past ``timeout``."""
        try:
            self.writer.write(request)
            self.writer.flush()
        except OSError:
            return None
        ready, _, _ = select.select([self.reader], [], [], timeout)
        if not ready:
            return None
        header = self.reader.read(reply_size)
        return (header, self.reader) if len(header) == reply_size else None

    def stop(self) -> None:
        """Hang up and kill the server; ``close`` waits for it to go. Stopping several servers
        before closing them lets them die together."""
        for stream in (self.writer, self.reader):
            try:
                stream.close()
            except OSError:
                pass
        kill_group(self.pid)

    def close(self) -> None:
        self.stop()
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        spawned_pids.discard(self.pid)
        self._claim.give_back(check=False)
