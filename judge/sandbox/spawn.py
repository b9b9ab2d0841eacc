"""One way to start a sandboxed process, for one-shot runs and long-lived servers alike."""

from __future__ import annotations

import os
import signal
from dataclasses import dataclass, field
from pathlib import Path

from judge.model.vocabulary import SandboxTier
from judge.sandbox.command import (
    PROGRAM_DIR_INSIDE,
    SAFE_PATH,
    WORK_DIR_INSIDE,
    isolation_prefix,
    limit_prefix,
    outer_env,
    outer_prefix,
    pipe_prefix,
)
from judge.sandbox.limits import Limits
from judge.sandbox.root_init import open_info, reap_init
from judge.sandbox.runtime import INIT_INFO_FD
from judge.sandbox.slots import spawned_pids
from judge.sandbox.tiers import builds_view_with_bwrap, bwrap_path, unshare_hides

DEFAULT_SIGNALS = tuple(signal.valid_signals() - {getattr(signal, "SIGKILL", -1), getattr(signal, "SIGSTOP", -1)})
RUN_ON_SIGNALS = tuple(set(DEFAULT_SIGNALS) - {getattr(signal, "SIGXFSZ", -1)})
# Processes started in the root tier: the read end of what their bwrap says of its init.
_root_inits: dict[int, int] = {}


@dataclass(frozen=True)
class RunSpec:
    """Everything that decides how one sandboxed process is started.

    ``command`` may use ``{prog}`` (the read-only program directory), ``{work}`` (the writable
    working directory) and ``{tmp}`` (a private directory: the view's own /tmp, or in the tiers
    without a view ``own_files``); they are replaced by the paths the program sees.
    ``scratch`` is a directory of the run's own, on which the unshare tier builds its view.
    """

    command: tuple[str, ...]
    limits: Limits
    tier: str
    uid: int
    work_dir: Path
    program_dir: Path | None = None
    own_files: Path | None = None
    scratch: Path | None = None
    scratch_in_memory: bool = False  # bwrap: the working directory is a fresh tmpfs, not work_dir
    piped: bool = False  # stdin and stdout arrive as PIPE_IN and PIPE_OUT (see command.pipe_prefix)
    env: dict[str, str] = field(default_factory=dict)

    @property
    def inside(self) -> bool:
        """True when the program sees its own file system view (paths differ from the host's)."""
        return builds_view_with_bwrap(self.tier) or self.hides

    @property
    def hides(self) -> bool:
        """unshare: whether the file system view is built (and a shell is the namespace's init)."""
        return self.tier == SandboxTier.UNSHARE and unshare_hides()

    @property
    def reports_signals_as_exit_codes(self) -> bool:
        """Whether the program runs below an init that turns its death by signal N into 128 + N."""
        return builds_view_with_bwrap(self.tier) or self.hides

    def program_env(self) -> dict[str, str]:
        work = WORK_DIR_INSIDE if self.inside else str(self.work_dir)
        own = {name: value.replace("{work}", work) for name, value in self.env.items()}  # as in the command
        return {"PATH": SAFE_PATH, "HOME": work, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", **own}

    def program_argv(self) -> list[str]:
        paths = {"{prog}": PROGRAM_DIR_INSIDE if self.inside else str(self.program_dir or ""),
                 "{work}": WORK_DIR_INSIDE if self.inside else str(self.work_dir),
                 "{tmp}": "/tmp" if self.inside else str(self.own_files or "")}
        argv = []
        for part in self.command:
            for name, value in paths.items():
                part = part.replace(name, value)
            argv.append(part)
        return argv

    def argv(self) -> list[str]:
        """The whole chain: slot uid, isolation, limits, program."""
        return (outer_prefix(self.tier, self.uid)
                + isolation_prefix(self.tier, bwrap_path(self.tier), self.program_dir, self.work_dir,
                                   self.program_env(), self.scratch_in_memory, hide=self.hides,
                                   root_dir=self._root_dir(), writable=self.limits.write_files, uid=self.uid)
                + limit_prefix(self.limits) + (pipe_prefix() if self.piped else []) + self.program_argv())


    def _root_dir(self) -> Path | None:
        if not self.hides or self.scratch is None:
            return None
        root = self.scratch / "root"
        root.mkdir(mode=0o755, exist_ok=True)
        # The slot uid mounts the view on it, so it must reach it: also when the working
        # directory is the caller's (a generator's, a validator's) and not in this scratch.
        os.chmod(self.scratch, 0o755)
        return root


def spawn(spec: RunSpec, file_actions: list) -> int:
    """Start ``spec`` in a session of its own with ``file_actions``; its pid (OSError if it
    cannot start)."""
    argv = spec.argv()
    env = outer_env(spec.program_env(), spec.tier)
    info = open_info() if spec.tier == SandboxTier.ROOT else None
    if info is not None:
        file_actions = [*file_actions, (os.POSIX_SPAWN_DUP2, info[1], INIT_INFO_FD)]
    # Every signal back to its default and none blocked: the judge (Python) ignores SIGPIPE and
    # SIGXFSZ, and ignored dispositions survive exec, so a program flooding its output would
    # never be stopped by SIGXFSZ.
    # A program that runs on past the output limit keeps SIGXFSZ ignored: its writes fail instead.
    defaults = DEFAULT_SIGNALS if spec.limits.stop_at_output_limit else RUN_ON_SIGNALS
    try:
        pid = os.posix_spawn(argv[0], argv, env, file_actions=file_actions, setsid=True,
                             setsigdef=defaults, setsigmask=())
    except OSError:
        if info is not None:
            os.close(info[0])
        raise
    finally:
        if info is not None:
            os.close(info[1])
    spawned_pids.add(pid)
    if info is not None:
        _root_inits[pid] = info[0]
    return pid


def reap_root_init(pid: int) -> tuple[float, int]:
    """Once ``pid`` (a process ``spawn`` started) is reaped: reap its root tier's init, if any;
    (its CPU seconds, its peak KiB)."""
    info = _root_inits.pop(pid, None)
    return reap_init(info) if info is not None else (0.0, 0)
