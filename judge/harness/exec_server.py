"""Warm runs for every language that runs a prepared command (C, C++, Java, JavaScript). Runs
INSIDE the sandbox; imports nothing of the judge and holds no expected data.

The judge starts one server per submission, in the same sandbox a cold run gets, with the
program's command line after ``--``. Per case the server spawns the command (see start_case)
with the case's limits, files (stdin and stdout are memory files, stderr a pipe to the server),
every signal at its default and none blocked, a session of its own and the sandbox's fixed
environment. The server
watches the whole tree against the limits, then kills and reaps everything the case started (it
is their subreaper), measures CPU (all it reaped), peak memory and wall time, reports, and
empties the directories the case could write.

What it shares with the Python warm server (the protocol, the case's files, the watch, the
sweep) is case_control.py, next to this file.

Usage: exec_server.py ADDRESS_SPACE [directory to empty after each case ...] -- command ...
(ADDRESS_SPACE: the RLIMIT_AS of every case in bytes, 0 for none)
"""

import os
import resource
import signal
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import case_control as control  # found next to this file once the path is set
import signal_guard

EXEC_FAILED = 127  # as a shell (and prlimit) reports a command it could not run
# Every signal back to its default in the case: ignored dispositions (SIGPIPE and SIGXFSZ in
# Python) survive exec. SIGXFSZ stays ignored where the case runs on past the output limit (its
# writes fail instead: judge/sandbox/limits.py).
DEFAULT_SIGNALS = sorted(signal.valid_signals() - {signal.SIGKILL, signal.SIGSTOP})
RUN_ON_SIGNALS = sorted(set(DEFAULT_SIGNALS) - {signal.SIGXFSZ})
OUTPUT_STOPS, OUTPUT_RUNS_ON = "stop", "run-on"  # the server's second argument


def main():
    split = sys.argv.index("--")
    address_space, on_output_limit = int(sys.argv[1]), sys.argv[2]
    private_dirs, command = sys.argv[3:split], sys.argv[split + 1:]
    signals = RUN_ON_SIGNALS if on_output_limit == OUTPUT_RUNS_ON else DEFAULT_SIGNALS
    if address_space:  # the server's own, inherited by every case (see start_case)
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    control_in, control_out = control.take_control_channel()
    # Not dumpable: a case running as the same user cannot open /proc/<server>/fd and forge
    # the server's reports. A subreaper: what a case leaves behind (daemons, double forks) is
    # re-parented here, so the sweep after each case finds all of it.
    control.prctl(control.PR_SET_DUMPABLE, 0)
    control.prctl(control.PR_SET_CHILD_SUBREAPER, 1)
    # No case can signal the server (nor its parent, the judge where there is no PID namespace):
    # a stopped server would stop the case's clock.
    signal_guard.protect({os.getpid(), os.getppid()}, {os.getpgid(0)})
    # The case works in the server's working directory, emptied after each case as are the
    # sandbox's other writable directories (a cold run has them fresh).
    case = control.Case(os.getcwd(), [os.getcwd(), *private_dirs])
    environment = dict(os.environ)  # the sandbox's fixed environment, as a cold run has it
    control.serve(lambda request, stdin, announce: run_case(command, environment, case, request, stdin, announce,
                                                            signals),
                  case, control_in, control_out)


def run_case(command, environment, case, request, stdin, announce, signals=DEFAULT_SIGNALS):
    """Run one case to its end (``announce`` as it starts); return its report, stdout and stderr."""
    case.prepare(stdin)
    stderr_read, stderr_write = os.pipe2(os.O_CLOEXEC)
    reaped_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    announce()
    started = time.monotonic()
    try:
        child = start_case(command, environment, case, request, stderr_write, signals)
    except OSError as error:  # the command cannot be run: as prlimit reports it in a cold run
        os.close(stderr_write)
        os.close(stderr_read)
        message = f"{command[0]}: failed to execute: {error.strerror}\n".encode()
        return control.report_of(EXEC_FAILED << 8, None, 0.0, time.monotonic() - started, 0), b"", message
    os.close(stderr_write)
    os.set_blocking(stderr_read, False)
    try:
        stderr, stopped, cpu, memory_kb = control.watch(child, os.getpid(), stderr_read, started, request,
                                                        case.memory_mounts, case.own_files)
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
    stdout = case.output(request["output"] + 1)
    report = control.report_of(status, stopped, max(reaped_cpu, cpu), wall, max(usage.ru_maxrss, memory_kb))
    return report, stdout, stderr.text()


def start_case(command, environment, case, request, stderr_fd, signals=DEFAULT_SIGNALS):
    """Start the program for one case; its pid.

    posix_spawn (a vfork: no copy of the server's memory, a tenth of the cost of a fork from
    Python) gives it its session, signals, environment and files. Its working directory is the
    server's, the case's. The limits that are the same for every case of the submission (file
    size, open files, processes, stack, core dumps, address space) are the server's own,
    inherited as they are; the CPU limit, which the server's own use must not count against,
    is set on the child as soon as it exists: until then only the watch stops it."""
    files = [(os.POSIX_SPAWN_DUP2, case.case_stdin_fd, 0), (os.POSIX_SPAWN_DUP2, case.case_stdout_fd, 1),
             (os.POSIX_SPAWN_DUP2, stderr_fd, 2)]
    child = os.posix_spawnp(command[0], command, environment, file_actions=files, setsid=True,
                            setsigdef=signals, setsigmask=())
    cpu_seconds = control.cpu_rlimit(request["cpu"])
    try:
        resource.prlimit(child, resource.RLIMIT_CPU, cpu_seconds)
    except OSError:  # already gone
        pass
    return child


if __name__ == "__main__":
    main()
