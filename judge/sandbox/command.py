"""Command assembly: the chain of small system tools a sandboxed program is started through.

    [setpriv to a slot uid] -> [bwrap | unshare] -> prlimit -> program

The root tier drops to the slot uid inside the view instead, once bwrap (run as root, without
a user namespace) has built it:

    bwrap -> setpriv to a slot uid, no capabilities -> prlimit -> program
"""

from __future__ import annotations

import os
from pathlib import Path

from judge.harness.process_watch import cpu_rlimit
from judge.model.vocabulary import SandboxTier
from judge.sandbox.limits import Limits
from judge.sandbox.new_root import NO_PRIVILEGES, new_root_script
from judge.sandbox.runtime import INIT_INFO_FD, PIPE_IN, PIPE_OUT
from judge.sandbox.view import EMPTY_BYTES, Mount, ordered, runtime_mounts, scratch_mounts

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


def outer_prefix(tier: str, uid: int) -> list[str]:
    """What starts the chain: the drop to the slot uid, except in the root tier, whose bwrap
    must run as root to make namespaces without a user namespace (it drops inside the view)."""
    return [] if tier == SandboxTier.ROOT else slot_prefix(uid)


def root_drop(uid: int) -> list[str]:
    """The root tier's step into the program: from root to the slot uid and its group alone,
    with every capability gone (permitted, effective, inheritable, ambient and bounding) and no
    new privileges on exec, so no setuid binary or file capability gives any back."""
    return ["/usr/bin/setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", *NO_PRIVILEGES, "--"]


def isolation_prefix(tier: str, bwrap: str, program_dir: Path | None, work_dir: Path, env: dict[str, str],
                     scratch_in_memory: bool = False, hide: bool = False, root_dir: Path | None = None,
                     writable: bool = True, uid: int | None = None, info_fd: int = INIT_INFO_FD) -> list[str]:
    """The namespace part of the chain for ``tier`` (``bwrap`` is the bwrap binary in use).
    ``hide`` (unshare): build the allow-list view on ``root_dir`` (an empty directory of the
    run's own) instead of showing the host. ``writable``: whether the program may write files
    (in its working directory and scratch directories). ``uid``: the slot uid the root tier
    drops to; ``info_fd``: where its bwrap writes its init's pid."""
    mounts = view_mounts(program_dir, None if scratch_in_memory else work_dir, writable)
    if tier == SandboxTier.BWRAP:
        return bwrap_prefix(bwrap, mounts, env)
    if tier == SandboxTier.ROOT:
        if uid is None:
            raise ValueError("the root tier runs the program as a slot uid: give uid")
        # The working directory is entered as the slot uid: it may be the slot uid's alone (0700),
        # and root without CAP_DAC_OVERRIDE (bwrap's last step) may not enter it.
        enter_work = ["/usr/bin/env", "-C", WORK_DIR_INSIDE, f"PWD={WORK_DIR_INSIDE}"]
        return root_bwrap_prefix(bwrap, mounts, env, info_fd) + root_drop(uid) + enter_work
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
    """bwrap's options for the view ``mounts``, in a user namespace of the slot uid's."""
    namespaces = ["--unshare-all", "--unshare-user", "--uid", "1000", "--gid", "1000", "--cap-drop", "ALL"]
    return [bwrap, *namespaces, *_bwrap_view(mounts, env)]


# What bwrap run by root keeps for the program's first step (root_drop), which gives them up:
# changing uid and group, and emptying the bounding set.
ROOT_DROP_CAPABILITIES = ("CAP_SETUID", "CAP_SETGID", "CAP_SETPCAP")


def root_bwrap_prefix(bwrap: str, mounts: list[Mount], env: dict[str, str], info_fd: int) -> list[str]:
    """bwrap's options for the view ``mounts`` when root runs it: the same namespaces made
    directly, with no user namespace (bwrap as root needs none), and only the capabilities the
    drop to the slot uid needs. Scratch directories are made writable by everyone (mode 1777),
    as they belong to root here and not to the program's uid. bwrap tells on ``info_fd`` the pid
    of its init, root's, which the judge reaps (judge/sandbox/root_init.py)."""
    namespaces = ["--info-fd", str(info_fd), "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
                  "--unshare-cgroup-try", "--cap-drop", "ALL"]
    for capability in ROOT_DROP_CAPABILITIES:
        namespaces += ["--cap-add", capability]
    return [bwrap, *namespaces, *_bwrap_view(mounts, env, scratch_mode="1777", chdir=False)]


def _bwrap_view(mounts: list[Mount], env: dict[str, str], scratch_mode: str | None = None,
                chdir: bool = True) -> list[str]:
    """bwrap's options for the view ``mounts``, the environment and (with ``chdir``) the working
    directory."""
    # Not --as-pid-1: the kernel ignores the signals a PID 1 sends itself (abort() would
    # end in SIGSEGV, raise(SIGTERM) would do nothing); bwrap's own init is PID 1.
    args = ["--die-with-parent", "--new-session", "--hostname", "judge", "--proc", "/proc", "--dev", "/dev"]
    if scratch_mode:  # as root, bwrap makes the directories leading to a mount point root's alone (0700)
        for directory in _leading_directories(mounts):
            args += ["--perms", "0755", "--dir", directory]
    for mount in mounts:
        args += _bwrap_mount(mount, scratch_mode)
    # The run's POSIX message queues as files: a warm server removes a case's there.
    args += ["--mqueue", MQUEUE_INSIDE]
    # bwrap builds its root and /dev on tmpfs of no size, writable by the program: files there
    # would outlive a warm case and be read by the next. Only the scratch directories are the
    # program's to write.
    args += ["--remount-ro", "/dev", "--remount-ro", "/"]
    args += [*(["--chdir", WORK_DIR_INSIDE] if chdir else []), "--clearenv"]
    for key, value in env.items():
        args += ["--setenv", key, value]
    return args + ["--"]


def _leading_directories(mounts: list[Mount]) -> list[str]:
    """The directories of the view's own root that lead to a mount point (parents first): not
    those a mount covers, nor any below one (they are the mounted file system's)."""
    targets = {mount.target for mount in mounts}
    leading: set[str] = set()
    for target in targets:
        parent = os.path.dirname(target)
        while parent != "/" and parent not in targets:
            leading.add(parent)
            parent = os.path.dirname(parent)
    return sorted((path for path in leading if not any(path.startswith(target + "/") for target in targets)),
                  key=lambda path: path.count("/"))


def _bwrap_mount(mount: Mount, scratch_mode: str | None = None) -> list[str]:
    if mount.kind == "symlink":
        return ["--symlink", mount.source, mount.target]
    if mount.kind == "ro":
        return ["--ro-bind", mount.source, mount.target]
    if mount.kind == "rw":
        return ["--bind", mount.source, mount.target]
    if mount.kind == "tmpfs":
        mode = ["--perms", scratch_mode] if scratch_mode else []
        return [*mode, "--size", str(mount.size), "--tmpfs", mount.target]
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
    --setenv; the root tier's setpriv passes it on); unshare and env(1) pass theirs on."""
    return {"PATH": SAFE_PATH} if tier in (SandboxTier.BWRAP, SandboxTier.ROOT) else program_env
