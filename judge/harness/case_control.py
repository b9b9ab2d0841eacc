"""What every warm server shares (python_server.py and exec_server.py): the protocol with the
judge, the case's files, watching a case against its limits, and killing, reaping and cleaning up
after it. Runs INSIDE the sandbox, next to the servers: standard library only, nothing of the judge.

Protocol on the server's stdin/stdout, one exchange per case (fixed-size binary headers; the judge
imports them from this file):
  judge -> server: REQUEST (stdin size N, limits), then N bytes of standard input
  server -> judge: STARTED as the case starts (the judge's own wall clock runs from there: a
                   case that stops its server is stopped by the judge), then REPORT (how the
                   run ended, its usage, stdout size N, stderr size M), then N + M bytes
The server empties the case's directories after the report, before it reads the next request.

The Python server loads this module before it forks its zygote, so everything imported here is
copied into every Python case: keep the imports to what a case needs anyway (select is imported
where it is used, by the server alone).
"""

import os
import struct
import time

try:
    import resource
except ImportError:  # Windows: the judge imports the protocol there, and never starts a server
    resource = None

try:
    import ipc_objects  # next to this file in the program directory (the server registered it)
    import proc_usage
    import process_watch
except ImportError:  # the judge, importing the protocol
    from judge.harness import ipc_objects, proc_usage, process_watch

cpu_rlimit = process_watch.cpu_rlimit
PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36
SIGKILL = 9  # not from the signal module, which would bring enum and functools into every Python case
REQUEST = struct.Struct("=qddqqqq")
REQUEST_FIELDS = ("stdin", "cpu", "wall", "memory", "output", "address_space", "nofile")  # seconds, bytes
REPORT = struct.Struct("=qqddqqqq")
STARTED = b"s"
REPORT_FIELDS = ("exit_code", "signal", "cpu", "wall", "memory_kb", "stopped", "stdout", "stderr")
NONE = -1  # exit_code or signal: none (killed by a signal, or exited)
STOPPED = (None, "wall", "cpu", "memory")  # "stopped" is an index into this
SWEEP_ROUNDS = 200
# The world-writable directories of a Linux system. Where the sandbox gives a run none of its
# own (the weaker tiers), they are the host's, shared with everyone.
SHARED_DIRECTORIES = ("/tmp", "/var/tmp", "/dev/shm")
# Marks a directory given to a server of which only the entries of the server's own uid (a
# sandbox slot's, which the case shares) are the case's to remove. The judge gives these only
# when the server runs as a slot's uid.
OWNED_ONLY = "owned:"
# Given among the directories when the server's uid is a slot's in the host's user namespace
# (the root tier): the uid is the run's alone, so its keyrings are the case's to clear.
OWN_UID = "own-uid:"


def take_control_channel():
    """The judge's pipes (stdin and stdout) as files of their own; descriptors 0 and 1 become
    /dev/null, so that nothing a case inherits can talk to the judge."""
    control_in = os.fdopen(os.dup(0), "rb")
    control_out = os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.close(null)
    return control_in, control_out


def serve(run_case, case, control_in, control_out):
    """A server's loop: a request from the judge in, ``run_case(request, stdin, announce)``
    (which calls ``announce`` as the case starts and returns the report, stdout and stderr), its
    report out, ``case`` cleaned; until the judge hangs up."""

    def announce():
        control_out.write(STARTED)
        control_out.flush()

    while True:
        header = control_in.read(REQUEST.size)
        if len(header) < REQUEST.size:
            return
        request = dict(zip(REQUEST_FIELDS, REQUEST.unpack(header)))
        stdin = control_in.read(request["stdin"])
        report, stdout, stderr = run_case(request, stdin, announce)
        report["stopped"] = STOPPED.index(report["stopped"])
        report["stdout"], report["stderr"] = len(stdout), len(stderr)
        control_out.write(REPORT.pack(*(report[field] for field in REPORT_FIELDS)) + stdout + stderr)
        control_out.flush()
        case.clean()  # after the report: the judge's wall clock does not wait for it


def report_of(status, stopped, cpu, wall, memory_kb):
    """The report of a case that ended with wait ``status``."""
    return {
        "exit_code": os.WEXITSTATUS(status) if os.WIFEXITED(status) else NONE,
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else NONE,
        "cpu": cpu,
        "wall": wall,
        "memory_kb": memory_kb,
        "stopped": stopped,
    }


