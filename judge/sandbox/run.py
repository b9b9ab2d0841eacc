"""Running one program to its end under limits, watching it, and measuring what it used."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

from judge.harness.proc_usage import (
    descendants,
    is_zombie,
    memory_files_kb,
    parent_of,
    processes_of_uid,
    tmpfs_used_kb,
    usage,
)
from judge.harness.process_watch import STDERR_KEEP, Watch, watch
from judge.sandbox.command import running_as_root
from judge.sandbox.host import close_all, has_namespaces
from judge.sandbox.ipc_namespace import run_shared_memory_kb
from judge.sandbox.limits import Limits, Outcome
from judge.sandbox.runtime import PIPE_IN, PIPE_OUT
from judge.sandbox.scratch import hand_over
from judge.sandbox.slots import Claim, kill_group, spawned_pids
from judge.sandbox.spawn import RunSpec, reap_root_init, spawn
from judge.sandbox.tiers import sandbox_tier

if has_namespaces():  # the Linux tiers' own (Windows has neither module: it runs through limits_only)
    import fcntl
    import resource


def run_sandboxed(command: list[str], *, stdin: bytes, limits: Limits,
                  program_dir: Path | None = None, work_dir: Path | None = None,
                  env: dict[str, str] | None = None, tier: str | None = None,
                  stdio: tuple[int, int] | None = None,
                  on_start: Callable[[int], None] | None = None) -> Outcome:
    """Run ``command`` under ``limits`` with ``stdin`` as its standard input.

    ``stdio`` (file descriptors for standard input and output, such as pipe ends to another
    program) replaces ``stdin`` and the captured output; the sandbox takes them over and closes
    them once the program has them. They must be close-on-exec, so that no other program started
    meanwhile inherits them.

    ``command`` may refer to ``{prog}`` (the read-only program directory) and ``{work}`` (the
    writable working directory); they are replaced by the paths the program sees. When
    ``work_dir`` is None an empty temporary directory is made and removed afterwards.

    ``on_start``, when given, is called right after the program started and before the run can
    reap it, with a pidfd of the process the judge started: the caller's own, to close. It is not
    called when the program could not start or no pidfd could be had.

    Where the system has no Linux namespaces (Windows, macOS) the run has limits only: see
    ``limits_only``.
    """
    if not has_namespaces():
        # here: the limits-only tier loads psutil (a tenth of a one-case run's start), which a
        # system with namespaces never needs
        from judge.sandbox.limits_only import run_limits_only

        return run_limits_only(command, stdin=stdin, limits=limits, program_dir=program_dir, work_dir=work_dir,
                               env=env, stdio=stdio)
    tier = tier or sandbox_tier()
    handed_over = False  # the stdio fds are _run's to close from then on
    try:
        claim = Claim("run")
    except BaseException:
        close_all(stdio or ())
        raise
    try:
        owns_work_dir = work_dir is None
        if owns_work_dir:
            work_dir = claim.scratch / "work"
            work_dir.mkdir()
        hand_over(work_dir, claim.uid)
        spec = RunSpec(tuple(command), limits, tier, claim.uid, work_dir, program_dir=program_dir,
                       scratch=claim.scratch, scratch_in_memory=owns_work_dir, env=env or {},
                       piped=stdio is not None)
        handed_over = True
        return _run(spec, claim.scratch, stdin, stdio, on_start)
    finally:
        if not handed_over:  # never left open when the run could not start
            close_all(stdio or ())
        claim.give_back()


def _run(spec: RunSpec, scratch: Path, stdin: bytes, stdio: tuple[int, int] | None,
         on_start: Callable[[int], None] | None = None) -> Outcome:
    # stdin and stdout are files: no pipe can deadlock, and RLIMIT_FSIZE caps the output.
    # stderr is a pipe the judge drains and truncates, so chatty debugging output is no OLE.
    stdin_path, stdout_path = scratch / "stdin", scratch / "stdout"
    stdin_path.write_bytes(stdin)
    stdout_path.touch()
    for path in (stdin_path, stdout_path):
        # The program's own, so that opening /dev/stdin or /dev/stdout (as many solutions read
        # and write) reopens them under its uid, as outside a judge.
        path.chmod(0o600)
        if running_as_root():
            os.chown(path, spec.uid, spec.uid)
    stderr_read, stderr_write = os.pipe2(os.O_CLOEXEC | os.O_NONBLOCK)
    os.set_blocking(stderr_write, True)  # the program's end: its writes wait for the judge
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, str(stdin_path), os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, str(stdout_path), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
        (os.POSIX_SPAWN_DUP2, stderr_write, 2),
    ]
    if stdio is not None:  # the chain's stdin and stdout stay the (unused) files
        # Each moved above PIPE_OUT first: one of them may be PIPE_IN, which the first dup2 replaces.
        stdio = tuple(_above(fd, PIPE_OUT) for fd in stdio)
        actions += [(os.POSIX_SPAWN_DUP2, stdio[0], PIPE_IN), (os.POSIX_SPAWN_DUP2, stdio[1], PIPE_OUT)]
    started = time.monotonic()
    try:
        pid = spawn(spec, actions)
    except OSError as error:
        os.close(stderr_read)
        return Outcome(internal_error=f"could not start {spec.argv()[0]}: {error}")
    finally:
        os.close(stderr_write)
        close_all(stdio or ())
    try:
        if on_start is not None:
            _hand_pidfd(pid, on_start)
        seen = watch(pid, stderr_read, started + spec.limits.wall_time, spec.limits.cpu_time,
                     spec.limits.memory_ceiling // 1024, lambda: _memory_reading(pid, spec.uid))
        if seen.stopped:
            kill_group(pid)
        _, status, rusage = os.wait4(pid, 0)
        wall = time.monotonic() - started
        init_cpu, init_peak_kb = reap_root_init(pid)
        outlived_cpu, outlived_peak_kb = _reap_what_outlived(spec.uid)
        usage_left = init_cpu + outlived_cpu, max(init_peak_kb, outlived_peak_kb)
        seen.stderr.take(stderr_read, most=STDERR_KEEP // 65536 + 1)  # the rest, once its writers are gone
    finally:
        spawned_pids.discard(pid)
        os.close(stderr_read)
    # The spawned process starts as a copy of the judge, and at its exec the kernel records the
    # peak of the judge's memory as its own: only a peak above that (read after the run, as the
    # judge may have grown meanwhile) belongs to the program. A run stopped by force was never
    # reaped by its parent, so rusage misses it: the readings from /proc are the better measure then.
    judge_peak_kb = _own_memory_peak_kb()
    outlived_cpu, outlived_peak_kb = usage_left
    peak_kb = max(rusage.ru_maxrss if rusage.ru_maxrss > judge_peak_kb else 0, outlived_peak_kb)
    if peak_kb >= seen.memory_kb:  # the kernel's peak of a process, not the watcher's reading
        seen.memory_kb, seen.memory_parts = peak_kb, None
    seen.cpu = max(rusage.ru_utime + rusage.ru_stime + outlived_cpu, seen.cpu)
    return _outcome(status, seen, wall, stdout_path, spec)


def _own_memory_peak_kb() -> int:
    """The peak of the judge's own memory (VmHWM), in KiB. Not its rusage: that starts at the
    peak of whatever process exec'd the judge (a large test worker, a shell that had grown), which
    would hide every program's peak below it."""
    try:
        with open("/proc/self/status", "rb") as status:
            for line in status:
                if line.startswith(b"VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _above(fd: int, lowest: int) -> int:
    """``fd`` itself if it is above ``lowest``, else a close-on-exec copy that is (``fd`` closed)."""
    if fd > lowest:
        return fd
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, lowest + 1)
    os.close(fd)
    return moved


