"""The resident judge: a judge process that stays loaded between commands, so that a command
costs the interpreter's start and its own work, not the judge's imports.

Starting Python and importing what `judge run` needs takes about ten times as long as a plain run
of a student's program. At a terminal, a command run the ordinary way leaves a resident judge
behind (``server.py``), which has imported the common commands and then waits on a socket of the
user's own. The next `judge` command (``client.py``) hands it its arguments, working directory,
environment and standard streams; the resident forks a child that runs the command as the
command's own process would, while that process forwards the signals it gets and exits with the
child's status. The resident ends after ten minutes without a command ($JUDGE_RESIDENT_IDLE
seconds), or at the first command after a file it imported changed (an upgrade, an edit of a
checkout): that command, and any command the resident cannot take, runs in its own process. A
resident serves only commands that stand where it stands (``identity``): the same user,
interpreter, installation, module path, root folder, namespaces, privileges, limits and control
group.

``JUDGE_RESIDENT=0`` never uses one, ``=1`` starts one even away from a terminal (scripts that
run many commands); ``judge resident`` shows or stops it. Linux only (the socket's peer is
checked to be the same user, and the streams are passed as file descriptors).
"""

from __future__ import annotations

import marshal
import os
import sys
import zlib

TYPE_CHECKING = False  # typing's import costs every command more than this module's work
if TYPE_CHECKING:
    from typing import NoReturn

RESIDENT_ENV = "JUDGE_RESIDENT"  # "0": never; "1": also away from a terminal
PLACE_ENV = "JUDGE_RESIDENT_DIR"  # the folder of the sockets (default: the user's runtime folder)
IDLE_ENV = "JUDGE_RESIDENT_IDLE"  # seconds a resident waits for a command before it ends
IDLE_SECONDS = 600.0


def allowed() -> bool:
    """Whether commands may be handed to a resident judge here."""
    return sys.platform == "linux" and os.environ.get(RESIDENT_ENV) != "0"


def wanted_after_command() -> bool:
    """Whether a command that ran in its own process should leave a resident judge behind: at a
    terminal (a person typing commands), or when asked for."""
    if not allowed():
        return False
    if os.environ.get(RESIDENT_ENV) == "1":
        return True
    try:
        return os.isatty(0) and os.isatty(1)
    except OSError:
        return False


def idle_seconds() -> float:
    """$JUDGE_RESIDENT_IDLE if it is a positive number of seconds, else ``IDLE_SECONDS``."""
    try:
        seconds = float(os.environ.get(IDLE_ENV, ""))
    except ValueError:
        return IDLE_SECONDS
    return seconds if 0 < seconds < float("inf") else IDLE_SECONDS


def identity() -> str:
    """What a resident judge must share with a command to run it as the command's own process
    would: the user, the interpreter and its options, the judge's installation and the module
    path (all but its first entry, which the command sets for itself)."""
    judge_folder = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    return repr((os.getuid(), os.path.realpath(sys.executable), sys.version, judge_folder, sys.path[1:],
                 tuple(sys.flags), sys.warnoptions, sorted(map(str, sys._xoptions.items())), _standing()))


def _standing() -> tuple:
    """Where the process stands, which a resident's child would not share with a command that
    stands elsewhere: its root folder (a chroot), its namespaces, its capabilities, seccomp
    filter and no-new-privileges flag, its resource limits and its control group."""
    root = os.stat("/")
    namespaces = []
    for name in ("user", "mnt", "pid", "net", "ipc", "uts", "cgroup"):
        try:
            namespaces.append(os.readlink(f"/proc/self/ns/{name}"))
        except OSError:
            namespaces.append("")
    status = _read("/proc/self/status").splitlines()
    privileges = [line for line in status if line.startswith(("Cap", "Seccomp", "NoNewPrivs"))]
    return root.st_dev, root.st_ino, namespaces, privileges, _read("/proc/self/limits"), _read("/proc/self/cgroup")


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as text:
            return text.read()
    except OSError:
        return ""


def socket_path(who: str) -> str | None:
    """The socket of the resident judge for ``who`` (an ``identity()``); None when there is no
    folder of this user's own to keep it in."""
    folder = _own_folder()
    return None if folder is None else os.path.join(folder, f"{zlib.crc32(who.encode()):08x}.sock")


def _own_folder() -> str | None:
    """$JUDGE_RESIDENT_DIR, else judge-resident in the user's runtime folder (else in /tmp, with
    the uid in its name); created private, and used only while it is a folder of this user's
    that no one else may enter (never a link)."""
    chosen = os.environ.get(PLACE_ENV)
    if not chosen:
        runtime = os.environ.get("XDG_RUNTIME_DIR")
        chosen = os.path.join(runtime, "judge-resident") if runtime and os.path.isdir(runtime) \
            else f"/tmp/judge-resident-{os.getuid()}"
    try:
        os.mkdir(chosen, 0o700)
    except FileExistsError:
        pass
    except OSError:
        return None
    try:
        status = os.lstat(chosen)
    except OSError:
        return None
    private = status.st_uid == os.getuid() and not status.st_mode & 0o077
    return chosen if os.path.isdir(chosen) and not os.path.islink(chosen) and private else None


# The protocol: messages are dicts of plain values (marshal's format: the client's side imports
# no json, socket or signal module, each a few milliseconds of every command), each sent as its
# length (4 bytes) and then its bytes. The peers are processes of one user.
LENGTH_BYTES = 4
MESSAGE_LIMIT = 1 << 22  # a command line and an environment fit in 4 MiB


def encode(message: dict) -> bytes:
    """One message as sent: its length, then marshal's bytes of it."""
    data = marshal.dumps(message)
    return len(data).to_bytes(LENGTH_BYTES, "big") + data


class Messages:
    """Messages from a stream, as ``receive`` (a socket's recv) delivers its bytes."""

    def __init__(self, receive, pending: bytes = b"") -> None:
        self.receive, self.pending = receive, pending

    def next(self) -> dict | None:
        """The next message; None at the end of the stream (or after one that does not decode)."""
        while True:
            if len(self.pending) >= LENGTH_BYTES:
                length = int.from_bytes(self.pending[:LENGTH_BYTES], "big")
                if length > MESSAGE_LIMIT:
                    return None
                if len(self.pending) >= LENGTH_BYTES + length:
                    data = self.pending[LENGTH_BYTES:LENGTH_BYTES + length]
                    self.pending = self.pending[LENGTH_BYTES + length:]
                    try:
                        message = marshal.loads(data)
                    except (EOFError, ValueError, TypeError):
                        return None
                    return message if isinstance(message, dict) else None
            try:
                chunk = self.receive(65536)
            except OSError:
                return None
            if not chunk:
                return None
            self.pending += chunk


def exit_status(stop: SystemExit) -> int:
    """The status the interpreter exits with for ``stop`` (a message is printed, and is 1)."""
    if stop.code is None:
        return 0
    if isinstance(stop.code, int):
        return stop.code
    print(stop.code, file=sys.stderr)
    return 1


def end_process(status: int) -> NoReturn:
    """End a command's process as the interpreter ends it, less the teardown of its modules:
    wait for its threads, run its exit functions (temporary folders' clean-up among them), flush
    its streams, exit. Freeing every module and object one by one took a tenth of a one-case
    run, and nothing of the judge's is left to them."""
    import atexit
    import threading

    threading._shutdown()  # what the interpreter's own exit does first: join the non-daemon threads
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # a closed pipe: the interpreter's status for it
            status = status or 120
    os._exit(status)
