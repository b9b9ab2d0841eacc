"""Run the judge as if on Windows or macOS, on this Linux machine: ``python simulated_host.py
{win32,darwin} -m judge ...`` (or ``... script.py``).

What the simulation makes true for the judge's own code (judge/):
- ``sys.platform`` is the other system's;
- the modules that system lacks cannot be imported (Windows: ``resource``, ``fcntl``, ``termios``,
  ``pwd``, ``grp``);
- the ``os`` functions and constants that system lacks are gone (both: ``pidfd_open``,
  ``pipe2``, ``sched_getaffinity``, ``memfd_create``; Windows also the user ids, ``fork``,
  ``posix_spawn``, ``setsid``, ``killpg``, ``wait4``, ``O_NOFOLLOW``, ``O_CLOEXEC``,
  ``O_NONBLOCK``, ``O_DIRECTORY``, ...), and so are its missing signals
  (``SIGHUP``, ``SIGXCPU``, ``SIGXFSZ``, ``SIGPIPE``, ...; not ``SIGKILL``, with which the
  standard library's and psutil's Linux code kill);
- ``/proc`` does not exist: opening, listing or testing a path below it fails as for a missing file;
- the toolchains are found by the names that system gives them: on Windows a folder put first
  on PATH holds ``python.EXE``, ``node.EXE``, ``javac.EXE``, ``java.EXE``, ``gcc.EXE`` and
  ``g++.EXE``, links to this machine's, and ``shutil.which`` (which reads ``sys.platform``)
  looks names up through PATHEXT as it does there.

What it does not cover, and cannot on Linux: the standard library's and psutil's own code for
those systems (they are imported before the switch and run their Linux code: psutil reads this
machine's /proc, ``subprocess`` starts processes with fork and exec, not CreateProcess), path
syntax (drive letters, backslashes), case-insensitive file names, and how the programs behave
there. It shows that the judge imports, chooses its code path and judges with what those
systems offer; not that Windows or macOS run it.
"""

from __future__ import annotations

import atexit
import builtins
import importlib.abc
import os
import runpy
import shutil
import sys
import tempfile

# Imported while this is still Linux: the interpreter's own modules and the judge's dependencies
# are those of the system they run on, and choose their platform code once, at import.
PREPARED = ("subprocess", "tempfile", "shutil", "pathlib", "threading", "concurrent.futures", "sqlite3",
            "json", "hashlib", "select", "selectors", "signal", "ctypes", "ctypes.util", "uuid", "platform",
            "locale", "getpass", "socket", "asyncio", "multiprocessing", "multiprocessing.pool",
            "importlib.metadata", "email", "mimetypes", "webbrowser", "http.server", "urllib.request",
            "psutil", "yaml", "tabulate", "tqdm", "jinja2", "hypothesis", "numpy", "pygments", "copydetect",
            "runpy", "zipfile", "tarfile", "gzip", "py_compile", "tokenize", "inspect", "dataclasses")

MISSING_MODULES = {"win32": {"resource", "fcntl", "termios", "pwd", "grp"}, "darwin": set()}
MISSING_OS = {
    "darwin": {"pidfd_open", "pipe2", "sched_getaffinity", "sched_setscheduler", "memfd_create", "SCHED_FIFO"},
    "win32": {"pidfd_open", "pipe2", "sched_getaffinity", "sched_setscheduler", "memfd_create", "SCHED_FIFO",
              "geteuid", "getuid", "getegid", "getgid", "getgroups", "fork", "posix_spawn", "posix_spawnp",
              "setsid", "killpg", "getpgid", "setpgid", "wait4", "wait3", "sysconf", "statvfs", "lchown",
              "chown", "fchown", "O_NOFOLLOW", "O_CLOEXEC", "O_NONBLOCK", "O_DIRECTORY", "POSIX_SPAWN_OPEN",
              "POSIX_SPAWN_DUP2", "POSIX_SPAWN_CLOSE", "setresuid", "setresgid", "setns", "unshare"},
}
# Signals Windows lacks (SIGKILL stays: subprocess's and psutil's own Linux code kill with it).
MISSING_SIGNALS = {"win32": {"SIGHUP", "SIGQUIT", "SIGPIPE", "SIGALRM", "SIGUSR1", "SIGUSR2", "SIGCHLD",
                             "SIGXCPU", "SIGXFSZ", "SIGSTOP", "SIGCONT", "SIGTSTP", "SIGBUS", "SIGTRAP"},
                   "darwin": set()}
