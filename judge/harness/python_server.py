"""Warm Python runs. Runs INSIDE the sandbox; imports nothing of the judge and holds no expected
data: it only knows the submission.

The judge starts one server per submission. The server compiles the submission once, imports
the common standard library, then forks a *zygote*, which forks one child per case. The child
applies the case's limits to itself and runs the submission as __main__ (or calls `solution`
through the function harness). The server measures the child (its process tree in /proc while
it runs), stops it at a limit and reports back; the zygote waits for the child (its rusage) and
kills whatever the case left behind.

Why a zygote: after a fork, every page the forking process writes again costs a copy-on-write
fault. The server does a lot of Python work per case (messages, files, /proc); the zygote's loop
is a few lines, so forking from it instead costs far fewer faults per case.

Protocol on stdin/stdout, one exchange per case:
  judge -> server: a JSON line {"stdin": N, "cpu": s, "wall": s, "memory": bytes, "output": bytes,
                   "address_space": bytes or 0, "nofile": n}, then N bytes of standard input
  server -> judge: a JSON line {"exit_code", "signal", "cpu", "wall", "memory_kb", "stopped",
                   "stdout": N, "stderr": M}, then N + M bytes
Between server and zygote, per case (fixed-size binary messages on two pipes):
  server -> zygote: CASE_LIMITS; zygote -> server: the child's pid
  server -> zygote: b"r" once the child is over; zygote -> server: CHILD_END (wait status, rusage)
"""

# Warm the standard library a contest solution is likely to import.
import builtins
import ctypes
import io
import json
import os
import random  # noqa: F401 - imported for its fork hook: each forked child reseeds its generator
import resource
import select
import signal
import struct
import sys
import tempfile
import time
import traceback

# Imported only to be warm: every forked child finds them loaded. The list is data, not code,
# so that no linter mistakes these imports for unused ones.
WARM_MODULES = ("array", "bisect", "collections", "copy", "decimal", "fractions", "functools", "heapq",
                "itertools", "math", "operator", "re", "statistics", "string", "typing")
for _name in WARM_MODULES:
    __import__(_name)

POLL = 0.05
STDERR_KEEP = 64 * 1024
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
CASE_LIMITS = struct.Struct("=dqqq")  # cpu seconds, output bytes, address space bytes (0: none), open files
CHILD_PID = struct.Struct("=i")
CHILD_END = struct.Struct("=iqdd")  # wait status, peak resident KiB, user seconds, system seconds
SWEEP_ROUNDS = 200


def main():
    solution, style, own_files = sys.argv[1], sys.argv[2], sys.argv[3]
    os.environ.pop("LD_BIND_NOW", None)  # it did its work at start-up; cases see the usual environment
    control_in = os.fdopen(os.dup(0), "rb")
    control_out = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    # Not dumpable (inherited by the zygote): a child running as the same user cannot open
    # /proc/<server>/fd and forge the server's reports.
    prctl(PR_SET_DUMPABLE, 0)
    with open(solution, "rb") as handle:
        code = compile(handle.read(), solution, "exec", dont_inherit=True)
    harness = load_sibling("harness") if style == "function" else None
    workspace = os.getcwd()
    warm_up_io()
    # The case's stdin/stdout files live apart from its working directory (in bwrap, on another
    # tmpfs), so a case that fills its directory cannot break its own output.
    io_dir = tempfile.mkdtemp(prefix="io-", dir=own_files)
    case = Case(os.path.join(workspace, "case"), os.path.join(io_dir, "in"), os.path.join(io_dir, "out"))
    zygote = start_zygote(code, solution, harness, case, [control_in, control_out])
    while True:
        header = control_in.readline()
        if not header:
            return
        request = json.loads(header)
        stdin = control_in.read(request["stdin"])
        report, stdout, stderr = run_case(zygote, case, request, stdin)
        report["stdout"], report["stderr"] = len(stdout), len(stderr)
        control_out.write(json.dumps(report).encode() + b"\n" + stdout + stderr)
        control_out.flush()


def prctl(option, value):
    try:
        ctypes.CDLL(None).prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):
        pass


class Case:
    """Where a case runs: its working directory, and its stdin and stdout files."""

    def __init__(self, directory, stdin_path, stdout_path):
        self.directory, self.stdin_path, self.stdout_path = directory, stdin_path, stdout_path


