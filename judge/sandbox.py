"""Run one untrusted program under limits and isolation, and measure it.

The sandbox is built from small system tools that exec one another, so no native code has to be
compiled and nothing runs between fork and exec in the judge (safe with threads):

    [setpriv to a slot uid] -> [bwrap | unshare] -> prlimit -> program

Isolation tiers, strongest first (probed once, see ``sandbox_tier``):
- ``bwrap``: new user, PID, network, IPC, UTS and mount namespaces; the program sees a read-only
  runtime (/usr and friends), its own program files and an empty writable working directory.
- ``unshare``: new user, PID and network namespaces, but the host file system stays visible.
- ``none``: limits only; a loud warning is printed.
When the judge runs as root, every tier first drops to a dedicated unprivileged uid, because the
kernel exempts root from RLIMIT_NPROC and lets root read everything.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import functools
import math
import os
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from judge.errors import SandboxError
from judge.harness.proc_usage import descendants, processes_of_uid, usage

TIERS = ("bwrap", "unshare", "none")
SANDBOX_ENV = "JUDGE_SANDBOX"
FIRST_SLOT_UID = 61000
SLOT_COUNT = 64
STDERR_KEEP = 64 * 1024
POLL = 0.05  # seconds between checks of a running program's CPU time and memory
CPU_GRACE = 0.05  # measured CPU may pass the limit by this much before the run is stopped
ADDRESS_SPACE_ALLOWANCE = 1 << 30
SCRATCH_BYTES = 64 << 20  # size of the in-memory working directory and /tmp under bwrap
STACK_LIMIT = 64 << 20  # deep recursion is normal in contest code; threads get as much
PROGRAM_DIR_INSIDE = "/prog"
WORK_DIR_INSIDE = "/sandbox"
SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"
# Host paths a runtime needs, bound read-only into the bwrap view when they exist.
# Each language adds its own (judge.languages.runtime_paths).
RUNTIME_PATHS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
                 "/etc/alternatives", "/etc/ld.so.cache", "/etc/ssl/certs", "/etc/localtime")


@dataclass(frozen=True)
class Limits:
    """Resource limits for one run. Times in seconds, sizes in bytes."""

    cpu_time: float
    wall_time: float
    memory: int
    output: int
    processes: int = 64
    open_files: int = 256
    limit_address_space: bool = True  # False for runtimes that reserve huge virtual memory
    memory_slack: int = 0  # resident memory a runtime itself needs on top of the limit (JVM, node)


@dataclass
class Outcome:
    """What happened when a program ran: plain measurements, no judgement."""

    exit_code: int | None = None
    signal: int | None = None
    cpu_time: float = 0.0
    wall_time: float = 0.0
    memory_kb: int = 0
    stdout: bytes = b""
    stderr: bytes = b""
    wall_timed_out: bool = False
    output_exceeded: bool = False
    internal_error: str | None = None
    ended_at: float = 0.0  # time.monotonic() when the program was seen to end (who ended first?)




class RunsStopped(KeyboardInterrupt):
    """The judge is stopping (a signal): runs in progress were killed and give no outcome, and
    no new run starts. A KeyboardInterrupt, so that nothing catching Exception records it."""

    def __init__(self, signum: int = signal.SIGINT) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_status(self) -> int:
        """The shell's convention for a process ended by a signal: 128 + its number."""
        return 128 + self.signum


# ---------------------------------------------------------------------------------------------
# Tier probing

def _running_as_root() -> bool:
    return os.geteuid() == 0


