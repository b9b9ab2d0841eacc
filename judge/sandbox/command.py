"""Command assembly: the chain of small system tools a sandboxed program is started through.

    [setpriv to a slot uid] -> [bwrap | unshare] -> prlimit -> program
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from judge.sandbox.hiding import hiding_script
from judge.sandbox.limits import STACK_LIMIT, Limits
from judge.sandbox.runtime import PIPE_IN, PIPE_OUT, RUNTIME_PATHS, SCRATCH_BYTES, extra_runtime_paths

PROGRAM_DIR_INSIDE = "/prog"
WORK_DIR_INSIDE = "/sandbox"
SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"
MQUEUE_INSIDE = "/dev/mqueue"


def running_as_root() -> bool:
    return os.geteuid() == 0


def slot_prefix(uid: int) -> list[str]:
    """Drop from root to the run's slot uid (nothing to drop without root)."""
    if not running_as_root():
        return []
    return ["/usr/bin/setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--"]


def isolation_prefix(tier: str, bwrap: str, program_dir: Path | None, work_dir: Path, env: dict[str, str],
                     scratch_in_memory: bool = False, hide: bool = False, keep: tuple[Path, ...] = ()) -> list[str]:
    """The namespace part of the chain for ``tier`` (``bwrap`` is the bwrap binary in use).
    ``hide`` (unshare): cover the host's private directories, keeping the program and work
    directories and ``keep`` visible."""
    if tier == "bwrap":
        return bwrap_prefix(bwrap, program_dir, None if scratch_in_memory else work_dir, env)
    # posix_spawn cannot change directory, so the weaker tiers use env(1) to enter the work dir.
    enter = ["/usr/bin/env", "-C", str(work_dir)]
    if tier != "unshare":
        return enter
    namespaces = ["/usr/bin/unshare", "--user", "--map-root-user", "--net", "--ipc", "--pid", "--fork",
                  "--kill-child", "--mount", "--mount-proc"]
    # A session of its own inside: the program's process group (which it may signal whole) is
    # then not unshare's, whose death would kill the run.
    own_session = ["/usr/bin/setsid"]
    if not hide:
        return namespaces + own_session + enter
    visible = [path for path in (program_dir, *keep) if path is not None]
    visible += [Path(path) for path in extra_runtime_paths()]
    fresh = [work_dir] if scratch_in_memory else []
    if not scratch_in_memory:
        visible.append(work_dir)
    # The shell stays as the namespace's init, in a session of its own inside (so that its process
    # group is one the program can see, and signalling it reaches no one outside).
    view = ["/usr/bin/setsid", "/bin/sh", "-c", hiding_script(visible, fresh), "judge-view"]
    return namespaces + view + own_session + enter


def bwrap_prefix(bwrap: str, program_dir: Path | None, work_dir: Path | None, env: dict[str, str]) -> list[str]:
    """bwrap's view: read-only runtime, the program read-only, and a writable working directory:
    ``work_dir`` bound from the host, or (None) a fresh size-capped tmpfs that cannot fill the
    host's disk."""
    args = [bwrap, "--unshare-all", "--unshare-user", "--uid", "1000", "--gid", "1000",
            # Not --as-pid-1: the kernel ignores the signals a PID 1 sends itself (abort() would
            # end in SIGSEGV, raise(SIGTERM) would do nothing); bwrap's own init is PID 1.
            "--cap-drop", "ALL", "--die-with-parent", "--new-session",
            "--hostname", "judge", "--proc", "/proc", "--dev", "/dev",
            "--size", str(SCRATCH_BYTES), "--tmpfs", "/dev/shm",
            "--size", str(SCRATCH_BYTES), "--tmpfs", "/tmp",
            # The run's POSIX message queues as files: a warm server removes a case's there.
            "--mqueue", MQUEUE_INSIDE]
    for path in RUNTIME_PATHS + extra_runtime_paths():
        args += _bind_host_path(path)
    if program_dir is not None:
        args += ["--ro-bind", str(program_dir), PROGRAM_DIR_INSIDE]
    if work_dir is None:
        args += ["--size", str(SCRATCH_BYTES), "--tmpfs", WORK_DIR_INSIDE]
    else:
        args += ["--bind", str(work_dir), WORK_DIR_INSIDE]
    # bwrap builds its root and /dev on tmpfs of no size, writable by the program: files there
    # would outlive a warm case and be read by the next. Only the directories mounted above are
    # the program's to write.
    args += ["--remount-ro", "/dev", "--remount-ro", "/"]
    args += ["--chdir", WORK_DIR_INSIDE, "--clearenv"]
    for key, value in env.items():
        args += ["--setenv", key, value]
    return args + ["--"]


def _bind_host_path(path: str) -> list[str]:
    if os.path.islink(path):
        return ["--symlink", os.readlink(path), path]
    if os.path.exists(path):
        return ["--ro-bind", path, path]
    return []


def pipe_prefix() -> list[str]:
    """The last step before the program of a piped run: the pipes become its stdin and stdout."""
    return ["/bin/sh", "-c", f'exec 0<&{PIPE_IN} 1>&{PIPE_OUT} {PIPE_IN}<&- {PIPE_OUT}>&-; exec "$@"',
            "judge-pipes"]


def limit_prefix(limits: Limits) -> list[str]:
    """prlimit with the per-process backstops of ``limits``."""
    # A PID-namespace init ignores SIGXCPU, so the hard limit (SIGKILL) is the backstop that counts.
    cpu_seconds = math.ceil(limits.cpu_time) + 1
    args = ["/usr/bin/prlimit", f"--cpu={cpu_seconds}:{cpu_seconds}", "--core=0",
            f"--fsize={limits.output}", f"--nofile={limits.open_files}",
            f"--nproc={limits.processes}", f"--stack={STACK_LIMIT}"]
    if limits.address_space is not None:
        args.append(f"--as={limits.address_space}")
    return args + ["--"]


def outer_env(program_env: dict[str, str], tier: str) -> dict[str, str]:
    """The environment the chain starts with: bwrap sets the program's own (--clearenv,
    --setenv); unshare and env(1) pass theirs on."""
    return {"PATH": SAFE_PATH} if tier == "bwrap" else program_env