class Zygote:
    """The server's end of the pipes to the zygote, and the stderr pipe every case writes to."""

    def __init__(self, requests, replies, stderr):
        self.requests, self.replies, self.stderr = requests, replies, stderr

    def send(self, data):
        try:
            os.write(self.requests, data)
        except OSError:
            gone()

    def receive(self, message):
        data = read_exactly(self.replies, message.size)
        if data is None:
            gone()
        return message.unpack(data)


def gone():
    """The zygote is gone (a case killed it): this server is done for. The judge sees it go
    without a reply, runs the case afresh and starts another server."""
    os._exit(3)


def start_zygote(code, solution, harness, case, server_files):
    stderr_read, stderr_write = os.pipe()
    requests_read, requests_write = os.pipe()
    replies_read, replies_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        for handle in server_files:
            handle.close()
        for fd in (stderr_read, requests_write, replies_read):
            os.close(fd)
        try:
            run_zygote(code, solution, harness, case, stderr_write, requests_read, replies_write)
        finally:
            os._exit(0)
    for fd in (stderr_write, requests_read, replies_write):
        os.close(fd)
    os.set_blocking(stderr_read, False)
    return Zygote(requests_write, replies_read, stderr_read)


def run_zygote(code, solution, harness, case, stderr_fd, requests, replies):
    """The zygote's loop: fork a child per case, wait for it, sweep away what it left."""
    # Whatever a case's processes leave behind (daemons, double forks) is re-parented here, so
    # the sweep after each case finds all of it.
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    while True:
        data = read_exactly(requests, CASE_LIMITS.size)
        if data is None:
            return
        child = os.fork()
        if child == 0:
            become_case(code, solution, harness, CASE_LIMITS.unpack(data), case, stderr_fd)
        os.write(replies, CHILD_PID.pack(child))
        if read_exactly(requests, 1) is None:
            return
        _, status, usage = os.wait4(child, 0)
        sweep()
        os.write(replies, CHILD_END.pack(status, usage.ru_maxrss, usage.ru_utime, usage.ru_stime))


def read_exactly(fd, size):
    data = b""
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def sweep():
    """Kill and reap every process left under the zygote; nothing a case started outlives it."""
    for _ in range(SWEEP_ROUNDS):
        left = proc_usage.descendants(os.getpid())
        if not left:
            return
        for pid in left:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        reap()
        time.sleep(0.001)  # killed processes take a moment to exit


def reap():
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass


def warm_up_io():
    """Build the text layers once, so that every forked child finds the codecs already loaded."""
    reader = io.TextIOWrapper(io.BufferedReader(io.BytesIO(b"1\n")), encoding="utf-8")
    reader.readline()
    writer = io.TextIOWrapper(io.BufferedWriter(io.BytesIO()), encoding="utf-8")
    writer.write("x\n")
    writer.flush()


def load_sibling(name):
    """A module shipped next to this file (-I keeps this directory off sys.path)."""
    import importlib.util
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{name}.py")
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_case(zygote, case, request, stdin):
    if not os.path.isdir(case.directory):  # the previous case may have removed it
        os.mkdir(case.directory)
    with open(case.stdin_path, "wb") as handle:
        handle.write(stdin)
    started = time.monotonic()
    zygote.send(CASE_LIMITS.pack(request["cpu"], request["output"], request["address_space"], request["nofile"]))
    (child,) = zygote.receive(CHILD_PID)
    stderr, stopped, cpu, memory_kb = watch(child, zygote.stderr, started, request)
    if stopped:
        kill(child)
    zygote.send(b"r")
    status, peak_kb, user, system = zygote.receive(CHILD_END)
    wall = time.monotonic() - started
    stderr.take(zygote.stderr)  # the rest, now that nothing can write any more
    empty(case.directory)
    with open(case.stdout_path, "rb") as handle:
        stdout = handle.read(request["output"] + 1)
    report = {
        "exit_code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        "cpu": max(user + system, cpu),
        "wall": wall,
        "memory_kb": max(peak_kb, memory_kb),
        "stopped": stopped,
    }
    return report, stdout, stderr.text()