def prctl(option, value):
    import ctypes  # the only way to prctl from the standard library

    try:
        ctypes.CDLL(None).prctl(option, value, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def read_exactly(fd, size):
    data = b""
    while len(data) < size:
        chunk = os.read(fd, size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


class Case:
    """Where a case runs: its working directory, the directories emptied after it (that one
    included, with the modes they had at the start), and its standard input and output.

    stdin and stdout are memory files (memfd), not files in a directory: a case that fills the
    sandbox's /tmp or its own directory cannot break its own output, as in a cold run, whose
    stdout is a file outside the sandbox. The output limit (RLIMIT_FSIZE) applies to them as to
    any file. The server writes stdin and reads stdout through descriptors of its own; the child
    gets stdin read-only and stdout write-only, as a cold run opens them."""

    def __init__(self, directory, scratch_dirs):
        """``scratch_dirs``: the directories emptied after each case; one given as OWNED_ONLY +
        path is shared with the host, and only what the server's uid owns there is removed."""
        self.directory = directory
        self.shared_dirs = [path[len(OWNED_ONLY):] for path in scratch_dirs if path.startswith(OWNED_ONLY)]
        # The uid is the run's alone in a user namespace of the sandbox's, or when it is a slot's
        # (the judge gives OWNED_ONLY directories or OWN_UID only then): its keyrings are the
        # run's to clear.
        self.uid_is_the_runs = (bool(self.shared_dirs) or OWN_UID in scratch_dirs
                                or ipc_objects.in_own_user_namespace())
        scratch_dirs = [path for path in scratch_dirs if not path.startswith((OWNED_ONLY, OWN_UID))]
        # Files in the sandbox's in-memory directories are memory, as a cold run counts them
        # (none without private directories: then they are the host's, and a cold run's too).
        self.memory_mounts = proc_usage.writable_tmpfs_mounts() if scratch_dirs[1:] else []
        self.scratch_modes = {path: os.stat(path).st_mode & 0o7777 for path in scratch_dirs if os.path.isdir(path)}
        self.stdin_fd, self.stdout_fd = os.memfd_create("stdin"), os.memfd_create("stdout")
        self.case_stdin_fd = os.open(f"/proc/self/fd/{self.stdin_fd}", os.O_RDONLY | os.O_CLOEXEC)
        self.case_stdout_fd = os.open(f"/proc/self/fd/{self.stdout_fd}", os.O_WRONLY | os.O_CLOEXEC)
        # The case's stdin and stdout are the server's memory files, not memory of the case's.
        self.own_files = {(status.st_dev, status.st_ino) for status in map(os.fstat, (self.stdin_fd, self.stdout_fd))}

    def prepare(self, stdin):
        """The case's input in place and its output empty, both read or written from the start."""
        os.ftruncate(self.stdin_fd, 0)
        view, offset = memoryview(stdin), 0
        while offset < len(view):
            offset += os.pwrite(self.stdin_fd, view[offset:], offset)
        os.ftruncate(self.stdout_fd, 0)
        for fd in (self.case_stdin_fd, self.case_stdout_fd):
            os.lseek(fd, 0, os.SEEK_SET)

    def enter(self):
        """In the case's child: its session, working directory and standard input and output
        (stderr, descriptor 2, is the server's pipe already); nothing else of the server's open."""
        os.setsid()
        os.chdir(self.directory)
        os.dup2(self.case_stdin_fd, 0)
        os.dup2(self.case_stdout_fd, 1)
        os.closerange(3, 256)
        # The three are open file descriptions every case shares (stderr the zygote's pipe): a
        # flag an earlier case set on them (non-blocking: a write to a full pipe would fail)
        # must not reach this one.
        for fd in (0, 1, 2):
            os.set_blocking(fd, True)

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

    def clean(self):
        """Empty the directories the case could write, remove the System V IPC objects it made
        and the keys it left in the uid's keyrings, as a cold run would find them."""
        for directory, mode in self.scratch_modes.items():
            empty(directory, mode)
        remove_owned_by(os.getuid(), self.shared_dirs)
        ipc_objects.remove_created_by(os.getuid())
        if self.uid_is_the_runs:
            ipc_objects.clear_keyrings()


def limit_case(cpu, output, address_space, open_files):
    """In the case's child: its own limits, as a cold run's prlimit sets them (the process count,
    the stack and core dumps are the server's, inherited)."""
    resource.setrlimit(resource.RLIMIT_CPU, cpu_rlimit(cpu))
    resource.setrlimit(resource.RLIMIT_FSIZE, (output, output))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))
    if address_space:
        resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))