def _slot_prefix(uid: int) -> list[str]:
    if not _running_as_root():
        return []
    return ["/usr/bin/setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "--"]


def _probe_command(tier: str) -> list[str]:
    runtime = _isolation_prefix(tier, program_dir=None, work_dir=Path("/"), env={})
    return _slot_prefix(FIRST_SLOT_UID) + runtime + ["/bin/true"]


@functools.cache
def probe_tier(tier: str) -> str | None:
    """Return None if ``tier`` works on this machine, else the reason it does not."""
    if tier == "none":
        return None
    tool = {"bwrap": "bwrap", "unshare": "unshare"}[tier]
    if not shutil.which(tool):
        return f"`{tool}` is not installed" + (" (Debian package: bubblewrap)" if tool == "bwrap" else "")
    if _running_as_root() and not shutil.which("setpriv"):
        return "`setpriv` (util-linux) is missing"
    try:
        done = subprocess.run(_probe_command(tier), capture_output=True, timeout=20, env={}, check=False)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"{tool} could not start: {error}"
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip().splitlines()
        return f"{tool} failed: {message[-1] if message else 'exit ' + str(done.returncode)}"
    return None


@functools.cache
def sandbox_tier() -> str:
    """The isolation tier in force: forced by $JUDGE_SANDBOX, else the strongest that works."""
    forced = os.environ.get(SANDBOX_ENV, "").strip()
    if forced:
        if forced not in TIERS:
            raise SandboxError(f"{SANDBOX_ENV}={forced!r} is not a sandbox tier; use one of {', '.join(TIERS)}")
        reason = probe_tier(forced)
        if reason:
            raise SandboxError(f"{SANDBOX_ENV}={forced} was asked for, but {reason}")
        return forced
    for tier in TIERS:
        if probe_tier(tier) is None:
            if tier == "none":
                print("judge: WARNING: no namespace isolation is available; submissions run with "
                      "limits only and can read this machine's files. Install bubblewrap.",
                      file=sys.stderr)
            return tier
    return "none"


# ---------------------------------------------------------------------------------------------
# Command assembly

def _isolation_prefix(tier: str, program_dir: Path | None, work_dir: Path, env: dict[str, str],
                      scratch_in_memory: bool = False) -> list[str]:
    if tier == "bwrap":
        return _bwrap_prefix(program_dir, None if scratch_in_memory else work_dir, env)
    # posix_spawn cannot change directory, so the weaker tiers use env(1) to enter the work dir.
    enter = ["/usr/bin/env", "-C", str(work_dir)]
    if tier == "unshare":
        return ["/usr/bin/unshare", "--user", "--map-root-user", "--net", "--pid", "--fork",
                "--kill-child", "--mount", "--mount-proc"] + enter
    return enter


def _bwrap_prefix(program_dir: Path | None, work_dir: Path | None, env: dict[str, str]) -> list[str]:
    """bwrap's view: read-only runtime, the program read-only, and a writable working directory:
    ``work_dir`` bound from the host, or (None) a fresh size-capped tmpfs that cannot fill the
    host's disk."""
    args = ["/usr/bin/bwrap", "--unshare-all", "--unshare-user", "--uid", "1000", "--gid", "1000",
            "--cap-drop", "ALL", "--die-with-parent", "--new-session", "--as-pid-1",
            "--hostname", "judge", "--proc", "/proc", "--dev", "/dev",
            "--size", str(SCRATCH_BYTES), "--tmpfs", "/tmp"]
    for path in RUNTIME_PATHS + _extra_runtime_paths():
        args += _bind_host_path(path)
    if program_dir is not None:
        args += ["--ro-bind", str(program_dir), PROGRAM_DIR_INSIDE]
    if work_dir is None:
        args += ["--size", str(SCRATCH_BYTES), "--tmpfs", WORK_DIR_INSIDE]
    else:
        args += ["--bind", str(work_dir), WORK_DIR_INSIDE]
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


@functools.cache
def _extra_runtime_paths() -> tuple[str, ...]:
    """The paths the languages' runtimes need (a JDK's configuration, a Python outside /usr)."""
    from judge.languages import runtime_paths  # the languages build on this module
    return runtime_paths()


def _limit_prefix(limits: Limits) -> list[str]:
    # A PID-namespace init ignores SIGXCPU, so the hard limit (SIGKILL) is the backstop that counts.
    cpu_seconds = math.ceil(limits.cpu_time) + 1
    args = ["/usr/bin/prlimit", f"--cpu={cpu_seconds}:{cpu_seconds}", "--core=0",
            f"--fsize={limits.output}", f"--nofile={limits.open_files}",
            f"--nproc={limits.processes}", f"--stack={STACK_LIMIT}"]
    if limits.limit_address_space:
        # Only a backstop against one huge allocation: the limit itself is enforced on resident
        # memory, so thread stacks and other reservations that are never touched cost nothing.
        args.append(f"--as={2 * limits.memory + ADDRESS_SPACE_ALLOWANCE}")
    return args + ["--"]


# ---------------------------------------------------------------------------------------------
# Slots: one unprivileged uid per concurrent run, so that "every process of this uid" is exactly
# "everything this run started". Slots are shared by every judge process on the machine (two
# graders, pytest-xdist workers), so they are taken with flock on a lock file per uid; the kernel
# releases the lock if a judge dies.

SLOT_LOCK_DIR = Path(tempfile.gettempdir()) / "judge-slots"
STALE_AFTER = 600.0  # seconds; a dead judge's scratch directory older than this is removed


def _acquire_slot() -> tuple[int, int | None]:
    """(uid, lock fd) of a free slot; without root there is one slot, the judge's own uid."""
    if not _running_as_root():
        return os.geteuid(), None
    SLOT_LOCK_DIR.mkdir(mode=0o700, exist_ok=True)
    start = (os.getpid() + threading.get_ident()) % SLOT_COUNT
    while True:
        for offset in range(SLOT_COUNT):
            uid = FIRST_SLOT_UID + (start + offset) % SLOT_COUNT
            fd = os.open(SLOT_LOCK_DIR / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                _kill_slot(uid)  # whatever a judge killed with SIGKILL left running in it
                return uid, fd
            except BlockingIOError:
                os.close(fd)
        time.sleep(0.05)


def _release_slot(fd: int | None) -> None:
    if fd is not None:
        os.close(fd)  # closing the file drops its lock


def _kill_slot(uid: int) -> None:
    """Kill every process owned by ``uid`` (daemons a run left behind in the weaker tiers)."""
    if not _running_as_root():
        return
    for _ in range(5):
        pids = processes_of_uid(uid)
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        _reap_orphans()
        time.sleep(0.01)


_PR_SET_CHILD_SUBREAPER = 36
_spawned_pids: set[int] = set()
# Every slot in use by this judge process, with its scratch directory: what ``stop_all_runs``
# kills and removes.
_active_slots: dict[int, Path] = {}
_active_lock = threading.Lock()
_stopping = threading.Event()


def _enter_slot(uid: int, scratch: Path) -> None:
    with _active_lock:
        if _stopping.is_set():
            raise RunsStopped()
        _active_slots[uid] = scratch


def _leave_slot(uid: int, check: bool = True) -> None:
    """Forget a slot; with ``check``, raise RunsStopped if the judge is stopping (whatever the
    run did, it was cut short by the judge, not by the program)."""
    with _active_lock:
        _active_slots.pop(uid, None)
    if check and _stopping.is_set():
        raise RunsStopped()


def stop_all_runs() -> None:
    """Kill every sandboxed process this judge started and remove their scratch directories;
    from now on every run raises RunsStopped instead of starting. For a judge that is ending
    (SIGINT, SIGTERM, SIGHUP): safe to call from a signal handler."""
    _stopping.set()
    with _active_lock:
        slots = dict(_active_slots)
    for pid in list(_spawned_pids):
        _kill_group(pid)
    for uid, scratch in slots.items():
        _kill_slot(uid)
        shutil.rmtree(scratch, ignore_errors=True)


def stopping() -> bool:
    """True once ``stop_all_runs`` was called."""
    return _stopping.is_set()


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


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


def _scratch_dir(kind: str) -> Path:
    """A new temporary directory for one run or server, named after this judge process so that
    a later judge can tell it is stale if this one is killed before removing it."""
    _remove_stale_scratch_dirs()
    return Path(tempfile.mkdtemp(prefix=f"judge-{kind}-{os.getpid()}-"))


@functools.cache  # once per judge process
def _remove_stale_scratch_dirs() -> None:
    """Remove the scratch directories of judge processes that no longer exist (killed with
    SIGKILL, say: they never got to clean up). Only old ones: a judge in another PID namespace
    sharing this /tmp would look dead too, and its directories are in use."""
    temporary = Path(tempfile.gettempdir())
    now = time.time()
    # run and server: the sandbox's; problem and submission: what a cluster worker was sent
    for entry in [path for kind in ("run", "server", "problem", "submission")
                  for path in temporary.glob(f"judge-{kind}-*-*")]:
        owner = entry.name.split("-")[2]
        try:
            old = now - entry.stat().st_mtime > STALE_AFTER
        except OSError:
            continue
        if old and owner.isdigit() and not _process_exists(int(owner)):
            shutil.rmtree(entry, ignore_errors=True)


def _process_exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


@functools.cache
def _become_subreaper() -> None:
    """Orphans of a run are re-parented to the judge (not init), so it can reap them at once."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _reap_orphans() -> None:
    """Reap zombies of sandboxed runs re-parented to the judge (it is their subreaper).

    Only processes of a sandbox slot uid are touched: the judge may have other children (a
    toolchain probe in another thread, or those of a program that embeds it, such as pytest).
    """
    me = str(os.getpid())
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) in _spawned_pids:
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


# ---------------------------------------------------------------------------------------------
# Running

def run_sandboxed(command: list[str], *, stdin: bytes, limits: Limits,
                  program_dir: Path | None = None, work_dir: Path | None = None,
                  env: dict[str, str] | None = None, tier: str | None = None,
                  stdio: tuple[int, int] | None = None) -> Outcome:
    """Run ``command`` under ``limits`` with ``stdin`` as its standard input.

    ``stdio`` (file descriptors for standard input and output, such as pipe ends to another
    program) replaces ``stdin`` and the captured output; the sandbox takes them over and closes
    them once the program has them. They must be close-on-exec, so that no other program started
    meanwhile inherits them.

    ``command`` may refer to ``{prog}`` (the read-only program directory) and ``{work}`` (the
    writable working directory); they are replaced by the paths the program sees. When
    ``work_dir`` is None an empty temporary directory is made and removed afterwards.
    """
    tier = tier or sandbox_tier()
    _become_subreaper()
    uid, slot_lock = _acquire_slot()
    owns_work_dir = work_dir is None
    scratch = _scratch_dir("run")
    handed_over = False  # the stdio fds are _run_in_slot's to close from then on
    try:
        _enter_slot(uid, scratch)
        if owns_work_dir:
            work_dir = scratch / "work"
            work_dir.mkdir()
        _hand_over(work_dir, uid)
        handed_over = True
        return _run_in_slot(command, stdin, limits, program_dir, work_dir, env or {}, tier, uid, scratch,
                            scratch_in_memory=owns_work_dir, stdio=stdio)
    finally:
        for fd in () if handed_over else stdio or ():  # never left open when the run could not start
            _close_quietly(fd)
        _kill_slot(uid)
        shutil.rmtree(scratch, ignore_errors=True)
        _release_slot(slot_lock)
        _leave_slot(uid)


def _hand_over(work_dir: Path, uid: int) -> None:
    os.chmod(work_dir.parent, 0o755)
    if _running_as_root():
        for path in [work_dir, *work_dir.rglob("*")]:
            os.lchown(path, uid, uid)


def _close_quietly(fd: int) -> None:
    try:
        os.close(fd)
    except OSError:
        pass


def _run_in_slot(command, stdin, limits, program_dir, work_dir, env, tier, uid, scratch,
                 scratch_in_memory: bool, stdio: tuple[int, int] | None = None) -> Outcome:
    inside = tier == "bwrap"
    prog = PROGRAM_DIR_INSIDE if inside else str(program_dir or "")
    work = WORK_DIR_INSIDE if inside else str(work_dir)
    full_env = {"PATH": SAFE_PATH, "HOME": work, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", **env}
    program = [part.replace("{prog}", prog).replace("{work}", work) for part in command]
    argv = (_slot_prefix(uid) + _isolation_prefix(tier, program_dir, work_dir, full_env, scratch_in_memory)
            + _limit_prefix(limits) + program)
    # stdin and stdout are files: no pipe can deadlock, and RLIMIT_FSIZE caps the output.
    # stderr is a pipe the judge drains and truncates, so chatty debugging output is no OLE.
    stdin_path, stdout_path = scratch / "stdin", scratch / "stdout"
    stdin_path.write_bytes(stdin)
    stdin_path.chmod(0o600)
    stderr_read, stderr_write = os.pipe2(os.O_CLOEXEC)
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, str(stdin_path), os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, str(stdout_path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
        (os.POSIX_SPAWN_DUP2, stderr_write, 2),
    ]
    if stdio is not None:
        actions[:2] = [(os.POSIX_SPAWN_DUP2, stdio[0], 0), (os.POSIX_SPAWN_DUP2, stdio[1], 1)]
    started = time.monotonic()
    try:
        pid = os.posix_spawn(argv[0], argv, full_env if tier == "none" else _outer_env(full_env, tier),
                             file_actions=actions, setsid=True)
    except OSError as error:
        os.close(stderr_read)
        return Outcome(internal_error=f"could not start {argv[0]}: {error}")
    finally:
        os.close(stderr_write)
        for fd in stdio or ():
            _close_quietly(fd)
    _spawned_pids.add(pid)
    try:
        watch = _wait_draining(pid, uid, stderr_read, started + limits.wall_time, limits)
        if watch.stopped:
            _kill_group(pid)
        _, status, usage = os.wait4(pid, 0)
        ended_at = time.monotonic()
    finally:
        _spawned_pids.discard(pid)
        os.close(stderr_read)
    wall = time.monotonic() - started
    # The spawned process starts as a copy of the judge, and the kernel records the judge's peak
    # memory as its own: only a peak above the judge's (read after the run, as the judge may have
    # grown meanwhile) belongs to the program. A run stopped by force was never reaped by its
    # parent, so rusage misses it: the readings from /proc are the better measure then.
    judge_peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    memory_kb = max(usage.ru_maxrss if usage.ru_maxrss > judge_peak_kb else 0, watch.memory_kb)
    cpu_time = max(usage.ru_utime + usage.ru_stime, watch.cpu)
    outcome = _outcome(status, cpu_time, memory_kb, wall, watch.stopped == "wall", stdout_path, watch.stderr,
                       limits, tier)
    outcome.ended_at = ended_at
    return outcome


def _outer_env(program_env: dict[str, str], tier: str) -> dict[str, str]:
    # bwrap sets the program's environment itself (--clearenv/--setenv); unshare passes it on.
    return {"PATH": SAFE_PATH} if tier == "bwrap" else program_env


@dataclass
class _Watch:
    """What the judge saw of a run while it was going: the peaks, and why it was stopped."""

    stderr: bytes = b""
    stopped: str | None = None  # "wall", "cpu", "memory" or None (it ended by itself)
    cpu: float = 0.0
    memory_kb: int = 0


def _run_processes(pid: int, uid: int) -> list[int]:
    """Every process of a run: its tree (every thread's children) and, as root, everything
    running under the run's slot uid (orphans re-parented out of the tree, setsid daemons)."""
    pids = {pid, *descendants(pid)}
    if _running_as_root():
        pids.update(processes_of_uid(uid))
    return sorted(pids)


def _wait_draining(pid: int, uid: int, stderr_fd: int, deadline: float, limits: Limits) -> _Watch:
    """Wait for ``pid`` to exit while reading its stderr (keeping the first STDERR_KEEP bytes).

    Every POLL seconds the CPU time and resident memory of the whole process tree are read, and
    the run is stopped as soon as either passes its limit (RLIMIT_CPU and RLIMIT_AS are per
    process and only backstops).
    """
    pidfd = os.pidfd_open(pid)
    kept = bytearray()
    dropped = 0
    watch = _Watch()
    memory_ceiling_kb = (limits.memory + limits.memory_slack) // 1024
    try:
        poller = select.poll()
        poller.register(pidfd, select.POLLIN)
        poller.register(stderr_fd, select.POLLIN)
        while watch.stopped is None:
            remaining = deadline - time.monotonic()
            cpu, memory_kb = usage(_run_processes(pid, uid), own_processes=2)  # the wrapper and the program
            watch.cpu, watch.memory_kb = max(watch.cpu, cpu), max(watch.memory_kb, memory_kb)
            if remaining <= 0:
                watch.stopped = "wall"
            elif watch.cpu > limits.cpu_time + CPU_GRACE:
                watch.stopped = "cpu"
            elif watch.memory_kb > memory_ceiling_kb:
                watch.stopped = "memory"
            else:
                events = poller.poll(min(remaining, POLL) * 1000)
                if any(fd == pidfd for fd, _ in events):
                    kept += _drain_available(stderr_fd, STDERR_KEEP - len(kept))
                    break
                for fd, _event in events:
                    chunk = os.read(stderr_fd, 65536)
                    if not chunk:
                        poller.unregister(stderr_fd)
                        continue
                    room = STDERR_KEEP - len(kept)
                    kept += chunk[:room]
                    dropped += max(0, len(chunk) - room)
    finally:
        os.close(pidfd)
    watch.stderr = _stderr_text(kept, dropped)
    return watch


def _drain_available(fd: int, room: int) -> bytes:
    """What is left in the pipe once the program exited (without blocking on a leftover writer)."""
    os.set_blocking(fd, False)
    data = bytearray()
    try:
        while len(data) < room:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            data += chunk
    except BlockingIOError:
        pass
    return bytes(data[:max(room, 0)])


def _stderr_text(kept: bytearray, dropped: int) -> bytes:
    return bytes(kept) + (f"\n[... {dropped} more bytes of stderr not kept]".encode() if dropped else b"")


def _kill_group(pid: int) -> None:
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _outcome(status, cpu_time, memory_kb, wall, timed_out, stdout_path: Path, stderr: bytes,
             limits: Limits, tier: str) -> Outcome:
    stdout = stdout_path.read_bytes() if stdout_path.exists() else b""
    exit_code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
    killed_by = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    if tier == "bwrap" and exit_code is not None and 128 < exit_code < 128 + signal.NSIG:
        # bwrap reports its child's death by signal N as exit status 128 + N.
        exit_code, killed_by = None, exit_code - 128
    return Outcome(
        exit_code=exit_code,
        signal=killed_by,
        cpu_time=cpu_time,
        wall_time=wall,
        memory_kb=memory_kb,
        stdout=stdout[: limits.output],
        stderr=stderr,
        wall_timed_out=timed_out,
        output_exceeded=len(stdout) >= limits.output,
    )


# ---------------------------------------------------------------------------------------------
# Long-lived sandboxed processes (the warm Python server)

class SandboxedServer:
    """A process that lives in the sandbox across many runs and talks over its stdin/stdout.

    It holds one slot (uid) for its whole life; ``close`` kills everything it started.
    ``limits`` apply to the server itself (process count, open files, stack); the server
    applies each run's own limits to the children it forks.
    """

    def __init__(self, command: list[str], limits: Limits, program_dir: Path, tier: str | None = None,
                 extra_env: dict[str, str] | None = None) -> None:
        """``command`` is the server's command line, with ``{prog}`` for the program directory
        and ``{tmp}`` for a directory of its own; ``extra_env`` adds to the sandbox's fixed
        environment."""
        self.tier = tier or sandbox_tier()
        _become_subreaper()
        self.uid, self._slot_lock = _acquire_slot()
        self.scratch = _scratch_dir("server")
        try:
            _enter_slot(self.uid, self.scratch)
        except RunsStopped:
            shutil.rmtree(self.scratch, ignore_errors=True)
            _release_slot(self._slot_lock)
            raise
        work_dir = self.scratch / "work"
        work_dir.mkdir()
        _hand_over(work_dir, self.uid)
        inside = self.tier == "bwrap"
        # The server's own files, apart from its working directory: in bwrap a private tmpfs,
        # elsewhere a directory of the scratch area, which goes when the server does.
        own_files = "/tmp" if inside else str(self._own_files_dir())
        env = {"PATH": SAFE_PATH, "HOME": WORK_DIR_INSIDE if inside else str(work_dir),
               "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", **(extra_env or {})}
        prog = PROGRAM_DIR_INSIDE if inside else str(program_dir)
        program = [part.replace("{prog}", prog).replace("{tmp}", own_files) for part in command]
        argv = (_slot_prefix(self.uid) + _isolation_prefix(self.tier, program_dir, work_dir, env, True)
                + _limit_prefix(limits) + program)
        to_server, self._server_stdin = os.pipe2(os.O_CLOEXEC)
        self._server_stdout, from_server = os.pipe2(os.O_CLOEXEC)
        actions = [(os.POSIX_SPAWN_DUP2, to_server, 0), (os.POSIX_SPAWN_DUP2, from_server, 1),
                   (os.POSIX_SPAWN_OPEN, 2, str(self.scratch / "server.log"), os.O_WRONLY | os.O_CREAT, 0o600)]
        try:
            self.pid = os.posix_spawn(argv[0], argv, env if self.tier == "none" else _outer_env(env, self.tier),
                                      file_actions=actions, setsid=True)
        finally:
            os.close(to_server)
            os.close(from_server)
        _spawned_pids.add(self.pid)
        self.reader = os.fdopen(self._server_stdout, "rb")
        self.writer = os.fdopen(self._server_stdin, "wb")

    def _own_files_dir(self) -> Path:
        path = self.scratch / "tmp"
        path.mkdir(mode=0o700)
        if _running_as_root():
            os.chown(path, self.uid, self.uid)
        return path

    def exchange(self, request: bytes, reply_size: int, timeout: float) -> tuple[bytes, BinaryIO] | None:
        """Send one request; return (the reply's first ``reply_size`` bytes, the reply stream for
        the rest), or None if the server is gone or silent past ``timeout``."""
        try:
            self.writer.write(request)
            self.writer.flush()
        except OSError:
            return None
        ready, _, _ = select.select([self.reader], [], [], timeout)
        if not ready:
            return None
        header = self.reader.read(reply_size)
        return (header, self.reader) if len(header) == reply_size else None

    def stop(self) -> None:
        """Hang up and kill the server; ``close`` waits for it to go. Stopping several servers
        before closing them lets them die together."""
        for stream in (self.writer, self.reader):
            try:
                stream.close()
            except OSError:
                pass
        _kill_group(self.pid)

    def close(self) -> None:
        self.stop()
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass
        _spawned_pids.discard(self.pid)
        _kill_slot(self.uid)
        shutil.rmtree(self.scratch, ignore_errors=True)
        _release_slot(self._slot_lock)
        _leave_slot(self.uid, check=False)
