"""Long-lived sandboxed processes (the warm Python server)."""

from __future__ import annotations

import dataclasses
import os
import select
import time
from pathlib import Path

from judge.sandbox.limits import Limits
from judge.sandbox.scratch import hand_over, own_directory
from judge.sandbox.slots import Claim, kill_group, spawned_pids
from judge.sandbox.spawn import RunSpec, reap_root_init, spawn
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
        self.closed = False

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

    def send(self, data: bytes) -> bool:
        """Write ``data`` to the server; False if it is gone."""
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self._server_stdin, view):]
        except OSError:
            return False
        return True

    def receive(self, size: int, deadline: float) -> bytes | None:
        """Exactly ``size`` bytes from the server, or None if it hung up first. Raises
        TimeoutError once time.monotonic() passes ``deadline`` with the bytes not all there.
        Unbuffered: nothing read ahead hides from the next wait what the server already sent."""
        data = bytearray()
        while len(data) < size:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([self._server_stdout], [], [], remaining)[0]:
                raise TimeoutError(f"the server sent {len(data)} of {size} bytes in time")
            chunk = os.read(self._server_stdout, size - len(data))
            if not chunk:
                return None
            data += chunk
        return bytes(data)

    def stop(self) -> None:
        """Hang up and kill the server (its whole sandbox); ``close`` waits for it to go. Stopping
        several servers before closing them lets them die together."""
        if not self.closed:
            self.closed = True
            for fd in (self._server_stdin, self._server_stdout):
                os.close(fd)
        kill_group(self.pid)

    def close(self) -> None:
        self.stop()
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        reap_root_init(self.pid)
        spawned_pids.discard(self.pid)
        self._claim.give_back(check=False)