def become_case(code, solution, harness, limits, case, stderr_fd):
    """In the child: take the case's files and limits, then run the submission; never returns."""
    cpu, output, address_space, open_files = limits
    try:
        os.setsid()
        os.chdir(case.directory)
        os.dup2(os.open(case.stdin_path, os.O_RDONLY), 0)
        os.dup2(os.open(case.stdout_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 1)
        os.dup2(stderr_fd, 2)
        os.closerange(3, 256)
        cpu_seconds = int(cpu) + 2
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
        resource.setrlimit(resource.RLIMIT_FSIZE, (output, output))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))
        if address_space:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
        sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "rb", closefd=False)), encoding="utf-8")
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "wb", closefd=False)), encoding="utf-8")
        sys.stderr = io.TextIOWrapper(io.FileIO(2, "wb", closefd=False), encoding="utf-8",
                                      errors="backslashreplace", line_buffering=True)
    except BaseException:  # noqa: BLE001 - the child must never return into the zygote's loop
        os._exit(121)
    os._exit(run_submission(code, solution, harness))


def run_submission(code, solution, harness):
    """Run the submission as a script would run; return its exit status."""
    status = 0
    try:
        if harness is not None:
            sys.argv = [os.path.join(os.path.dirname(solution), "harness.py"), solution]
            harness.main()
        else:
            sys.argv = [solution]
            sys.path[0:0] = [os.path.dirname(solution)]
            namespace = {"__name__": "__main__", "__file__": solution, "__builtins__": builtins,
                         "__doc__": None, "__spec__": None, "__loader__": None, "__package__": None}
            exec(code, namespace)
    except SystemExit as exit_request:
        status = exit_status(exit_request.code)
    except BaseException:  # noqa: BLE001 - reported as Python itself would
        traceback.print_exc()
        status = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:  # noqa: BLE001 - e.g. the output limit: Python exits 120 here too
            status = status or 120
    return status


def exit_status(code):
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def watch(child, stderr_fd, started, request):
    """Wait for the child, keeping its stderr; stop it at the CPU, memory or wall limit."""
    pidfd = os.pidfd_open(child)
    poller = select.poll()
    poller.register(pidfd, select.POLLIN)
    poller.register(stderr_fd, select.POLLIN)
    stderr, cpu, memory_kb, stopped = StderrKept(), 0.0, 0, None
    ceiling_kb = request["memory"] // 1024
    try:
        while True:
            now = time.monotonic()
            remaining = started + request["wall"] - now
            if now - started >= POLL:  # most runs are over sooner: no need to read /proc for them
                tree_cpu, tree_kb = proc_usage.tree_usage(child)
                cpu, memory_kb = max(cpu, tree_cpu), max(memory_kb, tree_kb)
            if remaining <= 0:
                stopped = "wall"
            elif cpu > request["cpu"] + 0.05:
                stopped = "cpu"
            elif memory_kb > ceiling_kb:
                stopped = "memory"
            if stopped:
                break
            events = dict(poller.poll(min(remaining, POLL) * 1000))
            if stderr_fd in events:
                stderr.take(stderr_fd)
            if pidfd in events:
                break
    finally:
        os.close(pidfd)
    return stderr, stopped, cpu, memory_kb


class StderrKept:
    """The first STDERR_KEEP bytes of a case's stderr, and how many more there were."""

    def __init__(self):
        self.kept, self.dropped = bytearray(), 0

    def take(self, fd):
        """Read what the (non-blocking) pipe holds now."""
        while True:
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                return
            room = max(STDERR_KEEP - len(self.kept), 0)
            self.kept += chunk[:room]
            self.dropped += max(0, len(chunk) - room)

    def text(self):
        text = bytes(self.kept)
        if self.dropped:
            text += f"\n[... {self.dropped} more bytes of stderr not kept]".encode()
        return text


def kill(child):
    for target in (lambda: os.killpg(child, signal.SIGKILL), lambda: os.kill(child, signal.SIGKILL)):
        try:
            target()
        except OSError:
            pass


def empty(directory):
    """Remove what a case wrote into its working directory."""
    if not os.listdir(directory):
        return
    for root, directories, files in os.walk(directory, topdown=False):
        for name in files:
            try:
                os.unlink(os.path.join(root, name))
            except OSError:
                pass
        for name in directories:
            try:
                os.rmdir(os.path.join(root, name))
            except OSError:
                pass


if __name__ == "__main__":
    proc_usage = load_sibling("proc_usage")
    main()
