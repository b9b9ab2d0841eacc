"""Warm Python runs. Runs INSIDE the sandbox; imports nothing of the judge and holds no expected
data: it only knows the submission.

The judge starts one server per submission. The server compiles the submission once, imports the
standard library modules it uses, then forks a *zygote*, which forks one child per case. The child
applies the case's limits to itself and runs the submission as a cold run does (start.py, next
to this file), or calls `solution` through the function harness. The server measures the child
(its process tree in /proc while it runs), stops it at a limit and reports back; the zygote waits
for the child, kills and reaps whatever the case left behind (the rusage of all it reaped is the
case's), and the server empties the directories the case could write.

Why a zygote: a fork copies the page tables of the forking process, and after it every page that
process writes again costs a copy-on-write fault. So the zygote holds only what a case needs: it
is forked before the server loads its own module (select), and the server's per-case Python work
(messages, files, /proc) stays out of it. The server itself starts from bytecode, so that no
compiler garbage is left for the zygote to carry. The zygote forks each child ahead of its case,
as soon as the previous case is over; the child waits for its limits.

Protocol on stdin/stdout, one exchange per case (fixed-size binary headers, below; the judge
imports them from this file):
  judge -> server: REQUEST (stdin size N, limits), then N bytes of standard input
  server -> judge: REPORT (how the run ended, its usage, stdout size N, stderr size M), then
                   N + M bytes
Between server, zygote and child, per case (fixed-size binary messages on three pipes):
  zygote -> server: the pid of the child waiting for the next case
  server -> child: CASE_LIMITS, which starts the case
  server -> zygote: b"r" once the child is over; zygote -> server: CHILD_END (wait status, peak
                    memory, and the CPU time of everything reaped for the case)
"""

# Only what the zygote and every case need: everything imported before the zygote is forked
# is copied into each case.
import atexit
import io
import os
import resource
import struct
import sys
import time

# Imported before the zygote is forked when the submission uses them, so that every case finds
# them loaded. Only modules whose import has no visible effect (`this` prints, for one).
WARM_MODULES = ("array", "bisect", "collections", "copy", "dataclasses", "datetime", "decimal", "enum",
                "fractions", "functools", "heapq", "itertools", "math", "operator", "random", "re",
                "statistics", "string", "typing")

POLL = 0.05
STDERR_KEEP = 64 * 1024
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
SIGKILL = 9  # not from the signal module, which would bring enum and functools into every case
REQUEST = struct.Struct("=qddqqqq")
REQUEST_FIELDS = ("stdin", "cpu", "wall", "memory", "output", "address_space", "nofile")  # seconds, bytes
REPORT = struct.Struct("=qqddqqqq")
REPORT_FIELDS = ("exit_code", "signal", "cpu", "wall", "memory_kb", "stopped", "stdout", "stderr")
NONE = -1  # exit_code or signal: none (killed by a signal, or exited)
STOPPED = (None, "wall", "cpu", "memory")  # "stopped" is an index into this
CASE_LIMITS = struct.Struct("=dqqq")  # cpu seconds, output bytes, address space bytes (0: none), open files
CHILD_PID = struct.Struct("=i")
CHILD_END = struct.Struct("=iqdd")  # wait status, peak resident KiB, user and system seconds
SWEEP_ROUNDS = 200


def main():
    solution, style, private_dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.environ.pop("LD_BIND_NOW", None)  # it did its work at start-up; cases see the usual environment
    control_in = os.fdopen(os.dup(0), "rb")
    control_out = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    # Not dumpable (inherited by the zygote): a child running as the same user cannot open
    # /proc/<server>/fd and forge the server's reports.
    prctl(PR_SET_DUMPABLE, 0)
    code = compile_submission(solution, style)
    harness = load_sibling("harness") if style == "function" else None
    start.install_quitters()
    if not isinstance(code, SyntaxError):
        warm_up(code)
    # The case works in the server's working directory, emptied after each case as are the
    # sandbox's other writable directories (a cold run has them fresh).
    case = Case(os.getcwd(), [os.getcwd(), *private_dirs])
    zygote = start_zygote(code, solution, harness, case, [control_in, control_out])
    serve(zygote, case, control_in, control_out)


def compile_submission(solution, style):
    """The submission's code, read as a cold run reads it; for a script the interpreter cannot
    read (a byte that is not UTF-8 where no encoding is declared), the SyntaxError each case
    reports instead."""
    if style == "function":  # the harness imports it, which decodes it as compile() does
        with open(solution, "rb") as handle:
            return compile(handle.read(), solution, "exec", dont_inherit=True)
    try:
        return start.compile_script(solution)
    except SyntaxError as error:
        return error


