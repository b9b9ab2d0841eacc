"""Command assembly: the chain of small system tools a sandboxed program is started through.

    [setpriv to a slot uid] -> [bwrap | unshare] -> prlimit -> program
"""

from __future__ import annotations

import os
from pathlib import Path

from judge.harness.process_watch import cpu_rlimit
from judge.sandbox.limits import Limits
from judge.sandbox.new_root import new_root_script
from judge.sandbox.runtime import PIPE_IN, PIPE_OUT
from judge.sandbox.view import EMPTY_BYTES, Mount, ordered, runtime_mounts, scratch_mounts
from judge.vocabulary import SandboxTier

PROGRAM_DIR_INSIDE = "/prog"
WORK_DIR_INSIDE = "/sandbox"
SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"
MQUEUE_INSIDE = "/dev/mqueue"
# The writable directories besides its working directory that every run gets empty, of its own.
SCRATCH_DIRECTORIES = ("/tmp", "/dev/shm")


def running_as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0  # (Windows has no user ids)


def slot_prefix(uid: int) -> list[str]:
    """Drop from root to the run's slot uid (nothing to drop without root)."""
    if not running_as_root():
        return []
    return ["/usr/bin/setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--"]


def isolation_prefix(tier: str, bwrap: str, program_dir: Path | None, work_dir: Path, env: dict[str, str],
                     scratch_in_memory: bool = False, hide: bool = False, root_dir: Path | None = None,
                     writable: bool = True) -> list[str]:
    """The namespace part of the chain for ``tier`` (``bwrap`` is the bwrap binary in use).
    ``hide`` (unshare): build the allow-list view on ``root_dir`` (an empty directory of the
    run's own) instead of showing the host. ``writable``: whether the program may write files
    (in its working directory and scratch directories)."""
    mounts = view_mounts(program_dir, None if scratch_in_memory else work_dir, writable)
    if tier == SandboxTier.BWRAP:
        return bwrap_prefix(bwrap, mounts, env)
    # posix_spawn cannot change directory, so the weaker tiers use env(1) to enter the work dir.
    if tier != SandboxTier.UNSHARE:
        return ["/usr/bin/env", "-C", str(work_dir)]
    namespaces = ["/usr/bin/unshare", "--user", "--map-root-user", "--net", "--ipc", "--pid", "--fork",
                  "--kill-child", "--mount", "--mount-proc"]
    # A session of its own inside: the program's process group (which it may signal whole) is
    # then not unshare's, whose death would kill the run.
    own_session = ["/usr/bin/setsid"]
    if not hide:
        return namespaces + own_session + ["/usr/bin/env", "-C", str(work_dir)]
    if root_dir is None:
        raise ValueError("the unshare tier builds its view on a directory of the run's own: give root_dir")
    # The shell stays as the namespace's init, in a session of its own inside (so that its process
    # group is one the program can see, and signalling it reaches no one outside).
    view = ["/usr/bin/setsid", "/bin/sh", "-c", new_root_script(root_dir, mounts), "judge-view"]
    return namespaces + view + own_session + ["/usr/bin/env", "-C", WORK_DIR_INSIDE]


def view_mounts(program_dir: Path | None, work_dir: Path | None, writable: bool = True) -> list[Mount]:
    """Everything a run sees, parents first: the read-only runtime, its program read-only at
    PROGRAM_DIR_INSIDE, and a working directory at WORK_DIR_INSIDE (``work_dir`` bound from the
    host, or, when None, a fresh size-capped tmpfs that cannot fill the host's disk), with empty
    /tmp and /dev/shm of its own; all three read-only unless ``writable``."""
    mounts = [*runtime_mounts(), *scratch_mounts(SCRATCH_DIRECTORIES, writable)]
    if program_dir is not None:
        mounts.append(Mount("ro", PROGRAM_DIR_INSIDE, str(program_dir)))
    if work_dir is not None:
        mounts.append(Mount("rw" if writable else "ro", WORK_DIR_INSIDE, str(work_dir)))
    else:
        mounts += scratch_mounts((WORK_DIR_INSIDE,), writable)
    return ordered(mounts)


def bwrap_prefix(bwrap: str, mounts: list[Mount], env: dict[str, str]) -> list[str]:
    """bwrap's options for the view ``mounts``."""
    args = [bwrap, "--unshare-all", "--unshare-user", "--uid", "1000", "--gid", "1000",
            # Not --as-pid-1: the kernel ignores the signals a PID 1 sends itself (abort() would
            # end in SIGSEGV, raise(SIGTERM) would do nothing); bwrap's own init is PID 1.
            "--cap-drop", "ALL", "--die-with-parent", "--new-session",
            "--hostname", "judge", "--proc", "/proc", "--dev", "/dev"]
    for mount in mounts:
        args += _bwrap_mount(mount)
    # The run's POSIX message queues as files: a warm server removes a case's there.
    args += ["--mqueue", MQUEUE_INSIDE]
    # bwrap builds its root and /dev on tmpfs of no size, writable by the program: files there
    # would outlive a warm case and be read by the next. Only the scratch directories are the
    # program's to write.
    args += ["--remount-ro", "/dev", "--remount-ro", "/"]
    args += ["--chdir", WORK_DIR_INSIDE, "--clearenv"]
    for key, value in env.items():
        args += ["--setenv", key, value]
    return args + ["--"]


def _bwrap_mount(mount: Mount) -> list[str]:
    if mount.kind == "symlink":
        return ["--symlink", mount.source, mount.target]
    if mount.kind == "ro":
        return ["--ro-bind", mount.source, mount.target]
    if mount.kind == "rw":
        return ["--bind", mount.source, mount.target]
    if mount.kind == "tmpfs":
        return ["--size", str(mount.size), "--tmpfs", mount.target]
    return ["--size", str(EMPTY_BYTES), "--tmpfs", mount.target, "--remount-ro", mount.target]


def pipe_prefix() -> list[str]:
    """The last step before the program of a piped run: the pipes become its stdin and stdout."""
    return ["/bin/sh", "-c", f'exec 0<&{PIPE_IN} 1>&{PIPE_OUT} {PIPE_IN}<&- {PIPE_OUT}>&-; exec "$@"',
            "judge-pipes"]


def limit_prefix(limits: Limits) -> list[str]:
    """prlimit with the per-process backstops of ``limits``."""
    # A PID-namespace init ignores SIGXCPU, so the hard limit (SIGKILL) is the backstop that counts.
    soft, hard = cpu_rlimit(limits.cpu_time)
    args = ["/usr/bin/prlimit", f"--cpu={soft}:{hard}", "--core=0",
            f"--fsize={limits.output}", f"--nofile={limits.open_files}",
            f"--nproc={limits.processes}", f"--stack={limits.stack or 'unlimited'}"]
    if limits.address_space is not None:
        args.append(f"--as={limits.address_space}")
    return args + ["--"]


def outer_env(program_env: dict[str, str], tier: str) -> dict[str, str]:
    """The environment the chain starts with: bwrap sets the program's own (--clearenv,
    --setenv); unshare and env(1) pass theirs on."""
    return {"PATH": SAFE_PATH} if tier == SandboxTier.BWRAP else program_env