def watch(child, parent, stderr_fd, started, request, memory_mounts=(), own_files=()):
    """Wait for the child, keeping its stderr; stop it at the CPU, memory or wall limit.
    Returns (the stderr kept, why it was stopped or None, peak CPU seconds, peak KiB) as read
    from /proc for every process below ``parent`` (the server or zygote that started the child,
    all of whose children are the case's: the child, its descendants, and the siblings it made
    itself with clone's CLONE_PARENT), with what the files in ``memory_mounts`` (tmpfs mount
    points), the shared memory segments of the server's uid and the memory files the processes
    hold open (but ``own_files``, the server's: the case's stdin and stdout) hold."""

    def read():
        processes = proc_usage.descendants(parent)
        cpu, resident_kb = proc_usage.usage(processes)
        return cpu, {"resident": resident_kb,
                     "memory files": proc_usage.memory_files_kb(processes, own_files),
                     "in-memory files": sum(proc_usage.tmpfs_kb(point) for point in memory_mounts),
                     # Shared memory segments the case made (and detached) are memory too.
                     "shared memory": ipc_objects.shared_memory_kb(os.getuid())}

    seen = process_watch.watch(child, stderr_fd, started + request["wall"], request["cpu"],
                               request["memory"] // 1024, read, first_reading=process_watch.POLL)
    return seen.stderr, seen.stopped, seen.cpu, seen.memory_kb


def kill(child):
    """Kill the case's session (its process group) and the child itself."""
    for target in (lambda: os.killpg(child, SIGKILL), lambda: os.kill(child, SIGKILL)):
        try:
            target()
        except OSError:
            pass


def sweep():
    """Kill and reap every process left under this one (a subreaper: orphans and daemons a case
    left are re-parented here); nothing a case started outlives it."""
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


def remove_owned_by(uid, directories):
    """Remove every entry of ``directories`` that ``uid`` owns (a directory with all it holds)."""
    for directory in directories:
        try:
            entries = list(os.scandir(directory))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.stat(follow_symlinks=False).st_uid != uid:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    empty(entry.path, 0o700)
                    os.rmdir(entry.path)
                else:
                    os.unlink(entry.path)
            except OSError:
                continue


# (getattr: Windows has none of these, and the judge imports this module there too.)
DIRECTORY_FLAGS = os.O_RDONLY | sum(getattr(os, name, 0) for name in ("O_DIRECTORY", "O_NOFOLLOW", "O_CLOEXEC"))


def empty(directory, mode):
    """Remove everything in ``directory`` (what a case wrote there) and give it back ``mode``,
    whatever permissions the case gave it and what is in it: a directory it made unreadable
    or unwritable is opened up first. The walk goes down and up one descriptor at a time, by
    names relative to it: a tree deeper than a path may be long, or than the descriptors the
    server may open, is emptied all the same."""
    try:
        os.chmod(directory, mode)
    except OSError:
        pass
    try:
        fd = os.open(directory, DIRECTORY_FLAGS)
    except OSError:
        return
    stack = [(None, _all_but_directories_removed(fd))]  # (name in its parent, subdirectories left)
    try:
        while stack:
            name, left = stack[-1]
            if left:
                below = left.pop()
                try:
                    child = os.open(below, DIRECTORY_FLAGS, dir_fd=fd)
                except OSError:
                    continue
                os.close(fd)
                fd = child
                stack.append((below, _all_but_directories_removed(fd)))
                continue
            stack.pop()
            if name is None:
                return
            parent = os.open("..", DIRECTORY_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = parent
            try:
                os.rmdir(name, dir_fd=fd)
            except OSError:
                pass
    except OSError:
        pass
    finally:
        os.close(fd)


def _all_but_directories_removed(fd):
    """Unlink every entry of the directory ``fd`` but its subdirectories (files and links, never
    followed); return the names of those, each opened up to be entered."""
    subdirectories = []
    try:
        entries = [entry.name for entry in os.scandir(fd)]
    except OSError:
        return subdirectories
    for name in entries:
        try:
            os.unlink(name, dir_fd=fd)
            continue
        except IsADirectoryError:
            pass
        except OSError:
            continue
        try:
            os.chmod(name, 0o700, dir_fd=fd)
        except OSError:
            pass
        subdirectories.append(name)
    return subdirectories
