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
DEVICE_LINKS = (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"),
                ("stderr", "/proc/self/fd/2"))
# setpriv's options that leave a process no capability and no way to gain one (exec included).
NO_PRIVILEGES = ["--no-new-privs", "--inh-caps=-all", "--ambient-caps=-all", "--bounding-set=-all"]
DROP_EVERYTHING = ["/usr/bin/setpriv", *NO_PRIVILEGES,
                   "--securebits=+noroot,+noroot_locked,+no_setuid_fixup,+no_setuid_fixup_locked,+keep_caps_locked",
                   "--"]


def new_root_script(root: Path, mounts: list[Mount]) -> str:
    """A /bin/sh script (run as root of the run's user namespace) that builds the view of
    ``mounts`` (parents first) on ``root``, an empty directory of the run's own, makes it the
    root, and then runs its arguments with no capabilities, exiting as they do (128 + N when
    killed by signal N). Each command is a program started, so mount points are made in two
    commands for all, and a read-only bind is one mount(8) call."""
    dev = f"{root}/dev"
    lines = ["set -e", f"{MOUNT} -t tmpfs -o size={EMPTY_BYTES},mode=755 judge-root {_q(root)}",
             f"mkdir {_q(root)}/proc {_q(dev)}", f"{MOUNT} --rbind /proc {_q(root)}/proc",
             f"{MOUNT} -t tmpfs -o size={EMPTY_BYTES},mode=755 judge-dev {_q(dev)}"]
    directories, files = _mount_points(root, mounts)
    lines += [f"mkdir -p {' '.join(map(_q, directories))}", f"touch {' '.join(map(_q, files))}"]
    lines += [f"{MOUNT} --bind /dev/{name} {_q(dev)}/{name}" for name in DEVICES]
    lines += [f"ln -s {target} {_q(dev)}/{name}" for name, target in DEVICE_LINKS]
    lines.append(f"{MOUNT} -t mqueue judge-mqueue {_q(dev)}/mqueue")
    for mount in mounts:
        lines.append(_mount_command(root, mount))
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


def _mount_points(root: Path, mounts: list[Mount]) -> tuple[list[str], list[str]]:
    """(directories, files) to make before mounting: every target's, in the root's tmpfs or
    /dev's. A cover inside a bound directory gets one there too, hidden by the bind that comes
    later: its real mount point is the bound directory's own."""
    directories = [f"{root}/dev/mqueue"]
    files = [f"{root}/dev/{name}" for name in DEVICES]
    for mount in mounts:
        target = f"{root}{mount.target}"
        if mount.kind == "symlink" or (mount.kind in ("ro", "rw") and not os.path.isdir(mount.source)):
            directories.append(os.path.dirname(target))
            files += [target] if mount.kind != "symlink" else []
        else:
            directories.append(target)
    return list(dict.fromkeys(directories)), files


def _mount_command(root: Path, mount: Mount) -> str:
    target = _q(f"{root}{mount.target}")
    if mount.kind == "symlink":
        return f"ln -s {_q(mount.source)} {target}"
    if mount.kind in ("ro", "rw"):
        # util-linux 2.27 on: a bind with options is the bind and its remount, in one call.
        return f"{MOUNT} --bind {'-o ro ' if mount.kind == 'ro' else ''}{_q(mount.source)} {target}"
    if mount.kind == "tmpfs":
        return f"{MOUNT} -t tmpfs -o size={mount.size},mode=1777 judge-scratch {target}"
    return f"{MOUNT} -t tmpfs -o size={EMPTY_BYTES},mode=755,ro judge-cover {target}"


def _q(path: Path | str) -> str:
    return shlex.quote(str(path))
