"""Warm Python runs. Runs INSIDE the sandbox; imports nothing of the judge and holds no expected
data: it only knows the submission.

The judge starts one server per submission. The server compiles the submission once, imports
the common standard library, then forks one child per case. The child applies the case's limits
to itself and runs the submission as __main__ (or calls `solution` through the function harness).
The server measures the child (its own rusage, and its process tree in /proc while it runs),
stops it at a limit, kills whatever it left behind, and reports back.

Protocol on stdin/stdout, one exchange per case:
  judge -> server: a JSON line {"stdin": N, "cpu": s, "wall": s, "memory": bytes, "output": bytes,
                   "address_space": bytes or 0, "nofile": n}, then N bytes of standard input
  server -> judge: a JSON line {"exit_code", "signal", "cpu", "wall", "memory_kb", "stopped",
                   "stdout": N, "stderr": M}, then N + M bytes
"""

# Warm the standard library a contest solution is likely to import.
import builtins
import ctypes
import io
import json
import os
import random
import resource
import select
import signal
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


def main():
    solution, style = sys.argv[1], sys.argv[2]
    may_kill_all = sys.argv[3] == "1"
    control_in = os.fdopen(os.dup(0), "rb")
    control_out = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    # Not dumpable: a child running as the same user cannot open /proc/<server>/fd and forge
    # the server's reports.
    try:
        ctypes.CDLL(None).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    with open(solution, "rb") as handle:
        code = compile(handle.read(), solution, "exec", dont_inherit=True)
    harness = load_sibling("harness") if style == "function" else None
    workspace = os.getcwd()
    warm_up_io()
    # The case's stdin/stdout files live apart from its working directory (in the sandbox, on
    # another tmpfs), so a case that fills its directory cannot break its own output.
    io_dir = tempfile.mkdtemp(prefix="io-")
    while True:
        header = control_in.readline()
        if not header:
            return
        request = json.loads(header)
        stdin = control_in.read(request["stdin"])
        report, stdout, stderr = run_case(code, solution, harness, request, stdin, workspace, io_dir, may_kill_all)
        report["stdout"], report["stderr"] = len(stdout), len(stderr)
        control_out.write(json.dumps(report).encode() + b"\n" + stdout + stderr)
        control_out.flush()


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


def run_case(code, solution, harness, request, stdin, workspace, io_dir, may_kill_all):
    case_dir = os.path.join(workspace, "case")
    os.makedirs(case_dir, exist_ok=True)
    paths = {name: os.path.join(io_dir, name) for name in ("in", "out")}
    with open(paths["in"], "wb") as handle:
        handle.write(stdin)
    stderr_read, stderr_write = os.pipe()
    started = time.monotonic()
    child = os.fork()
    if child == 0:
        os.close(stderr_read)
        become_case(code, solution, harness, request, paths, stderr_write, case_dir)
    os.close(stderr_write)
    stderr, stopped, cpu, memory_kb = watch(child, stderr_read, started, request)
    if stopped:
        kill(child)
    _, status, usage = os.wait4(child, 0)
    wall = time.monotonic() - started
    os.close(stderr_read)
    clean_up(child, may_kill_all, case_dir)
    with open(paths["out"], "rb") as handle:
        stdout = handle.read(request["output"] + 1)
    report = {
        "exit_code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        "cpu": max(usage.ru_utime + usage.ru_stime, cpu),
        "wall": wall,
        "memory_kb": max(usage.ru_maxrss, memory_kb),
        "stopped": stopped,
    }
    return report, stdout, stderr


def become_case(code, solution, harness, request, paths, stderr_fd, case_dir):
    """In the child: take the case's files and limits, then run the submission; never returns."""
    try:
        os.setsid()
        os.chdir(case_dir)
        os.dup2(os.open(paths["in"], os.O_RDONLY), 0)
        os.dup2(os.open(paths["out"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), 1)
        os.dup2(stderr_fd, 2)
        os.closerange(3, 256)
        cpu_seconds = int(request["cpu"]) + 2
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
        resource.setrlimit(resource.RLIMIT_FSIZE, (request["output"], request["output"]))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_NOFILE, (request["nofile"], request["nofile"]))
        if request["address_space"]:
            resource.setrlimit(resource.RLIMIT_AS, (request["address_space"], request["address_space"]))
        sys.stdin = io.TextIOWrapper(io.BufferedReader(io.FileIO(0, "rb", closefd=False)), encoding="utf-8")
        sys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "wb", closefd=False)), encoding="utf-8")
        sys.stderr = io.TextIOWrapper(io.FileIO(2, "wb", closefd=False), encoding="utf-8",
                                      errors="backslashreplace", line_buffering=True)
        random.seed()  # a fresh fork must not replay the server's random state
    except BaseException:  # noqa: BLE001 - the child must never return into the server loop
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
    """Wait for the child, draining its stderr; stop it at the CPU, memory or wall limit."""
    pidfd = os.pidfd_open(child)
    poller = select.poll()
    poller.register(pidfd, select.POLLIN)
    poller.register(stderr_fd, select.POLLIN)
    kept, dropped, cpu, memory_kb, stopped = bytearray(), 0, 0.0, 0, None
    ceiling_kb = request["memory"] // 1024
    first = True
    try:
        while True:
            remaining = started + request["wall"] - time.monotonic()
            if not first:  # most runs end within the first poll: no need to read /proc for them
                tree_cpu, tree_kb = proc_usage.tree_usage(child)
                cpu, memory_kb = max(cpu, tree_cpu), max(memory_kb, tree_kb)
            first = False
            if remaining <= 0:
                stopped = "wall"
            elif cpu > request["cpu"] + 0.05:
                stopped = "cpu"
            elif memory_kb > ceiling_kb:
                stopped = "memory"
            if stopped:
                break
            events = poller.poll(min(remaining, POLL) * 1000)
            if any(fd == pidfd for fd, _ in events):
                os.set_blocking(stderr_fd, False)
                try:
                    while len(kept) < STDERR_KEEP:
                        chunk = os.read(stderr_fd, 65536)
                        if not chunk:
                            break
                        kept += chunk
                except BlockingIOError:
                    pass
                break
            if any(fd == stderr_fd for fd, _ in events):
                chunk = os.read(stderr_fd, 65536)
                if not chunk:
                    poller.unregister(stderr_fd)
                room = STDERR_KEEP - len(kept)
                kept += chunk[:max(room, 0)]
                dropped += max(0, len(chunk) - max(room, 0))
    finally:
        os.close(pidfd)
    text = bytes(kept[:STDERR_KEEP])
    if dropped:
        text += f"\n[... {dropped} more bytes of stderr not kept]".encode()
    return text, stopped, cpu, memory_kb


def kill(child):
    for target in (lambda: os.killpg(child, signal.SIGKILL), lambda: os.kill(child, signal.SIGKILL)):
        try:
            target()
        except OSError:
            pass


def clean_up(child, may_kill_all, case_dir):
    """Nothing a case started may outlive it: kill everything but the server, reap, empty the dir."""
    if may_kill_all:
        try:
            os.kill(-1, signal.SIGKILL)  # every process this uid may signal, except ourselves
        except OSError:
            pass
    else:
        kill(child)
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline:  # reap at once; killed processes take a moment to exit
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                time.sleep(0.001)
        except ChildProcessError:
            break
    if not os.listdir(case_dir):
        return
    for root, directories, files in os.walk(case_dir, topdown=False):
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
