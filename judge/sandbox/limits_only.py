"""Running a program where the system has no Linux namespaces (Windows, macOS): the none tier
with what that system offers. Limits only: the program runs as the judge's user and can read
what that user can.

- CPU time, memory and output are watched on the program's whole process tree with psutil (the
  system's own calls: libproc on macOS, the process APIs on Windows), and the tree is killed at
  a limit; without psutil only the wall clock and macOS's own limits below hold.
- Where the system has ``resource`` (macOS), the program is started through a few lines of
  Python that set RLIMIT_CPU, RLIMIT_FSIZE, RLIMIT_NOFILE, RLIMIT_STACK and RLIMIT_CORE, then
  exec it: per-process backstops, as prlimit is on Linux. (RLIMIT_NPROC counts every process of
  the user there, and RLIMIT_AS is not enforced: neither is set.)
- Programs are found by the names the system gives them (``shutil.which``: ``node.exe``, ``java.exe``).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from judge.harness.process_watch import CPU_GRACE, POLL, StderrKept, cpu_rlimit
from judge.sandbox.host import close_all, max_rss_bytes_per_unit
from judge.sandbox.limits import Limits, Outcome
from judge.sandbox.scratch import scratch_dir

try:
    import psutil
except ImportError:  # a dependency on Windows and macOS; on Linux only the namespaced tiers are used
    psutil = None

# Sets the limits it is given (NAME:soft:hard ... --), then becomes the program. A limit the
# system refuses is left as it is: the watcher still holds the run to it.
_SET_LIMITS = ("import os, resource, sys\n"
               "end = sys.argv.index('--')\n"
               "for limit in sys.argv[1:end]:\n"
               "    name, soft, hard = limit.split(':')\n"
               "    try:\n"
               "        resource.setrlimit(getattr(resource, name), (int(soft), int(hard)))\n"
               "    except (AttributeError, ValueError, OSError):\n"
               "        pass\n"
               "os.execv(sys.argv[end + 1], sys.argv[end + 1:])\n")


def run_limits_only(command: list[str], *, stdin: bytes, limits: Limits, program_dir: Path | None,
                    work_dir: Path | None, env: dict[str, str] | None,
                    stdio: tuple[int, int] | None) -> Outcome:
    """``run_sandboxed`` where there is no sandbox but limits (see the module's docstring)."""
    scratch = scratch_dir("run")
    try:
        if work_dir is None:
            work_dir = scratch / "work"
            work_dir.mkdir()
        own_files = scratch / "tmp"
        own_files.mkdir()
        paths = {"{prog}": str(program_dir or ""), "{work}": str(work_dir), "{tmp}": str(own_files)}
        argv = [_with_paths(part, paths) for part in command]
        program_env = _environment(env or {}, work_dir, own_files)
        executable = _find(argv[0], program_env["PATH"])
        if executable is None:
            close_all(stdio or ())
            return Outcome(internal_error=f"could not start {argv[0]}: not found on PATH ({program_env['PATH']})")
        argv = [*limit_prefix(limits), executable, *argv[1:]]
        stdin_path, stdout_path = scratch / "stdin", scratch / "stdout"
        stdin_path.write_bytes(stdin)
        return _run(argv, program_env, work_dir, limits, stdin_path, stdout_path, stdio)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _with_paths(part: str, paths: dict[str, str]) -> str:
    for name, value in paths.items():
        part = part.replace(name, value)
    return part


def _environment(env: dict[str, str], work_dir: Path, own_files: Path) -> dict[str, str]:
    """The program's environment: the judge's PATH (toolchains live where the system's installers
    put them), its home and temporary folder its own, and what Windows programs need to start."""
    kept = {name: os.environ[name] for name in ("PATH", "SYSTEMROOT", "SystemRoot", "PATHEXT", "COMSPEC", "WINDIR")
            if name in os.environ}
    return {"PATH": os.defpath, **kept, "HOME": str(work_dir), "USERPROFILE": str(work_dir),
            "TMPDIR": str(own_files), "TEMP": str(own_files), "TMP": str(own_files),
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8",
            **{name: value.replace("{work}", str(work_dir)) for name, value in env.items()}}


def _find(name: str, path: str) -> str | None:
    """The program to start: a file named by its path (a compiled program), else looked up on
    ``path`` as the system names programs (with .exe on Windows)."""
    if os.path.dirname(name):  # gcc on Windows writes program.exe when told -o program
        return next((candidate for candidate in (name, name + ".exe") if os.path.isfile(candidate)), None)
    return shutil.which(name, path=path)


def limit_prefix(limits: Limits) -> list[str]:
    """The start of the command that sets the per-process limits, where the system has them."""
    try:
        import resource  # noqa: F401 (only whether the system has it)
    except ImportError:  # Windows
        return []
    soft, hard = cpu_rlimit(limits.cpu_time)
    stack = limits.stack if limits.stack is not None else -1  # RLIM_INFINITY
    wanted = {"RLIMIT_CPU": (soft, hard), "RLIMIT_FSIZE": (limits.output, limits.output), "RLIMIT_CORE": (0, 0),
              "RLIMIT_NOFILE": (limits.open_files, limits.open_files), "RLIMIT_STACK": (stack, stack)}
    return [sys.executable, "-I", "-S", "-c", _SET_LIMITS,
            *(f"{name}:{soft}:{hard}" for name, (soft, hard) in wanted.items()), "--"]


def _run(argv: list[str], env: dict[str, str], work_dir: Path, limits: Limits, stdin_path: Path,
         stdout_path: Path, stdio: tuple[int, int] | None) -> Outcome:
    started = time.monotonic()
    try:
        with open(stdin_path, "rb") as stdin_file, open(stdout_path, "wb") as stdout_file:
            child = subprocess.Popen(argv, stdin=stdio[0] if stdio else stdin_file,
                                     stdout=stdio[1] if stdio else stdout_file, stderr=subprocess.PIPE,
                                     cwd=work_dir, env=env, start_new_session=True)
    except OSError as error:
        return Outcome(internal_error=f"could not start {argv[0]}: {error}")
    finally:
        close_all(stdio or ())
    stderr = StderrKept()
    # A thread drains stderr (keeping its start), so that a chatty program never waits on a full pipe.
    draining = threading.Thread(target=stderr.take, args=(child.stderr.fileno(),), daemon=True)
    draining.start()
    watched = _Watched(child)
    stopped = watched.until_end(started + limits.wall_time, limits, stdout_path)
    wall = time.monotonic() - started
    draining.join(timeout=5)
    child.stderr.close()
    stdout = stdout_path.read_bytes()[: limits.output + 1] if stdout_path.exists() else b""
    return Outcome(exit_code=watched.exit_code, signal=watched.signal, cpu_time=watched.cpu,
                   wall_time=wall, memory_kb=watched.memory_kb, stdout=stdout[: limits.output],
                   stderr=stderr.text(), wall_timed_out=stopped == "wall", output_exceeded=len(stdout) >= limits.output,
                   stopped=stopped if stopped in ("wall", "cpu", "memory") else None)


class _Watched:
    """A started program: a thread waits for its end (and reaps it), while the caller reads its
    process tree until then, or until it passes a limit."""

    def __init__(self, child: subprocess.Popen) -> None:
        self.child = child
        self.cpu, self.memory_kb = 0.0, 0
        self.exit_code: int | None = None
        self.signal: int | None = None
        self.root = None
        if psutil is not None:
            try:
                self.root = psutil.Process(child.pid)
            except psutil.Error:
                pass  # already over: its usage comes from its end
        self.ended = threading.Event()
        threading.Thread(target=self._reap, daemon=True).start()

    def until_end(self, deadline: float, limits: Limits, stdout_path: Path) -> str | None:
        """Watch until the program ends (None) or passes a limit ("wall", "cpu", "memory",
        "output"), when its tree is killed; either way it is reaped when this returns."""
        pause = POLL / 16  # read often at first: most runs are over in milliseconds
        while not self.ended.wait(pause):
            pause = min(pause * 2, POLL)
            self._read()
            stopped = self._limit_passed(deadline, limits, stdout_path)
            if stopped:
                self._kill_tree()
                self.ended.wait()
                return stopped
        return None

    def _limit_passed(self, deadline: float, limits: Limits, stdout_path: Path) -> str | None:
        if time.monotonic() > deadline:
            return "wall"
        if self.cpu > limits.cpu_time + CPU_GRACE:
            return "cpu"
        if self.memory_kb * 1024 > limits.memory_ceiling:
            return "memory"
        if _size(stdout_path) > limits.output:
            return "output"
        return None

    def _read(self) -> None:
        """CPU seconds and resident memory of the program's tree now, into the peaks."""
        if self.root is None:
            return
        cpu, resident = 0.0, 0
        for process in [self.root, *_children(self.root)]:
            try:
                with process.oneshot():
                    times = process.cpu_times()
                    cpu += times.user + times.system + getattr(times, "children_user", 0.0) \
                        + getattr(times, "children_system", 0.0)
                    resident += process.memory_info().rss
            except psutil.Error:
                continue
        self.cpu = max(self.cpu, cpu)
        self.memory_kb = max(self.memory_kb, resident // 1024)

    def _reap(self) -> None:
        """Wait for the program's end; take its exit, and the system's account of what it used."""
        try:
            if hasattr(os, "wait4"):  # POSIX: the kernel's totals of CPU time and peak memory
                _, status, usage = os.wait4(self.child.pid, 0)
                self.child.returncode = os.waitstatus_to_exitcode(status)
                self.cpu = max(self.cpu, usage.ru_utime + usage.ru_stime)
                self.memory_kb = max(self.memory_kb, _program_peak_kb(usage.ru_maxrss))
            else:
                self.child.wait()
                self._read_final()
            code = self.child.returncode
            self.exit_code, self.signal = (None, -code) if code < 0 else (code, None)
        except ChildProcessError:
            pass
        finally:
            self.ended.set()

    def _read_final(self) -> None:
        """Windows: the ended process's totals, readable while the judge holds its handle."""
        if self.root is None:
            return
        try:
            times = self.root.cpu_times()
            self.cpu = max(self.cpu, times.user + times.system)
            memory = self.root.memory_info()
            self.memory_kb = max(self.memory_kb, getattr(memory, "peak_wset", memory.rss) // 1024)
        except psutil.Error:
            pass

    def _kill_tree(self) -> None:
        processes = [*_children(self.root), self.root] if self.root is not None else []
        for process in processes:
            try:
                process.kill()
            except psutil.Error:
                pass
        if hasattr(os, "killpg"):  # and what left the tree, in the program's own session
            try:
                os.killpg(self.child.pid, signal.SIGKILL)
            except OSError:
                pass
        try:
            self.child.kill()
        except OSError:
            pass


def _children(process) -> list:
    try:
        return process.children(recursive=True)
    except psutil.Error:
        return []


def _program_peak_kb(max_rss: int) -> int:
    """The program's peak resident memory in KiB from its ru_maxrss, unless that is no more than
    the judge's own (the child starts as a copy of the judge, whose peak the kernel may record)."""
    peak_kb = max_rss * max_rss_bytes_per_unit() // 1024
    try:
        import resource
        own_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * max_rss_bytes_per_unit() // 1024
    except ImportError:
        return peak_kb
    return peak_kb if peak_kb > own_kb else 0


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0
