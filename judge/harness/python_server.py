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

The protocol with the judge, the case's files, the watch over a case and the sweep after it
are shared with the exec server (case_control.py, next to this file).

Between server, zygote and child, per case (fixed-size binary messages on three pipes):
  zygote -> server: the pid of the child waiting for the next case
  server -> child: CASE_LIMITS, which starts the case
  server -> zygote: b"r" once the child is over; zygote -> server: CHILD_END (wait status, peak
                    memory, and the CPU time of everything reaped for the case)
"""

# Only what the zygote and every case need: everything imported before the zygote is forked
# is copied into each case.
import _weakref
import atexit
import gc
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

CASE_LIMITS = struct.Struct("=dqqq")  # cpu seconds, output bytes, address space bytes (0: none), open files
CHILD_PID = struct.Struct("=i")
CHILD_END = struct.Struct("=iqdd")  # wait status, peak resident KiB, user and system seconds


def main():
    solution, style, private_dirs = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.environ.pop("LD_BIND_NOW", None)  # it did its work at start-up; cases see the usual environment
    control_in, control_out = control.take_control_channel()
    # Not dumpable (inherited by the zygote): a child running as the same user cannot open
    # /proc/<server>/fd and forge the server's reports.
    control.prctl(control.PR_SET_DUMPABLE, 0)
    code = compile_submission(solution, style)
    harness = load_sibling("harness") if style == "function" else None
    start.install_quitters()
    if not isinstance(code, SyntaxError):
        warm_up(code)
    # The case works in the server's working directory, emptied after each case as are the
    # sandbox's other writable directories (a cold run has them fresh).
    case = control.Case(os.getcwd(), [os.getcwd(), *private_dirs])
    zygote = start_zygote(code, solution, harness, case, [control_in, control_out])
    control.serve(lambda request, stdin, announce: run_case(zygote, case, request, stdin, announce), case,
                  control_in, control_out)


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


class Zygote:
    """The server's end of the pipes to the zygote and its children, and the stderr pipe every
    case writes to."""

    def __init__(self, pid, requests, replies, starts, stderr):
        self.pid = pid
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
        data = control.read_exactly(self.replies, message.size)
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
    server = (os.getpid(), os.getppid())
    pid = os.fork()
    if pid == 0:
        # No case can signal the zygote, the server or the server's parent (the judge where there
        # is no PID namespace): a stopped zygote or server would stop the case's clock.
        guard.protect({os.getpid(), *server}, {os.getpgid(0)})
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
    return Zygote(pid, requests_write, replies_read, starts_write, stderr_read)


def run_zygote(code, solution, harness, case, stderr_fd, requests, replies, starts):
    """The zygote's loop: fork the next case's child, wait for it, sweep away what it left."""
    # Whatever a case's processes leave behind (daemons, double forks) is re-parented here, so
    # the sweep after each case finds all of it.
    control.prctl(control.PR_SET_CHILD_SUBREAPER, 1)
    make_dumpable = dumpable_setter()
    atexit._clear()  # each case starts, as a fresh interpreter does, with no exit functions
    standard_streams(stderr_fd)
    freeze_what_cases_start_with()
    while True:
        # Everything the zygote reaps from here on is this case's: the child with the children it
        # waited for, and what the sweep kills (orphans re-parented here, a thread's children).
        reaped_before = resource.getrusage(resource.RUSAGE_CHILDREN)
        # Forked ahead: the fork costs no time between the judge's request and the case's start.
        child = os.fork()
        if child == 0:
            limits = control.read_exactly(starts, CASE_LIMITS.size)
            if limits is None:  # the server is gone: there is no next case
                os._exit(0)
            become_case(code, solution, harness, CASE_LIMITS.unpack(limits), case, make_dumpable)
        os.write(replies, CHILD_PID.pack(child))
        case_over = control.read_exactly(requests, 1) is not None
        if not case_over:
            os.kill(child, control.SIGKILL)  # still waiting for a case that will not come
        _, status, usage = os.wait4(child, 0)
        control.sweep()
        if not case_over:
            return
        reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
        os.write(replies, CHILD_END.pack(status, usage.ru_maxrss, reaped.ru_utime - reaped_before.ru_utime,
                                          reaped.ru_stime - reaped_before.ru_stime))


def load_sibling(name):
    """A module shipped next to this file (-I keeps this directory off sys.path), loaded without
    importlib, which the zygote would carry: from the bytecode next to it when there is one (so
    that no compiler garbage is left for the zygote to carry), else from its source."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"{name}.py")
    module = type(sys)(name)
    module.__file__ = path
    sys.modules[name] = module  # the siblings import each other by name
    exec(sibling_code(path), module.__dict__)  # noqa: S102 - our own file
    return module


def sibling_code(path):
    """The code of the module at ``path``: its bytecode (``path`` + "c", compiled by this
    interpreter: see judge/languages/python.py) when it is there and loads, else its source."""
    import marshal  # built in: nothing to import from disk

    try:
        with open(path + "c", "rb") as handle:
            return marshal.loads(handle.read()[16:])  # past the header: magic, flags, source stamp
    except (OSError, ValueError, EOFError, TypeError):
        pass
    with open(path, "rb") as handle:
        return compile(handle.read(), path, "exec", dont_inherit=True)


