"""The resident judge's process (see ``judge/resident/__init__.py``): imports the commands once,
then forks a child for each command handed to it. The child takes the command's working
directory, environment, umask, arguments and standard streams, runs it as the command's own
process would, and ends as that process ends (``end_process``: its threads joined, its exit
functions run, its streams flushed); the resident then sends the child's exit status to the
command's process.
"""

from __future__ import annotations

import fcntl
import gc
import io
import locale
import os
import select
import signal
import socket
import struct
import sys
import threading
import time
from collections.abc import Callable
from typing import NoReturn

from judge.resident import (MESSAGE_LIMIT, Messages, encode, end_process, exit_status, identity,
                            idle_seconds, socket_path)

Stamp = tuple[int, int, int] | None
STREAMS = (0, 1, 2)
FORWARDED = {int(signal.SIGINT), int(signal.SIGTERM), int(signal.SIGHUP)}


def serve(run_command: Callable[[list[str]], int], preload: Callable[[], None]) -> None:
    """Serve the commands of this installation's user until ``idle_seconds()`` pass without one, a
    file the resident imported changes, or SIGTERM; return at once if another resident serves
    them already or there is no private folder for the socket."""
    who = identity()
    place = socket_path(who)
    lock = None if place is None else _take_lock(place + ".lock")
    if lock is None:
        return
    _remove_dead_residents(os.path.dirname(place), place)
    preload()
    if threading.active_count() != 1:  # a fork copies only the thread that forks
        return
    loaded = _loaded_files()
    gc.collect()
    gc.freeze()  # the children leave the resident's objects alone: no copies of their pages
    Resident(place, lock, who, loaded, run_command).serve()


