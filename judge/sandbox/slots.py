"""Slots: one unprivileged uid per concurrent run, so that "every process of this uid" is exactly
"everything this run started". Slots are shared by every judge process on the machine (two
graders, pytest-xdist workers), so they are taken with flock on a lock file per uid; the kernel
releases the lock if a judge dies.

Also here: killing and reaping a run's processes, and stopping every run of this judge at once
when it is told to stop (SIGINT, SIGTERM, SIGHUP).
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from judge.harness.case_control import SHARED_DIRECTORIES, remove_owned_by
from judge.harness.ipc_objects import KEYCTL_CLEAR, KEYCTL_SYSCALL, SHARED_KEYRINGS, remove_created_by
from judge.harness.proc_usage import is_zombie, processes_of_uid
from judge.sandbox.command import running_as_root, slot_prefix
from judge.sandbox.host import file_locking
from judge.sandbox.limits import RunsStopped, SandboxError
from judge.sandbox.scratch import scratch_dir

fcntl = file_locking()  # slots are root's, on Linux; Windows has no fcntl to import
FIRST_SLOT_UID = 61000
SLOT_COUNT = 64
# One place for the whole machine, whatever $TMPDIR a judge was started with: two judges that
# looked for locks in two places would take the same uid, and each would kill the other's runs
# and count their memory. /run is the machine's own (cleared at boot, as stale locks should be).
SLOT_LOCK_DIRS = (Path("/run/judge-slots"), Path("/tmp/judge-slots"))
# (Windows has no SIGHUP.)
STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name))
_PR_SET_CHILD_SUBREAPER = 36

spawned_pids: set[int] = set()  # processes this judge started and has not reaped yet
# Every slot in use by this judge process, with its scratch directory: what ``stop_all_runs``
# kills and removes.
_active_slots: dict[int, Path] = {}
_active_lock = threading.Lock()
_stopping = threading.Event()


def acquire_slot() -> tuple[int, int | None]:
    """(uid, lock fd) of a free slot; without root there is one slot, the judge's own uid."""
    if not running_as_root():
        return os.geteuid(), None
    become_subreaper()  # from the first run on, even a probe's orphans are the judge's to reap
    lock_dir = slot_lock_dir()
    start = (os.getpid() + threading.get_ident()) % SLOT_COUNT
    while True:
        for offset in range(SLOT_COUNT):
            uid = FIRST_SLOT_UID + (start + offset) % SLOT_COUNT
            fd = os.open(lock_dir / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                # Whatever a judge killed with SIGKILL left running in it, or left on the host.
                kill_slot(uid)
                clean_host_of(uid)
                return uid, fd
            except BlockingIOError:
                os.close(fd)
        time.sleep(0.05)


@functools.cache
def slot_lock_dir() -> Path:
    """The machine's folder of slot locks: the first of SLOT_LOCK_DIRS that can be made (a
    machine without a writable /run uses /tmp's, the same for every judge on it)."""
    for candidate in SLOT_LOCK_DIRS:
        try:
            candidate.mkdir(mode=0o700, exist_ok=True)
            return candidate
        except OSError:
            continue
    raise SandboxError(f"cannot make a folder for the sandbox's slot locks ({' or '.join(map(str, SLOT_LOCK_DIRS))}); "
                       f"make one of them writable by root")


def release_slot(fd: int | None) -> None:
    if fd is not None:
        os.close(fd)  # closing the file drops its lock


def enter_slot(uid: int, scratch: Path) -> None:
    """Register a slot in use (RunsStopped if the judge is stopping: nothing new starts)."""
    with _active_lock:
        if _stopping.is_set():
            raise RunsStopped()
        _active_slots[uid] = scratch


def leave_slot(uid: int, check: bool = True) -> None:
    """Forget a slot; with ``check``, raise RunsStopped if the judge is stopping (whatever the
    run did, it was cut short by the judge, not by the program)."""
    with _active_lock:
        _active_slots.pop(uid, None)
    if check and _stopping.is_set():
        raise RunsStopped()


class Claim:
    """A slot taken for one run or server, with its scratch directory; ``give_back`` kills
    whatever still runs under its uid and removes the directory."""

    def __init__(self, kind: str) -> None:
        become_subreaper()
        self.uid, self._lock = acquire_slot()
        self.scratch = scratch_dir(kind)
        try:
            enter_slot(self.uid, self.scratch)
        except RunsStopped:
            self.give_back(check=False)
            raise

    def give_back(self, check: bool = True) -> None:
        """Free the slot; with ``check``, raise RunsStopped if the judge is stopping."""
        kill_slot(self.uid)
        clean_host_of(self.uid)
        shutil.rmtree(self.scratch, ignore_errors=True)
        release_slot(self._lock)
        leave_slot(self.uid, check)


def clean_host_of(uid: int) -> None:
    """Remove what runs in slot ``uid`` left on the host (only the none tier lets them): files in
    its shared directories, System V IPC objects, keys in the uid's keyrings."""
    sweep_shared_directories(uid)
    remove_host_ipc_objects(uid)
    clear_host_keyrings(uid)


def sweep_shared_directories(uid: int) -> None:
    """Remove what a run left in the host's world-writable directories (only a tier without a
    mount namespace lets it write there; elsewhere these are the run's own tmpfs)."""
    if running_as_root():
        remove_owned_by(uid, SHARED_DIRECTORIES)


def remove_host_ipc_objects(uid: int) -> None:
    """Remove the System V IPC objects a run made in the host's IPC namespace (only a tier
    without an IPC namespace lets it make them there; elsewhere they go with the run's)."""
    if running_as_root():
        remove_created_by(uid)


def clear_host_keyrings(uid: int) -> None:
    """Unlink the keys a run left in the keyrings its uid shares in the host's user namespace
    (only a tier without a user namespace lets it; elsewhere they go with the run's). A keyring
    is reached only as its uid, so a process of the slot's clears them, and only when
    /proc/key-users shows keys there besides the two keyrings themselves."""
    if not running_as_root() or _keys_charged_to(uid) <= 2:
        return
    number = KEYCTL_SYSCALL.get(os.uname().machine)
    if number is None:
        return
    # The code is given whole, not imported from judge/harness: the judge's own files may lie
    # where a slot's uid cannot read them (a virtualenv under /root).
    clear = (f"import ctypes; libc = ctypes.CDLL(None)\n"
             f"for keyring in {SHARED_KEYRINGS!r}: libc.syscall({number}, {KEYCTL_CLEAR}, keyring)")
    try:
        subprocess.run([*slot_prefix(uid), sys.executable, "-I", "-S", "-c", clear], env={}, capture_output=True,
                       timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        pass


def _keys_charged_to(uid: int) -> int:
    """How many keys (keyrings included) the kernel charges to ``uid`` (0 if none or unknown)."""
    try:
        lines = Path("/proc/key-users").read_text().splitlines()
    except OSError:
        return 0
    for line in lines:
        fields = line.split()
        if fields and fields[0] == f"{uid}:":
            try:
                return int(fields[3].split("/")[0])
            except (IndexError, ValueError):
                return 0
    return 0


SLOT_KILL_SECONDS = 5.0


def kill_slot(uid: int) -> None:
    """Kill every process owned by ``uid`` (daemons a run left behind in the weaker tiers)."""
    if not running_as_root():
        return
    # Until every one is gone (within a bound): a killed process holding much memory takes a
    # while to release it, and a slot given back before then charges that memory to the next
    # run in it (a 2 MiB program was seen as MLE at 1.3 GB on a loaded machine).
    deadline = time.monotonic() + SLOT_KILL_SECONDS
    while True:
        # A zombie runs nothing and holds no memory: the judge reaps its own below, and one
        # whose parent is another (the machine's init, for one orphaned before the judge was a
        # subreaper) is for that parent to reap, however long it takes.
        owned = processes_of_uid(uid)
        pids = [pid for pid in owned if not is_zombie(pid)]
        if not pids:
            if owned:  # zombies only: the judge's own are reaped (a scan of /proc, so only then)
                reap_orphans()
            return
        if time.monotonic() > deadline:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        reap_orphans()
        time.sleep(0.01)


def kill_group(pid: int) -> None:
    """SIGKILL a started chain: its process group (it runs in a session of its own) and itself."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def stop_all_runs() -> None:
    """Kill every sandboxed process this judge started and remove their scratch directories;
    from now on every run raises RunsStopped instead of starting. For a judge that is ending
    (SIGINT, SIGTERM, SIGHUP): safe to call from a signal handler."""
    _stopping.set()
    with _active_lock:
        slots = dict(_active_slots)
    for pid in list(spawned_pids):
        kill_group(pid)
    for uid, scratch in slots.items():
        kill_slot(uid)
        shutil.rmtree(scratch, ignore_errors=True)


def stopping() -> bool:
    """True once ``stop_all_runs`` was called."""
    return _stopping.is_set()


@contextlib.contextmanager
def stop_on_signals():
    """While in this block (main thread only), SIGINT, SIGTERM and SIGHUP stop every run at once
    and raise RunsStopped in the main thread; a second signal ends the judge immediately."""
    def on_signal(signum, _frame):
        if _stopping.is_set():
            os._exit(128 + signum)
        stop_all_runs()
        raise RunsStopped(signum)

    previous = {number: signal.signal(number, on_signal) for number in STOP_SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


@functools.cache
def become_subreaper() -> None:
    """Orphans of a run are re-parented to the judge (not init), so it can reap them at once."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def reap_orphans() -> None:
    """Reap zombies of sandboxed runs re-parented to the judge (it is their subreaper).

    Only processes of a sandbox slot uid are touched: the judge may have other children (a
    toolchain probe in another thread, or those of a program that embeds it, such as pytest).
    """
    me = str(os.getpid())
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) in spawned_pids:
            continue
        try:
            if not FIRST_SLOT_UID <= entry.stat().st_uid < FIRST_SLOT_UID + SLOT_COUNT:
                continue
            with open(f"/proc/{entry.name}/stat", "rb") as stat:
                parent = stat.read().rsplit(b")", 1)[1].split()[1].decode()
            if parent == me:
                os.waitpid(int(entry.name), os.WNOHANG)
        except (OSError, IndexError, ChildProcessError):
            continue
