"""What the sandbox probes found on this machine, remembered between judge commands (and the
toolchains' version lines: see judge/languages/base.py).

Proving that a bwrap (or the unshare tier) sandboxes here means running it as a slot uid, which
took 60-140 ms of every `judge run`. A probe's outcome is kept in the judge's cache folder
($JUDGE_CACHE, else the compile cache's default), under a key made of everything it depends on:
the identity (path, size, mtime, inode) of each binary it ran, the kernel's boot and release, the
user-namespace switches, the user and its capabilities and seccomp mode, and the sandbox's own code. Anything about the entry that
cannot be trusted (a changed key, a file that does not parse, one another user could write)
means probing again, never guessing. A cached success only saves the probe: if that bwrap stops
working with the same key, every run in it fails (the program never runs unsandboxed), and
`judge doctor` probes afresh and rewrites the entry.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Callable

from judge.sandbox.host import OTHERS_MAY_WRITE, file_owner_id, user_tag

CACHE_ENV = "JUDGE_CACHE"  # the folder judge/languages/build_cache.py keeps compiled programs in
FILE_NAME = ".sandbox-probes.json"  # a dot name: the compile cache's sweep leaves it alone
# Switches that decide whether unprivileged user namespaces (and so bwrap) work.
KERNEL_SWITCHES = ("/proc/sys/kernel/random/boot_id", "/proc/sys/kernel/osrelease",
                   "/proc/sys/kernel/unprivileged_userns_clone", "/proc/sys/user/max_user_namespaces",
                   "/proc/sys/kernel/apparmor_restrict_unprivileged_userns")
SANDBOX_CODE = Path(__file__).resolve().parent  # a changed probe command must not reuse old outcomes


def remembered(name: str, binaries: list[str], probe: Callable[[], object],
               valid: Callable[[object], bool]) -> object:
    """``probe()``'s outcome (JSON data), from the cache when its key still holds and ``valid``
    accepts what is stored; else probed and remembered. ``binaries``: the programs the probe
    runs, whose identity the outcome depends on."""
    key = probe_key(binaries)
    entries = _read()
    entry = entries.get(name)
    if (not _afresh and isinstance(entry, dict) and entry.get("key") == key
            and "value" in entry and valid(entry["value"])):
        return entry["value"]
    value = probe()
    _write({**entries, name: {"key": key, "value": value}})
    return value


_afresh = False  # set by probe_afresh()


def probe_afresh() -> None:
    """Make this process probe everything again (and remember the new outcomes): `judge doctor`
    reports what works now, not what worked before."""
    global _afresh
    _afresh = True


def probe_key(binaries: list[str]) -> str:
    """A digest of everything a probe's outcome depends on (see the module's docstring)."""
    parts = [user_tag(), _privileges(), _standing(), *map(file_identity, binaries), *map(_contents, KERNEL_SWITCHES),
             *(file_identity(str(path)) for path in sorted(SANDBOX_CODE.glob("*.py")))]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def _standing() -> str:
    """The judge's root directory and its user and mount namespaces: a probe made in a chroot or
    a container says nothing of the machine around it, though both may share one /tmp."""
    root = os.stat("/")
    namespaces = []
    for name in ("user", "mnt"):
        try:
            namespaces.append(os.readlink(f"/proc/self/ns/{name}"))
        except OSError:
            namespaces.append(f"{name}: absent")
    return " ".join([f"root {root.st_dev}:{root.st_ino}", *namespaces])


def _privileges() -> str:
    """The judge's capabilities and seccomp mode: the root tier works only with enough of the
    first (a container's root may lack them), and a seccomp filter may refuse namespaces."""
    try:
        status = Path("/proc/self/status").read_text().splitlines()
    except OSError:
        return "status: absent"
    return " ".join(line for line in status if line.startswith(("CapEff:", "CapBnd:", "Seccomp:")))


def file_identity(path: str) -> str:
    """Path, size, mtime and inode of the file ``path`` leads to (and of the link, if it is one)."""
    try:
        link, target = os.lstat(path), os.stat(path)
    except OSError as error:
        return f"{path}: {error.strerror}"
    return f"{path}:{link.st_ino}:{target.st_size}:{target.st_mtime_ns}:{target.st_ino}:{target.st_dev}"


def _contents(path: str) -> str:
    try:
        return f"{path}={Path(path).read_text().strip()}"
    except OSError:
        return f"{path}: absent"


def cache_file() -> Path:
    return Path(os.environ.get(CACHE_ENV) or Path(tempfile.gettempdir()) / f"judge-cache-{user_tag()}") / FILE_NAME


def _read() -> dict:
    """The remembered entries; empty when the file is missing, broken or not the judge's own."""
    path = cache_file()
    try:
        with open(path, "rb") as file:
            status = os.fstat(file.fileno())
            if not _trusted(status) or not _trusted(os.stat(path.parent)):
                return {}
            entries = json.loads(file.read())
    except (OSError, ValueError):
        return {}
    return entries if isinstance(entries, dict) else {}


def _trusted(status: os.stat_result) -> bool:
    """Owned by this user and writable by no one else: what another user wrote could claim a
    broken sandbox works (that only fails runs) or hide a working one (weakening them)."""
    return status.st_uid == file_owner_id() and not status.st_mode & OTHERS_MAY_WRITE


def _write(entries: dict) -> None:
    """Replace the file at once (a reader never sees half of it); a folder that cannot be
    written only means probing again next time."""
    path = cache_file()
    try:
        path.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f"{FILE_NAME}.")
    except OSError:
        return
    try:
        with os.fdopen(descriptor, "w") as file:
            json.dump(entries, file)
        os.replace(temporary, path)
    except OSError:
        Path(temporary).unlink(missing_ok=True)