def serve(zygote, case, control_in, control_out):
    """The server's loop: a request from the judge in, a report out, until the judge hangs up."""
    while True:
        header = control_in.read(REQUEST.size)
        if len(header) < REQUEST.size:
            return
        request = dict(zip(REQUEST_FIELDS, REQUEST.unpack(header)))
        stdin = control_in.read(request["stdin"])
        report, stdout, stderr = run_case(zygote, case, request, stdin)
        report["stopped"] = STOPPED.index(report["stopped"])
        report["stdout"], report["stderr"] = len(stdout), len(stderr)
        control_out.write(REPORT.pack(*(report[field] for field in REPORT_FIELDS)) + stdout + stderr)
        control_out.flush()


def prctl(option, value):
    import ctypes  # the only way to prctl from the standard library

    try:
        ctypes.CDLL(None).prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def warm_up(code):
    """Import the warm modules the submission refers to, so that every forked child finds them
    loaded (the text layers are built once too: see standard_streams)."""
    names = referenced_names(code)
    for name in WARM_MODULES:
        if name in names:
            __import__(name)


def referenced_names(code):
    """The first part of every name the code (functions and classes included) refers to: its
    imports among them. A variable that shares a module's name only warms that module too."""
    names, pending = set(), [code]
    while pending:
        current = pending.pop()
        names.update(name.partition(".")[0] for name in current.co_names)
        pending += [constant for constant in current.co_consts if isinstance(constant, type(code))]
    return names


class Case:
    """Where a case runs: its working directory, the directories emptied after it (that one
    included, with the modes they had at the start), and its standard input and output.

    stdin and stdout are memory files (memfd), not files in a directory: a case that fills the
    sandbox's /tmp or its own directory cannot break its own output, as in a cold run, whose
    stdout is a file outside the sandbox. The output limit (RLIMIT_FSIZE) applies to them as to
    any file. The server writes stdin and reads stdout through descriptors of its own; the child
    gets stdin read-only and stdout write-only, as a cold run opens them."""

    def __init__(self, directory, scratch_dirs):
        self.directory = directory
        self.scratch_modes = {path: os.stat(path).st_mode & 0o7777 for path in scratch_dirs if os.path.isdir(path)}
        self.stdin_fd, self.stdout_fd = os.memfd_create("stdin"), os.memfd_create("stdout")
        self.case_stdin_fd = os.open(f"/proc/self/fd/{self.stdin_fd}", os.O_RDONLY | os.O_CLOEXEC)
        self.case_stdout_fd = os.open(f"/proc/self/fd/{self.stdout_fd}", os.O_WRONLY | os.O_CLOEXEC)

    def prepare(self, stdin):
        """The case's input in place and its output empty, both read or written from the start."""
        os.ftruncate(self.stdin_fd, 0)
        view, offset = memoryview(stdin), 0
        while offset < len(view):
            offset += os.pwrite(self.stdin_fd, view[offset:], offset)
        os.ftruncate(self.stdout_fd, 0)
        for fd in (self.case_stdin_fd, self.case_stdout_fd):
            os.lseek(fd, 0, os.SEEK_SET)

    def output(self, limit):
        """Up to ``limit`` bytes of what the case wrote to stdout."""
        chunks, size = [], 0
        while size < limit:
            chunk = os.pread(self.stdout_fd, min(limit - size, 1 << 20), size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)


class Zygote:
    """The server's end of the pipes to the zygote and its children, and the stderr pipe every
    case writes to."""

    def __init__(self, requests, replies, starts, stderr):
        self.requests, self.replies, self.starts, self.stderr = requests, replies, starts, stderr

    def send(self, data, fd=None):
        try:
            os.write(self.requests if fd is None else fd, data)
        except OSError:
            gone()

    def start_case(self, limits):
        """Hand the waiting child its limits: the case begins."""
        self.send(limits, self.starts)

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
    starts_read, starts_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        for handle in server_files:
            handle.close()
        for fd in (stderr_read, requests_write, replies_read, starts_write):
            os.close(fd)
        try:
            run_zygote(code, solution, harness, case, stderr_write, requests_read, replies_write, starts_read)
        finally:
            os._exit(0)
    for fd in (stderr_write, requests_read, replies_write, starts_read):
        os.close(fd)
    os.set_blocking(stderr_read, False)
    return Zygote(requests_write, replies_read, starts_write, stderr_read)