def run_case(zygote, case, request, stdin, announce):
    case.prepare(stdin)
    announce()
    started = time.monotonic()
    zygote.start_case(CASE_LIMITS.pack(request["cpu"], request["output"], request["address_space"], request["nofile"]))
    (child,) = zygote.receive(CHILD_PID)
    stderr, stopped, cpu, memory_kb = control.watch(child, zygote.pid, zygote.stderr, started, request,
                                                    case.memory_mounts, case.own_files)
    if stopped:
        control.kill(child)
    zygote.send(b"r")
    status, peak_kb, user, system = zygote.receive(CHILD_END)
    wall = time.monotonic() - started
    stderr.take(zygote.stderr)  # the rest, now that nothing can write any more
    stdout = case.output(request["output"] + 1)
    report = control.report_of(status, stopped, max(user + system, cpu), wall, max(peak_kb, memory_kb))
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


def freeze_what_cases_start_with():
    """Move every object the zygote holds to the garbage collector's permanent generation
    (gc.freeze), so that no collection in a case traverses them.

    A fresh interpreter's collector traverses the few thousand objects of its start-up, in
    pages of its own; a forked case's would traverse the zygote's, and its first full
    collection would copy every page holding one (two collections cost a case that does
    nothing else about 2.5 ms of CPU time more). Frozen, the collector's work is the program's
    own objects, and that counts as it does cold (see end_as_python_does). The thresholds stay
    the interpreter's own."""
    gc.collect()  # what is garbage already, and the free lists, not carried into every case
    gc.freeze()


def dumpable_setter():
    """libc's prctl, resolved once in the zygote so that each case can make itself dumpable again
    at no cost: the server reads the memory of every process of the case in its smaps_rollup,
    which the kernel closes to everyone (the same user included) while a process is not
    dumpable. The zygote itself stays not dumpable, so that no case can open its pipes to the
    server. The modules ctypes brought are dropped from sys.modules again: a case finds the
    modules a cold run finds. None if there is no prctl."""
    before = set(sys.modules)
    import ctypes  # the only way to prctl from the standard library

    try:
        function = ctypes.CDLL(None).prctl
    except (OSError, AttributeError):
        function = None
    for name in set(sys.modules) - before:
        del sys.modules[name]
    return function


def become_case(code, solution, harness, limits, case, make_dumpable):
    """In the child: take the case's files and limits, then run the submission; never returns."""
    cpu, output, address_space, open_files = limits
    try:
        if make_dumpable is not None:
            make_dumpable(control.PR_SET_DUMPABLE, 1, 0, 0, 0)
        case.enter()
        control.limit_case(cpu, output, address_space, open_files)
    except BaseException:  # noqa: BLE001 - the child must never return into the zygote's loop
        os._exit(121)
    exit_now = os._exit  # bound here: the program's teardown may empty the globals of any module
    modules_before = dict(sys.modules)
    status = run_submission(code, solution, harness)
    try:
        status = end_as_python_does(status, modules_before)
    finally:
        exit_now(status)


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
    return status


def end_as_python_does(status, modules_before):
    """What the interpreter does once the main module is done (Py_FinalizeEx), for what the
    program made (``modules_before``: sys.modules as the case found it): wait for the threads
    it started (but daemons), call its atexit functions, flush the standard streams, collect
    garbage, tear down the program's modules (its __main__ and every module it imported) and
    collect again, so that __del__ methods run and its objects are freed, and flush again.
    Returns the exit status (120 if a flush failed).

    A cold run's CPU time counts all of it, and for a program that holds many objects at its
    end the collection and teardown take a tenth of its time or more; the interpreter's own
    teardown (what the zygote holds) is left out, as its start is. The case's process then
    exits at once."""
    threading = sys.modules.get("threading")
    if threading is not None:
        try:
            threading._shutdown()
        except BaseException:  # noqa: BLE001 - Python only reports it
            traceback_to_stderr()
    atexit._run_exitfuncs()  # reports failures itself, as at a real exit
    status = flush_at_exit(status)
    gc.collect()  # with everything still alive, as the interpreter's first collection at exit
    # The program's modules: those it imported, and the __main__ a script runs as (not the
    # server's own, which the function harness leaves in place).
    tear_down_modules([name for name, module in list(sys.modules.items()) if modules_before.get(name) is not module])
    return flush_at_exit(status)


def tear_down_modules(names):
    """Take the modules ``names`` out of sys.modules, collect garbage, and clear the globals of
    those something still holds, as the interpreter's finalize_modules does at exit."""
    left = []
    for name in names:
        try:
            left.append(_weakref.ref(sys.modules.pop(name, None)))
        except TypeError:  # not a module: whatever a program put there
            pass
    gc.collect()
    for reference in left:
        module = reference()
        if module is not None:
            clear_globals(module)


def clear_globals(module):
    """Set a module's globals to None, the names with one leading underscore first, then all
    but __builtins__ (CPython's _PyModule_ClearDict)."""
    namespace = getattr(module, "__dict__", None)
    if not isinstance(namespace, dict):
        return
    for first in (True, False):
        for name in list(namespace):
            if not isinstance(name, str):
                continue
            underscored = name.startswith("_") and not name.startswith("__")
            if (underscored if first else name != "__builtins__"):
                namespace[name] = None


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


if __name__ == "__main__":
    load_sibling("proc_usage")  # case_control imports them
    load_sibling("ipc_objects")
    load_sibling("process_watch")
    guard = load_sibling("signal_guard")
    control = load_sibling("case_control")
    start = load_sibling("start")
    main()