def _hand_pidfd(pid: int, on_start: Callable[[int], None]) -> None:
    # Not reaped yet (only this thread reaps it), so the pid is still the started process's.
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:
        return  # the caller goes without
    on_start(pidfd)


def _reap_what_outlived(uid: int) -> tuple[float, int]:
    """(CPU seconds, peak KiB) of the run's processes that outlived the process the judge
    started. The tier's init (bwrap's, or the unshare tier's shell) reaps the program, so the
    program's CPU time and peak memory are in the init's own usage; the wrapper the judge
    started may end before the init does, which leaves the init to the judge (its subreaper).
    The run is over: each is killed, then reaped for its usage."""
    if not running_as_root():
        return 0.0, 0
    cpu, peak_kb = 0.0, 0
    me = os.getpid()
    for _ in range(50):  # a killed process is reaped within a few rounds; what is not, kill_slot reaps
        # A zombie re-parented to the machine's init never comes to the judge: not waited for.
        pids = [pid for pid in processes_of_uid(uid) if not (is_zombie(pid) and parent_of(pid) == 1)]
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for pid in pids:
            if parent_of(pid) != me:
                continue  # its own parent reaps it first, and then the judge reaps that one
            try:
                reaped, _, usage = os.wait4(pid, os.WNOHANG)
            except ChildProcessError:
                continue
            if reaped:
                cpu += usage.ru_utime + usage.ru_stime
                peak_kb = max(peak_kb, usage.ru_maxrss)
        time.sleep(0.002)
    return cpu, peak_kb


