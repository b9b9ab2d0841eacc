"""The unshare tier's view: the allow-list of judge/sandbox/view.py built with util-linux's
mount(8) by a shell that is root of the run's user namespace, on an empty tmpfs that then
becomes the mount namespace's root (pivot_root), with the host's root detached: nothing of the
host is left in the namespace to reach, not even through /proc/1/root. Every capability is
dropped before the program starts, so it cannot mount or unmount anything.
"""

from __future__ import annotations

import os
import shlex
from pathlib import Path

from judge.sandbox.runtime import PIPE_IN, PIPE_OUT
from judge.sandbox.view import DEVICES, EMPTY_BYTES, Mount

MOUNT = "/usr/bin/mount -n"  # -n: no mount table to update (it is the host's, and not ours)
DROP_EVERYTHING = ["/usr/bin/setpriv", "--no-new-privs", "--inh-caps=-all", "--ambient-caps=-all",
                   "--bounding-set=-all",
                   "--securebits=+noroot,+noroot_locked,+no_setuid_fixup,+no_setuid_fixup_locked,+keep_caps_locked",
                   "--"]


def new_root_script(root: Path, mounts: list[Mount]) -> str:
    """A /bin/sh script (run as root of the run's user namespace) that builds the view of
    ``mounts`` (parents first) on ``root``, an empty directory of the run's own, makes it the
    root, and then runs its arguments with no capabilities, exiting as they do (128 + N when
    killed by signal N)."""
    lines = ["set -e", f"{MOUNT} -t tmpfs -o size={EMPTY_BYTES},mode=755 judge-root {_q(root)}",
             *_proc_and_dev(root)]
    for mount in mounts:
        lines += _steps(root, mount)
    # The root becomes the view's: the host's old root is detached, then what the program must
    # not write is made read-only (the root and /dev: a file there would outlive a warm case).
    lines += [f"cd {_q(root)}", "/usr/sbin/pivot_root . .", "/usr/bin/umount -l .", "cd /", "unset OLDPWD",
              f"{MOUNT} -t tmpfs -o remount,ro judge-dev /dev", f"{MOUNT} -t tmpfs -o remount,ro judge-root /"]
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


def _steps(root: Path, mount: Mount) -> list[str]:
    target = _q(f"{root}{mount.target}")
    parent = _q(f"{root}{os.path.dirname(mount.target)}")
    if mount.kind == "symlink":
        return [f"mkdir -p {parent}", f"ln -s {_q(mount.source)} {target}"]
    if mount.kind in ("ro", "rw"):
        make = f"mkdir -p {target}" if os.path.isdir(mount.source) else f"mkdir -p {parent} && touch {target}"
        steps = [make, f"{MOUNT} --bind {_q(mount.source)} {target}"]
        return steps + ([f"{MOUNT} -o remount,bind,ro {target}"] if mount.kind == "ro" else [])
    if mount.kind == "tmpfs":
        return [f"mkdir -p {target}", f"{MOUNT} -t tmpfs -o size={mount.size},mode=1777 judge-scratch {target}"]
    # A cover's mount point is there already when it hides part of a bound directory (which is
    # read-only), not when it stands for a scratch directory a program may not write.
    return [f"mkdir -p {target}", f"{MOUNT} -t tmpfs -o size={EMPTY_BYTES},mode=755,ro judge-cover {target}"]


def _proc_and_dev(root: Path) -> list[str]:
    """The PID namespace's /proc, and a /dev of the usual character devices and the run's POSIX
    message queues as files (which a warm server empties after each case)."""
    dev = f"{root}/dev"
    lines = [f"mkdir -p {_q(root)}/proc {_q(dev)}", f"{MOUNT} --rbind /proc {_q(root)}/proc",
             f"{MOUNT} -t tmpfs -o size={EMPTY_BYTES},mode=755 judge-dev {_q(dev)}"]
    for name in DEVICES:
        lines += [f"touch {_q(dev)}/{name}", f"{MOUNT} --bind /dev/{name} {_q(dev)}/{name}"]
    for name, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"),
                         ("stderr", "/proc/self/fd/2")):
        lines.append(f"ln -s {target} {_q(dev)}/{name}")
    return lines + [f"mkdir {_q(dev)}/mqueue", f"{MOUNT} -t mqueue judge-mqueue {_q(dev)}/mqueue"]


def _q(path: Path | str) -> str:
    return shlex.quote(str(path))