class Resident:
    """The listening socket, and the commands' children still running (pid: connection)."""

    def __init__(self, place: str, lock: int, who: str, loaded: dict[str, Stamp],
                 run_command: Callable[[list[str]], int]):
        self.place, self.lock, self.who, self.loaded, self.run_command = place, lock, who, loaded, run_command
        self.children: dict[int, socket.socket] = {}
        self.listener: socket.socket | None = _listen(place)
        self.socket_file = os.stat(place).st_ino  # to remove the socket only while it is this resident's
        self.stopping = False
        self.wakeup, wakeup_write = os.pipe()
        os.set_blocking(wakeup_write, False)
        self.wakeup_write = wakeup_write
        signal.set_wakeup_fd(wakeup_write)  # a child's end (SIGCHLD) wakes the loop at once
        signal.signal(signal.SIGCHLD, lambda *_: None)
        signal.signal(signal.SIGTERM, self.on_terminate)

    def serve(self) -> None:
        last_command, idle = time.monotonic(), idle_seconds()
        while self.listener is not None or self.children:
            idle_left = None if self.children else idle - (time.monotonic() - last_command)
            if idle_left is not None and idle_left <= 0:
                break
            watched = [self.wakeup] + ([self.listener] if self.listener is not None else [])
            try:
                ready, _, _ = select.select(watched, [], [], idle_left)
            except InterruptedError:
                continue
            if self.wakeup in ready:
                os.read(self.wakeup, 512)
            self.report_ended()
            if self.stopping:
                self.stop_listening()
                continue
            if self.listener is not None and self.listener in ready:
                last_command = time.monotonic()
                self.take_command()
        self.stop_listening()

    def on_terminate(self, _number, _frame) -> None:
        """SIGTERM (`judge resident --stop`): take no more commands; the loop stops listening
        when the signal wakes it."""
        self.stopping = True

    def take_command(self) -> None:
        try:
            connection, _ = self.listener.accept()
        except OSError:
            return
        if _peer_uid(connection) != os.getuid():
            connection.close()
            return
        if _changed(self.loaded):  # an upgrade or an edit: this resident's code is not the command's
            _send(connection, {"refused": "the judge's files changed"})
            connection.close()
            self.stop_listening()
            return
        pid = os.fork()
        if pid == 0:
            self.become_command(connection)
        self.children[pid] = connection

    def become_command(self, connection: socket.socket) -> NoReturn:
        """In the child: take on the command's process's state and run the command. The child
        never comes back to the resident's loop: it ends as the command's process ends (or, with
        the traceback of a bug, unwinding to the interpreter's normal exit)."""
        try:
            self.leave_resident()
            received = _receive_request(connection, self.who)
        except BaseException:  # noqa: BLE001 - nothing of the command ran: its own process runs it
            _send(connection, {"refused": "the resident could not take the command"})
            os._exit(70)  # EX_SOFTWARE
        if received is None:
            _send(connection, {"refused": "not this resident's command"})
            os._exit(0)
        request, messages = received
        _forward_signals(messages)
        try:
            status = self.run_command(request["arguments"])
        except SystemExit as stop:  # argparse's --help and usage errors
            status = exit_status(stop)
        end_process(status)

    def leave_resident(self) -> None:
        """What the child must not keep of the resident: its signal handlers, its wake-up pipe,
        its socket and its lock (held by a long command, it would keep a new resident out)."""
        signal.set_wakeup_fd(-1)
        for number in (signal.SIGCHLD, signal.SIGTERM):
            signal.signal(number, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        for descriptor in (self.wakeup, self.wakeup_write, self.lock):
            if descriptor >= 0:
                os.close(descriptor)
        if self.listener is not None:
            self.listener.close()

    def report_ended(self) -> None:
        """Send each ended child's exit status (a shell's 128 + n for a signal n) to its command."""
        for pid in list(self.children):
            try:
                ended, status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                ended, status = pid, 0
            if ended == 0:
                continue
            code = os.waitstatus_to_exitcode(status)
            connection = self.children.pop(pid)
            _send(connection, {"exit": code if code >= 0 else 128 - code})
            connection.close()

    def stop_listening(self) -> None:
        """Take no more commands (those running end as they would): remove the socket if it is
        still this resident's, and let go of the lock, so that a new resident may serve while
        this one waits for its last commands."""
        if self.listener is None:
            return
        try:
            if os.stat(self.place).st_ino == self.socket_file:
                os.unlink(self.place)
        except OSError:
            pass
        self.listener.close()
        self.listener = None
        os.close(self.lock)
        self.lock = -1


def _take_lock(path: str):
    """The lock a resident holds while it lives (None: another one holds it)."""
    handle = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(handle)
        return None
    os.ftruncate(handle, 0)
    os.write(handle, f"{os.getpid()}\n".encode())  # for `judge resident` (judge/resident/control.py)
    return handle


def _remove_dead_residents(folder: str, own: str) -> None:
    """The sockets and lock files of residents that ended without removing them (killed, or
    the machine stopped): no one holds their lock."""
    for name in os.listdir(folder):
        lock_file = os.path.join(folder, name)
        if not name.endswith(".sock.lock") or lock_file == own + ".lock":
            continue
        try:
            handle = os.open(lock_file, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # a living resident's
            continue
        else:
            for path in (lock_file[:-len(".lock")], lock_file):
                try:
                    os.unlink(path)
                except OSError:
                    pass
        finally:
            os.close(handle)


def _listen(place: str) -> socket.socket:
    """The listening socket at ``place``, replacing one a dead resident left (the lock says none
    lives)."""
    try:
        os.unlink(place)
    except FileNotFoundError:
        pass
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(place)
    os.chmod(place, 0o600)
    listener.listen(16)
    return listener


def _peer_uid(connection: socket.socket) -> int | None:
    try:
        _pid, uid, _gid = struct.unpack("3i", connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                                                  struct.calcsize("3i")))
    except OSError:
        return None
    return uid


def _loaded_files() -> dict[str, Stamp]:
    """Every file the resident has imported (and its interpreter), as it is now."""
    paths = {getattr(module, "__file__", None) for module in list(sys.modules.values())}
    return {path: _stamp(path) for path in paths | {sys.executable} if isinstance(path, str)}


def _changed(loaded: dict[str, Stamp]) -> bool:
    return any(_stamp(path) != stamp for path, stamp in loaded.items())


def _stamp(path: str) -> Stamp:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return status.st_mtime_ns, status.st_size, status.st_ino


def _send(connection: socket.socket, message: dict) -> None:
    try:
        connection.sendall(encode(message))
    except OSError:  # the command's process is gone
        pass


def _receive_request(connection: socket.socket, who: str) -> tuple[dict, Messages] | None:
    """Read the command and take on its process's state (streams, directory, environment,
    umask, arguments); None if it is not one this resident can run. Also the connection's
    messages from there on (the signals the command's process forwards)."""
    try:
        data, descriptors, _flags, _address = socket.recv_fds(connection, MESSAGE_LIMIT, len(STREAMS))
    except OSError:
        return None
    messages = Messages(connection.recv, data)
    request = messages.next()
    if request is None or request.get("identity") != who or len(descriptors) != len(STREAMS):
        return None
    try:
        os.chdir(request["cwd"])
    except OSError:  # its folder is gone: its own process says so
        return None
    for target, descriptor in zip(STREAMS, descriptors):
        os.dup2(descriptor, target)
        os.close(descriptor)
    os.umask(request["umask"])
    os.environ.clear()
    os.environ.update(request["environment"])
    time.tzset()  # what an interpreter's start takes from the environment: the time zone, the locale
    try:
        locale.setlocale(locale.LC_CTYPE, "")
    except locale.Error:
        pass
    sys.argv = [request["program"], *request["arguments"]]
    if sys.path:
        sys.path[0] = request["path0"]
    _open_streams(request["streams"])
    return request, messages


def _open_streams(streams: list) -> None:
    """sys.stdin, stdout and stderr on the command's streams, made as the command's interpreter
    made them: the same encoding and errors, buffered or not (python -u), line-buffered or not,
    and no newline translation."""
    for descriptor, name, settings in zip(STREAMS, ("stdin", "stdout", "stderr"), streams):
        if settings is None:
            continue
        encoding, errors, line_buffering, write_through, buffered = settings
        raw = io.FileIO(descriptor, "rb" if descriptor == 0 else "wb", closefd=False)
        binary = raw if not buffered else io.BufferedReader(raw) if descriptor == 0 else io.BufferedWriter(raw)
        stream = io.TextIOWrapper(binary, encoding=encoding, errors=errors, newline="\n",
                                  line_buffering=line_buffering, write_through=write_through)
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def _forward_signals(messages: Messages) -> None:
    """Signals the command's process forwards are raised here; its end (killed, or its terminal
    closed) is a SIGHUP, which stops the command's runs as it would have stopped them."""
    def listen() -> None:
        while (message := messages.next()) is not None:
            if message.get("signal") in FORWARDED:
                os.kill(os.getpid(), message["signal"])
        os.kill(os.getpid(), signal.SIGHUP)

    threading.Thread(target=listen, name="resident-signals", daemon=True).start()