def run_zygote(code, solution, harness, case, stderr_fd, requests, replies, starts):
    """The zygote's loop: fork the next case's child, wait for it, sweep away what it left."""
    # Whatever a case's processes leave behind (daemons, double forks) is re-parented here, so
    # the sweep after each case finds all of it.
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    atexit._clear()  # each case starts, as a fresh interpreter does, with no exit functions
    standard_streams(stderr_fd)
    while True:
        # Everything the zygote reaps from here on is this case's: the child with the children it
        # waited for, and what the sweep kills (orphans re-parented here, a thread's children).
        reaped_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        # Forked ahead: the fork costs no time between the judge's request and the case's start.
        child = os.fork()
        if child == 0:
            limits = read_exactly(starts, CASE_LIMITS.size)
            if limits is None:  # the server is gone: there is no next case
                os._exit(0)
            become_case(code, solution, harness, CASE_LIMITS.unpack(limits), case)
        os.write(replies, CHILD_PID.pack(child))
        case_over = read_exactly(requests, 1) is not None
        if not case_over:
            os.kill(child, SIGKILL)  # still waiting for a case that will not come
        _, status, usage = os.wait4(child, 0)
        sweep()
        if not case_over:
            return
        reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
        os.write(replies, CHILD_END.pack(status, usage.ru_maxrss, reaped.ru_utime - reaped_before.ru_utime,
                                          reaped.ru_stime - reaped_before.ru_stime))


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
                os.kill(pid, SIGKILL)
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


def load_sibling(name):
    """A module shipped next to this file (-I keeps this directory off sys.path), loaded without
    importlib, which the zygote would carry."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{name}.py")
    module = type(sys)(name)
    module.__file__ = path
    with open(path, "rb") as handle:
        exec(compile(handle.read(), path, "exec", dont_inherit=True), module.__dict__)  # noqa: S102 - our own file
    return module


def run_case(zygote, case, request, stdin):
    case.prepare(stdin)
    started = time.monotonic()
    zygote.start_case(CASE_LIMITS.pack(request["cpu"], request["output"], request["address_space"], request["nofile"]))
    (child,) = zygote.receive(CHILD_PID)
    stderr, stopped, cpu, memory_kb = watch(child, zygote.stderr, started, request)
    if stopped:
        kill(child)
    zygote.send(b"r")
    status, peak_kb, user, system = zygote.receive(CHILD_END)
    wall = time.monotonic() - started
    stderr.take(zygote.stderr)  # the rest, now that nothing can write any more
    for directory, mode in case.scratch_modes.items():
        empty(directory, mode)
    stdout = case.output(request["output"] + 1)
    report = {
        "exit_code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else NONE,
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else NONE,
        "cpu": max(user + system, cpu),
        "wall": wall,
        "memory_kb": max(peak_kb, memory_kb),
        "stopped": stopped,
    }
    return report, stdout, stderr.text()


def standard_streams(stderr_fd):
    """Python's standard streams, as a fresh interpreter has them, on descriptors 0, 1 and 2.

    Built in the zygote (each child would spend a quarter of a millisecond building its own),
    while nothing has used them: 0 and 1 are /dev/null until each child puts its case's files
    there, and 2 is already the stderr pipe every case writes to."""
    os.dup2(stderr_fd, 2)
    sys.stdin = sys.__stdin__ = stream_like(sys.__stdin__, 0, "<stdin>")
    sys.stdout = sys.__stdout__ = stream_like(sys.__stdout__, 1, "<stdout>")
    sys.stderr = sys.__stderr__ = stream_like(sys.__stderr__, 2, "<stderr>")


def stream_like(original, fd, name):
    """A stream on ``fd`` made as Python made ``original`` at start-up: with the encoding and
    error handler it chose for this locale, its buffering, and no newline translation."""
    raw = io.FileIO(fd, "rb" if fd == 0 else "wb", closefd=False)
    raw.name = name
    buffer = io.BufferedReader(raw) if fd == 0 else io.BufferedWriter(raw)
    stream = io.TextIOWrapper(buffer, encoding=original.encoding, errors=original.errors, newline="\n",
                              line_buffering=original.line_buffering, write_through=original.write_through)
    stream.mode = "r" if fd == 0 else "w"
    return stream


def become_case(code, solution, harness, limits, case):
    """In the child: take the case's files and limits, then run the submission; never returns."""
    cpu, output, address_space, open_files = limits
    try:
        os.setsid()
        os.chdir(case.directory)
        os.dup2(case.case_stdin_fd, 0)
        os.dup2(case.case_stdout_fd, 1)
        os.closerange(3, 256)
        cpu_seconds = int(cpu) + 2
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_seconds, cpu_seconds + 1))
        resource.setrlimit(resource.RLIMIT_FSIZE, (output, output))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))
        if address_space:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    except BaseException:  # noqa: BLE001 - the child must never return into the zygote's loop
        os._exit(121)
    os._exit(run_submission(code, solution, harness))


