"""Warm runs for every language that runs a prepared command (C, C++, Java, JavaScript). Runs
INSIDE the sandbox; imports nothing of the judge and holds no expected data.

The judge starts one server per submission, in the same sandbox a cold run gets, with the
program's command line after ``--``. Per case the server forks a child, which applies the case's
limits to itself as a cold run's prlimit would, takes the case's files (stdin and stdout are
memory files, stderr a pipe to the server), resets every signal and the signal mask, starts a
session of its own and execs the command with the sandbox's fixed environment. The server
watches the whole tree against the limits, then kills and reaps everything the case started (it
is their subreaper), measures CPU (all it reaped), peak memory and wall time, reports, and
empties the directories the case could write.

What it shares with the Python warm server (the protocol, the case's files, the watch, the
sweep) is case_control.py, next to this file.

Usage: exec_server.py [directory to empty after each case ...] -- command ...
"""

import os
import resource
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import case_control as control  # found next to this file once the path is set

EXEC_FAILED = 127  # as a shell (and prlimit) reports a command it could not run
LIMITS_FAILED = 121
DEFAULT_SIGNALS = sorted(signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP})


def main():
    split = sys.argv.index("--")
    private_dirs, command = sys.argv[1:split], sys.argv[split + 1:]
    control_in, control_out = control.take_control_channel()
    # Not dumpable: a case running as the same user cannot open /proc/<server>/fd and forge
    # the server's reports. A subreaper: what a case leaves behind (daemons, double forks) is
    # re-parented here, so the sweep after each case finds all of it.
    control.prctl(control.PR_SET_DUMPABLE, 0)
    control.prctl(control.PR_SET_CHILD_SUBREAPER, 1)
    # The case works in the server's working directory, emptied after each case as are the
    # sandbox's other writable directories (a cold run has them fresh).
    case = control.Case(os.getcwd(), [os.getcwd(), *private_dirs])
    environment = dict(os.environ)  # the sandbox's fixed environment, as a cold run has it
    control.serve(lambda request, stdin: run_case(command, environment, case, request, stdin),
                  control_in, control_out)


def run_case(command, environment, case, request, stdin):
    """Run one case to its end; return its report, stdout and stderr."""
    case.prepare(stdin)
    stderr_read, stderr_write = os.pipe2(os.O_CLOEXEC)
    reaped_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    child = os.fork()
    if child == 0:
        become_case(command, environment, case, request, stderr_write)
    os.close(stderr_write)
    os.set_blocking(stderr_read, False)
    try:
        stderr, stopped, cpu, memory_kb = control.watch(child, stderr_read, started, request,
                                                            case.memory_mounts)
        if stopped:
            control.kill(child)
        _, status, usage = os.wait4(child, 0)
        control.sweep()
        wall = time.monotonic() - started
        stderr.take(stderr_read)  # the rest, now that nothing can write any more
    finally:
        os.close(stderr_read)
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    reaped_cpu = (reaped.ru_utime - reaped_before.ru_utime) + (reaped.ru_stime - reaped_before.ru_stime)
    # The child starts as a copy of the server, and the kernel keeps the copy's peak as the
    # program's: only a peak above the server's own belongs to the program (as in a cold run,
    # whose spawned process starts as a copy of the judge).
    own_peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    peak_kb = usage.ru_maxrss if usage.ru_maxrss > own_peak_kb else 0
    case.clean()
    stdout = case.output(request["output"] + 1)
    report = control.report_of(status, stopped, max(reaped_cpu, cpu), wall, max(peak_kb, memory_kb))
    return report, stdout, stderr.text()


def become_case(command, environment, case, request, stderr_fd):
    """In the child: the case's files, limits and signals, then the program; never returns."""
    try:
        os.dup2(stderr_fd, 2)
        case.enter()
        control.limit_case(request["cpu"], request["output"], request["address_space"], request["nofile"])
        for number in DEFAULT_SIGNALS:  # ignored dispositions (SIGPIPE, SIGXFSZ) survive exec
            try:
                signal.signal(number, signal.SIG_DFL)
            except (OSError, ValueError):
                pass
        signal.pthread_sigmask(signal.SIG_SETMASK, ())
    except BaseException:  # noqa: BLE001 - the child must never return into the server's loop
        os._exit(LIMITS_FAILED)
    try:
        os.execvpe(command[0], command, environment)
    except OSError as error:
        os.write(2, f"{command[0]}: {error.strerror}\n".encode())
    os._exit(EXEC_FAILED)


if __name__ == "__main__":
    main()