def _run_processes(pid: int, uid: int) -> list[int]:
    """Every process of a run: its tree (every thread's children) and, as root, everything
    running under the run's slot uid (orphans re-parented out of the tree, setsid daemons)."""
    pids = {pid, *descendants(pid)}
    if running_as_root():
        pids.update(processes_of_uid(uid))
    return sorted(pids)


def _memory_reading(pid: int, uid: int) -> tuple[float, dict[str, int]]:
    """(CPU seconds, KiB of memory by kind) of the run now: what its processes hold resident,
    and what they hold where no resident size shows it."""
    processes = _run_processes(pid, uid)
    cpu, resident_kb = usage(processes, own_processes=2)  # the wrapper and the program
    # Files in the run's in-memory directories (/tmp, /dev/shm, ...) are memory too. Read
    # through a live process of the run (a zombie has no namespaces left to read).
    inside = next((other for other in processes if other != pid and os.path.exists(f"/proc/{other}/ns/mnt")), None)
    return cpu, {"resident": resident_kb, "in-memory files": tmpfs_used_kb(inside) if inside else 0,
                 # So are the System V shared memory segments the run made and left detached (no
                 # process shows them) and the memory files its processes hold open.
                 "shared memory": run_shared_memory_kb(inside or pid, uid),
                 "memory files": memory_files_kb(processes)}


def _outcome(status: int, watch: Watch, wall: float, stdout_path: Path, spec: RunSpec) -> Outcome:
    stdout = stdout_path.read_bytes() if stdout_path.exists() else b""
    exit_code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
    killed_by = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    if spec.reports_signals_as_exit_codes and exit_code is not None and 128 < exit_code < 128 + signal.NSIG:
        # bwrap's init (and the unshare tier's) reports its child's death by signal N as exit
        # status 128 + N; a program that exits with such a status reads as killed, too.
        exit_code, killed_by = None, exit_code - 128
    return Outcome(
        exit_code=exit_code,
        signal=killed_by,
        cpu_time=watch.cpu,
        wall_time=wall,
        memory_kb=watch.memory_kb,
        stdout=stdout[: spec.limits.output],
        stderr=watch.stderr.text(),
        wall_timed_out=watch.stopped == "wall",
        output_exceeded=len(stdout) >= spec.limits.output,
        memory_parts=watch.memory_parts,
        stopped=watch.stopped,
    )
