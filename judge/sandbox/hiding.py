"""The unshare tier's file-system view: the same host, with everything a submission has no
business reading (temporary directories, home directories, the project, the judge and its
cache, other runs' scratch) covered by empty size-capped tmpfs, and only the run's own
directories bound back in. Built with util-linux's mount(8) inside the run's user and mount
namespaces, after which every capability is dropped so the program cannot unmount anything.
"""

from __future__ import annotations

import os
import shlex
import tempfile
from pathlib import Path

from judge.sandbox.runtime import PIPE_IN, PIPE_OUT, RUNTIME_PATHS, SCRATCH_BYTES, extra_runtime_paths

# Directories every program may write to on a Linux system, covered by a tmpfs of SCRATCH_BYTES.
WRITABLE = ("/tmp", "/var/tmp", "/dev/shm")
# Directories with other people's files, covered by a tiny read-only-in-practice tmpfs.
PRIVATE = ("/home", "/root", "/run", "/media", "/srv")
# Where the run's own directories wait while the view is built: its tmpfs then stays, covering
# the host's /mnt.
STAGE = "/mnt"
# The run's POSIX message queues, listed as files (the IPC namespace's mqueue file system), so
# that a warm server can remove what a case left there; in the stage, as a host may lack
# /dev/mqueue.
MQUEUE = f"{STAGE}/mqueue"
# Top-level directories of the system itself: a project below one of them is hidden alone, one
# anywhere else with its whole top-level directory (other checkouts of it are often next to it).
SYSTEM_TOP = {"usr", "etc", "opt", "var", "bin", "sbin", "lib", "lib32", "lib64", "libx32", "boot", "proc",
              "sys", "dev", "snap", "nix", "gnu"}
EMPTY_BYTES = 64 << 10
DROP_EVERYTHING = ["/usr/bin/setpriv", "--no-new-privs", "--inh-caps=-all", "--ambient-caps=-all",
                   "--bounding-set=-all",
                   "--securebits=+noroot,+noroot_locked,+no_setuid_fixup,+no_setuid_fixup_locked,+keep_caps_locked",
                   "--"]


def _judge_paths() -> list[str]:
    """The judge's own places: its package, the checkout or project it runs in, its cache."""
    package = Path(__file__).resolve().parent.parent
    found = [str(package)]
    for candidate in (package.parent, Path.cwd(), os.environ.get("JUDGE_ROOT"), os.environ.get("JUDGE_CACHE"),
                      os.environ.get("HOME"), tempfile.gettempdir()):
        if not candidate:
            continue
        path = Path(candidate).resolve()
        top = "/" + path.parts[1] if len(path.parts) > 1 else "/"
        if len(path.parts) > 1 and path.parts[1] not in SYSTEM_TOP and not _holds_or_is_in_runtime(top):
            found.append(top)
        elif not _holds_or_is_in_runtime(str(path)):
            found.append(str(path))
    return found


def _holds_or_is_in_runtime(path: str) -> bool:
    runtime = RUNTIME_PATHS + extra_runtime_paths()
    return path == "/" or any(path == r or r.startswith(path + "/") or path.startswith(r + "/") for r in runtime)


def _covered(path: str, by: list[str]) -> bool:
    return any(path.startswith(other + "/") for other in by)


def _foreign_top_dirs() -> list[str]:
    """Every top-level directory that is not the system's own (/work, /data, a mounted share...):
    what lies there is this machine's business, not a submission's."""
    try:
        names = os.listdir("/")
    except OSError:
        return []
    return [f"/{name}" for name in names
            if name not in SYSTEM_TOP and not _holds_or_is_in_runtime(f"/{name}")]


def hidden_paths() -> list[str]:
    """The directories covered, outermost only (a tmpfs already hides what lies below it)."""
    candidates = sorted({*WRITABLE, *PRIVATE, *_judge_paths(), *_foreign_top_dirs()} - {STAGE}, key=len)
    chosen: list[str] = []
    for path in candidates:
        if os.path.isdir(path) and not os.path.islink(path) and not _covered(path, chosen) and path not in chosen:
            chosen.append(path)
    return chosen


def hiding_script(keep: list[Path], fresh: list[Path]) -> str:
    """A /bin/sh script (run as root of the run's user namespace) that builds the view and then
    runs its arguments with no capabilities, exiting as they do (128 + N when killed by signal N). ``keep``: directories bound back at their path;
    ``fresh``: directories that become empty size-capped tmpfs (nothing written stays on the
    host's disk)."""
    hidden = hidden_paths()
    kept = [str(path) for path in keep if _covered(str(path), hidden) or str(path) in hidden]
    mount = "mount -n"  # -n: no mount table to update (it is the host's, and not ours)
    lines = ["set -e", f"{mount} -t tmpfs -o size={EMPTY_BYTES},mode=755 judge-stage {STAGE}"]
    for index, path in enumerate(kept):
        lines += [f"mkdir {STAGE}/{index}", f"{mount} --bind {shlex.quote(path)} {STAGE}/{index}"]
    for path in hidden:
        size = SCRATCH_BYTES if path in WRITABLE else EMPTY_BYTES
        lines.append(f"{mount} -t tmpfs -o size={size},mode=1777 judge-hidden {shlex.quote(path)}")
    for index, path in enumerate(kept):
        lines += [f"mkdir -p {shlex.quote(path)}", f"{mount} --move {STAGE}/{index} {shlex.quote(path)}"]
    for path in map(str, fresh):
        lines += [f"mkdir -p {shlex.quote(path)}",
                  f"{mount} -t tmpfs -o size={SCRATCH_BYTES},mode=755 judge-work {shlex.quote(path)}"]
    lines += [f"mkdir {MQUEUE}", f"{mount} -t mqueue judge-mqueue {MQUEUE}"]
    # What covers the host is read-only once the view is built: a file written there would
    # outlive a warm case (only the run's own directories are emptied after each) and be read
    # by the next.
    for path in [STAGE, *(path for path in hidden if path not in WRITABLE)]:
        lines.append(f"{mount} -t tmpfs -o remount,ro judge-hidden {shlex.quote(path)}")
    # The shell stays as the namespace's PID 1 (an init): the kernel ignores the signals a PID 1
    # sends itself or gets from its own file-size limit, which the program must not be.
    # A command in the background gets /dev/null as stdin unless it is given one; the shell's own
    # stderr goes to /dev/null from here on, so that its "Aborted" or "Killed" never ends up in
    # the program's stderr.
    lines += ["set +e", "exec 3<&0 4>&2 2>/dev/null",
              f"{' '.join(DROP_EVERYTHING)} \"$@\" <&3 2>&4 3<&- 4>&- &",
              f"exec 3<&- 4>&- {PIPE_IN}<&- {PIPE_OUT}>&-",  # a piped run's pipes are the program's alone
              "wait $!", "exit $?"]
    return "\n".join(lines)