def run_submission(code, solution, harness):
    """Run the submission as a cold run would (see start.py); return its exit status."""
    status = 0
    try:
        if harness is not None:
            sys.argv = [os.path.join(os.path.dirname(solution), "harness.py"), solution]
            harness.main()  # it sets its own recursion limit
        elif isinstance(code, SyntaxError):  # a source the interpreter cannot read
            start.report_unreadable(code)
            status = 1
        else:
            sys.argv = [solution]
            start.run_script(code, solution)
    except SystemExit as exit_request:
        status = exit_status(exit_request.code)
    except BaseException as error:  # noqa: BLE001 - reported as Python itself would
        start.report_uncaught(error, own_frames=1 if harness is not None else 2)
        status = 1
    return finish(status)


def finish(status):
    """What Python does once the main module is done: wait for the threads the submission
    started (but daemons), call its atexit functions, flush the standard streams. Returns the
    exit status."""
    threading = sys.modules.get("threading")
    if threading is not None:
        try:
            threading._shutdown()
        except BaseException:  # noqa: BLE001 - Python only reports it
            traceback_to_stderr()
    atexit._run_exitfuncs()  # reports failures itself, as at a real exit
    return flush_at_exit(status)


def traceback_to_stderr():
    try:
        sys.excepthook(*sys.exc_info())
    except BaseException:  # noqa: BLE001, S110 - nowhere left to report to
        pass


def flush_at_exit(status):
    """Flush the standard streams as Python does at exit; return the exit status."""
    # The streams in use, unless closed: if one cannot be flushed (the output limit, say),
    # Python exits 120 whatever the status was.
    for stream in (sys.stdout, sys.stderr):
        if stream is not None and not is_closed(stream):
            try:
                stream.flush()
            except BaseException:  # noqa: BLE001
                status = 120
    # The original ones, if the submission replaced them: Python flushes them as it tears them
    # down, whatever comes of it (sys.__stdout__ holds what was written there).
    for stream in (sys.__stdout__, sys.__stderr__):
        if stream not in (None, sys.stdout, sys.stderr) and not is_closed(stream):
            try:
                stream.flush()
            except BaseException:  # noqa: BLE001, S110 - Python ignores it too
                pass
    return status


def is_closed(stream):
    try:
        return bool(stream.closed)
    except BaseException:  # noqa: BLE001 - Python, too, takes a stream it cannot ask as open
        return False


def exit_status(code):
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    print(code, file=sys.stderr)
    return 1


def watch(child, stderr_fd, started, request):
    """Wait for the child, keeping its stderr; stop it at the CPU, memory or wall limit."""
    import select  # the server's own: loaded after the zygote was forked

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
            if stderr_fd in events and not stderr.take(stderr_fd):
                # End of file: nothing holds the pipe any more (a case killed the zygote, which
                # holds it for every case). Polling it again would report that at once, forever.
                poller.unregister(stderr_fd)
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
        """Read what the (non-blocking) pipe holds now; False once it is at end of file."""
        while True:
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                return True
            if not chunk:
                return False
            room = max(STDERR_KEEP - len(self.kept), 0)
            self.kept += chunk[:room]
            self.dropped += max(0, len(chunk) - room)

    def text(self):
        text = bytes(self.kept)
        if self.dropped:
            text += f"\n[... {self.dropped} more bytes of stderr not kept]".encode()
        return text


def kill(child):
    for target in (lambda: os.killpg(child, SIGKILL), lambda: os.kill(child, SIGKILL)):
        try:
            target()
        except OSError:
            pass


def empty(directory, mode):
    """Remove everything in ``directory`` (what a case wrote there) and give it back ``mode``,
    whatever permissions the case gave it and what is in it: a directory it made unreadable
    or unwritable is opened up first."""
    try:
        os.chmod(directory, mode)
    except OSError:
        pass
    pending, opened = [directory], []
    while pending:
        current = pending.pop()
        try:
            names = os.listdir(current)
        except OSError:
            continue
        opened.append(current)
        for name in names:
            path = os.path.join(current, name)
            try:
                os.unlink(path)  # a file or a link (never followed)
                continue
            except IsADirectoryError:
                pass
            except OSError:
                continue
            try:
                os.chmod(path, 0o700)
            except OSError:
                pass
            pending.append(path)
    for path in reversed(opened[1:]):  # each directory after those inside it
        try:
            os.rmdir(path)
        except OSError:
            pass


if __name__ == "__main__":
    proc_usage = load_sibling("proc_usage")
    start = load_sibling("start")
    main()