WINDOWS_TOOLS = {"python": sys.executable, "node": "node", "javac": "javac", "java": "java", "gcc": "gcc",
                 "g++": "g++"}
JUDGE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "judge") + os.sep


def _psutil_dir() -> str:
    try:
        import psutil
    except ImportError:
        return "\0"  # no such folder
    return os.path.dirname(psutil.__file__) + os.sep


PSUTIL_DIR = _psutil_dir()


class BlockModules(importlib.abc.MetaPathFinder):
    def __init__(self, names: set[str]) -> None:
        self.names = names

    def find_spec(self, fullname, path=None, target=None):
        if fullname in self.names:
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return None


def _from_judge() -> bool:
    """Whether the judge's own code made the call in progress (psutil's and the standard
    library's own readings of /proc are those of the system they run on)."""
    frame = sys._getframe(2)
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename.startswith(PSUTIL_DIR):
            return False
        if filename.startswith(JUDGE_DIR):
            return True
        frame = frame.f_back
    return False


def _is_proc(path) -> bool:
    try:
        text = os.fsdecode(path) if not isinstance(path, int) else ""
    except TypeError:
        return False
    return text == "/proc" or text.startswith("/proc/")


def _hide_proc() -> None:
    def refusing(function, missing_result=None, raises=True):
        def replacement(*args, **kwargs):
            path = args[0] if args else kwargs.get("path", ".")
            if _is_proc(path) and _from_judge():
                if not raises:
                    return missing_result
                raise FileNotFoundError(2, "No such file or directory", os.fsdecode(path))
            return function(*args, **kwargs)
        return replacement

    builtins.open = refusing(builtins.open)
    import io
    io.open = builtins.open
    for name in ("open", "listdir", "scandir", "stat", "lstat", "readlink"):
        setattr(os, name, refusing(getattr(os, name)))
    os.access = refusing(os.access, False, raises=False)
    for name in ("exists", "isdir", "isfile", "islink", "lexists"):
        setattr(os.path, name, refusing(getattr(os.path, name), False, raises=False))


def _windows_tools() -> str:
    """A folder of the toolchains under their Windows names, for the front of PATH."""
    folder = tempfile.mkdtemp(prefix="judge-windows-tools-")
    atexit.register(shutil.rmtree, folder, True)
    for name, target in WINDOWS_TOOLS.items():
        found = shutil.which(target)
        if found:
            os.symlink(os.path.realpath(found), os.path.join(folder, name + ".EXE"))
    return folder


def simulate(system: str) -> None:
    for name in PREPARED:
        try:
            __import__(name)
        except ImportError:
            pass
    if system == "win32":
        os.environ["PATH"] = _windows_tools() + os.pathsep + os.environ.get("PATH", "")
        os.environ["PATHEXT"] = os.pathsep.join((".COM", ".EXE", ".BAT", ".CMD"))  # ; there, the separator of PATH
    for name in MISSING_MODULES[system]:
        sys.modules.pop(name, None)
    sys.meta_path.insert(0, BlockModules(MISSING_MODULES[system]))
    for name in MISSING_OS[system]:
        if hasattr(os, name):
            delattr(os, name)
    import signal
    for name in MISSING_SIGNALS[system]:
        if hasattr(signal, name):
            delattr(signal, name)
    _hide_proc()
    sys.platform = system


def main() -> None:
    system, *rest = sys.argv[1:]
    if system not in MISSING_OS:
        sys.exit(f"usage: simulated_host.py {{{','.join(MISSING_OS)}}} (-m MODULE | SCRIPT) [ARGS...]")
    simulate(system)
    if rest[:1] == ["-m"]:
        sys.argv = [rest[1], *rest[2:]]
        runpy.run_module(rest[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = rest
        runpy.run_path(rest[0], run_name="__main__")


if __name__ == "__main__":
    main()
