"""Why this system refuses unprivileged user namespaces (which the bwrap and unshare tiers need),
and the fixes that exist on it, read from the system's own files: Ubuntu's AppArmor switch,
Debian's sysctl, a zero namespace limit, a chroot, a container, a seccomp filter. `judge doctor`
and every refusal to grade say what this module finds, so each names a fix of this very system
and never one that does not exist there (a sysctl the kernel lacks, a package already installed).

Running the judge as root is a fix everywhere the kernel lets root make namespaces: the root tier
needs no user namespace (see judge/sandbox/tiers.py).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

AS_ROOT = ('run the judge as root (sudo "$(command -v judge)" ...): it then builds the sandbox '
           "without a user namespace (the root tier)")
SYSCTL_FILE = "/etc/sysctl.d/60-judge-userns.conf"
APPARMOR_FILE = "/etc/apparmor.d/judge-bwrap"
CONTAINER_MARKS = ("docker", "containerd", "kubepods", "libpod", "lxc")
# Enough namespaces for every sandbox a machine runs at once (a distribution's usual default).
USER_NAMESPACES = 15000


@dataclass(frozen=True)
class Refusal:
    """Why user namespaces are refused here, and what would let them through (or make them
    needless), each fix a sentence of its own."""

    reason: str
    fixes: tuple[str, ...]
    file: tuple[str, str] | None = None  # (path, text) of a file a fix writes, shown whole by `judge doctor`

    def text(self) -> str:
        """One line: the reason and every fix."""
        return f"user namespaces are refused here: {self.reason}. Fix: " + "; or ".join(self.fixes)


def apparmor_profile(bwrap: str) -> str:
    """An AppArmor profile that lets ``bwrap`` (and only it) make user namespaces, as Ubuntu's own
    profiles do for the programs it ships."""
    return ("abi <abi/4.0>,\ninclude <tunables/global>\n\n"
            f"profile judge-bwrap {bwrap} flags=(unconfined) {{\n  userns,\n}}\n")


def diagnose(kernel_said: str = "", *, as_root: bool, bwrap: str = "/usr/bin/bwrap",
             root: Path = Path("/")) -> Refusal:
    """Why this system refuses user namespaces to the judge's unprivileged processes, read from
    the files below ``root`` (the machine's / unless a test gives a fake tree). ``kernel_said``:
    the error the refused attempt got; ``as_root``: whether the judge runs as root (then the root
    tier is no fix to offer); ``bwrap``: the bwrap an AppArmor profile would be for."""
    for cause in (_no_namespaces_allowed, _debian_switch, _ubuntu_apparmor, _chroot, _container, _seccomp):
        found = cause(root, as_root, bwrap)
        if found:
            return found
    said = f" ({kernel_said})" if kernel_said else ""
    return Refusal(f"the kernel refused to make one{said}, and no switch this judge knows of says why",
                   _with_root((), as_root))


def _with_root(fixes: tuple[str, ...], as_root: bool) -> tuple[str, ...]:
    return fixes if as_root else (*fixes, AS_ROOT)


def _sysctl_fix(name: str, value: int) -> str:
    return (f"`sudo sysctl -w {name}={value}` (and `echo {name}={value} | sudo tee {SYSCTL_FILE}` "
            "to keep it after a reboot)")


def _no_namespaces_allowed(root: Path, as_root: bool, bwrap: str) -> Refusal | None:
    if _read(root, "proc/sys/user/max_user_namespaces") != "0":
        return None
    return Refusal("user.max_user_namespaces is 0, so no process may make one",
                   _with_root((_sysctl_fix("user.max_user_namespaces", USER_NAMESPACES),), as_root))


def _debian_switch(root: Path, as_root: bool, bwrap: str) -> Refusal | None:
    if _read(root, "proc/sys/kernel/unprivileged_userns_clone") != "0":
        return None
    return Refusal("kernel.unprivileged_userns_clone is 0 (Debian's switch), so only root may make one",
                   _with_root((_sysctl_fix("kernel.unprivileged_userns_clone", 1),), as_root))


def _ubuntu_apparmor(root: Path, as_root: bool, bwrap: str) -> Refusal | None:
    if _read(root, "proc/sys/kernel/apparmor_restrict_unprivileged_userns") != "1":
        return None
    profile = apparmor_profile(bwrap).replace("\n", "\\n")
    return Refusal(
        "Ubuntu's AppArmor restricts them (kernel.apparmor_restrict_unprivileged_userns=1): only a program "
        "with an AppArmor profile that allows `userns` may use one",
        _with_root((_sysctl_fix("kernel.apparmor_restrict_unprivileged_userns", 0),
                    f"give the judge's bwrap a profile of its own: `printf '{profile}' | sudo tee {APPARMOR_FILE} "
                    f"&& sudo apparmor_parser -r {APPARMOR_FILE}`"), as_root),
        file=(APPARMOR_FILE, apparmor_profile(bwrap)))


def _chroot(root: Path, as_root: bool, bwrap: str) -> Refusal | None:
    """A chroot is seen where / is no mount point (the kernel lists none at /), or where / is not
    PID 1's root (only root may look at that)."""
    mount_points = [line.split()[4] for line in _read(root, "proc/self/mountinfo").splitlines()
                    if len(line.split()) > 4]
    root_is_mounted = "/" in mount_points
    if (not mount_points or root_is_mounted) and not _other_root_than_init(root):
        return None
    outside = "run the judge outside the chroot"
    if root_is_mounted:
        fixes = _with_root((outside,), as_root)
    else:  # the root tier's mount namespace needs / to be a mount point
        fixes = (outside, "run it as root in a chroot whose root is a mount point (`sudo mount --bind DIR DIR` "
                          "before `sudo chroot DIR`, as arch-chroot does): the root tier needs no user namespace")
    return Refusal("the judge runs in a chroot, where the kernel refuses them to every process", fixes)


def _other_root_than_init(root: Path) -> bool:
    try:
        return not os.path.samestat(os.stat(root), os.stat(root / "proc/1/root"))
    except OSError:  # PID 1's root is only root's to look at
        return False


def _container(root: Path, as_root: bool, bwrap: str) -> Refusal | None:
    cgroups = _read(root, "proc/1/cgroup")
    marked = ((root / ".dockerenv").exists() or (root / "run/.containerenv").exists()
              or any(mark in cgroups for mark in CONTAINER_MARKS))
    if not marked:
        return None
    filtered = " (its seccomp filter)" if _seccomp_mode(root) == "2" else ""
    # seccomp: the default profiles refuse user namespaces; systempaths (podman: unmask): a
    # container's /proc has masked paths, and the kernel then refuses a new /proc to a user
    # namespace; apparmor: docker-default refuses mount(2).
    for_users = ("start the container with `--security-opt seccomp=unconfined --security-opt "
                 "systempaths=unconfined` (podman: `--security-opt unmask=ALL`), and also `--security-opt "
                 "apparmor=unconfined` where the host runs AppArmor")
    # As root, bwrap makes the namespaces itself (SYS_ADMIN) and brings up the run's loopback
    # device in its network namespace (NET_ADMIN); a container's root has neither by default.
    for_root = ("run the judge as root in a container started with `--cap-add SYS_ADMIN --cap-add NET_ADMIN` "
                "(and `--security-opt apparmor=unconfined` where the host runs AppArmor): the root tier "
                "needs no user namespace")
    return Refusal(f"the judge runs in a container that refuses them{filtered}", (for_users, for_root))


def _seccomp(root: Path, as_root: bool, bwrap: str) -> Refusal | None:
    if _seccomp_mode(root) != "2":
        return None
    return Refusal("a seccomp filter on the judge's process refuses them (set by whatever started it: a "
                   "service manager's RestrictNamespaces=, a CI runner, another sandbox)",
                   _with_root(("start the judge without that filter",), as_root))


def _seccomp_mode(root: Path) -> str:
    for line in _read(root, "proc/self/status").splitlines():
        if line.startswith("Seccomp:"):
            return line.split(":", 1)[1].strip()
    return ""


def _read(root: Path, name: str) -> str:
    """A file of ``root`` stripped, "" when it does not exist here (a switch this kernel lacks)."""
    try:
        return (root / name).read_text().strip()
    except OSError:
        return ""
