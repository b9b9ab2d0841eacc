"""Starting a run from a small process, so that the kernel's peak memory of the run is its own.

The kernel starts the peak memory (``ru_maxrss``) of a process that execs with the peak of the
memory it had before: posix_spawn's child shares the judge's, so the process the judge starts
carries the judge's own peak, and a program's short peak below it is lost in the usage the judge
reaps (the watcher's readings come too seldom to see a peak that lasts a few milliseconds). Where
the judge has grown past the memory a run may use (a long test or grading session), the run is
started through a small helper instead: a fresh interpreter that starts the chain, waits for it,
and reports the chain's usage (peak, CPU time) on a pipe before it ends as the chain ended.
The helper's own start costs a few hundredths of a second, so a judge smaller than the run's
limit, whose own peak hides nothing over the limit, does without it.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from judge.sandbox.root_init import open_info

REPORT_BYTES = 256

# Run as `python -I -S -c HELPER REPORT_FD STOP_AT_OUTPUT_LIMIT ARGV...`. It starts ARGV with
# every signal at its default (the interpreter ignores SIGPIPE and SIGXFSZ, and ignored
# dispositions survive exec; SIGXFSZ stays ignored for a run that runs on past its output limit),
# writes "peak_kb own_kb cpu_seconds" on REPORT_FD, and ends as ARGV ended.
HELPER = """
import os, signal, sys
report, stop, argv = int(sys.argv[1]), sys.argv[2] == "1", sys.argv[3:]
defaults = set(signal.valid_signals()) - {signal.SIGKILL, signal.SIGSTOP}
if not stop:
    defaults.discard(signal.SIGXFSZ)
with open("/proc/self/status") as status:  # the peak the chain starts from (VmHWM, in kB)
    own_kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
os.set_inheritable(report, False)  # the helper's alone: no program of the run may forge it
try:
    child = os.posix_spawn(argv[0], argv, os.environ, setsigdef=defaults, setsigmask=())
except OSError as error:
    os.write(2, f"could not start {argv[0]}: {error}\\n".encode())
    os._exit(127)
os.closerange(3, report)  # the run's other descriptors (an interactive run's pipes) are the chain's alone
os.closerange(report + 1, 1 << 20)
_, status, usage = os.wait4(child, 0)
os.write(report, f"{usage.ru_maxrss} {own_kb} {usage.ru_utime + usage.ru_stime}".encode())
if os.WIFSIGNALED(status):
    import resource
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
    os.kill(os.getpid(), os.WTERMSIG(status))
os._exit(os.WEXITSTATUS(status))
"""


@dataclass
class ChainUsage:
    """What the helper reported of the chain it started: its peak (KiB, counted only above
    ``own_kb``, the helper's own size, which the chain starts from) and its CPU seconds."""

    peak_kb: int
    own_kb: int
    cpu: float

    @property
    def program_peak_kb(self) -> int:
        return self.peak_kb if self.peak_kb > self.own_kb else 0


def needed(judge_peak_kb: int, memory_ceiling_kb: int) -> bool:
    """Whether a run must start from the helper: the judge's own peak, which the process it starts
    would carry, reaches the memory the run may use, so a peak over it could be hidden."""
    return judge_peak_kb >= memory_ceiling_kb


def helper_prefix(report_fd: int, stop_at_output_limit: bool) -> list[str]:
    """The helper's command line before the chain's (``report_fd``: where the chain sees the
    write end of the report pipe)."""
    return [sys.executable, "-I", "-S", "-c", HELPER, str(report_fd), "1" if stop_at_output_limit else "0"]


def open_report() -> tuple[int, int]:
    """(read end, write end) of the report pipe, both close-on-exec, the write end above every
    descriptor a spawn's file actions write to."""
    return open_info()


def read_report(fd: int) -> ChainUsage | None:
    """The helper's report from the read end ``fd`` (closed here), or None when there is none
    (the helper was killed with the run, or could not start the chain)."""
    try:
        os.set_blocking(fd, False)
        data = os.read(fd, REPORT_BYTES)
    except OSError:
        data = b""
    finally:
        os.close(fd)
    try:
        peak, own, cpu = data.split()
        return ChainUsage(int(peak), int(own), float(cpu))
    except ValueError:
        return None
