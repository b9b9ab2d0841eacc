"""A command's side of the resident judge (see ``judge/resident/__init__.py``): hand the command
to the resident judge, forward the signals this process gets, and return the command's status.

Imported before anything else of the judge on every command, so it uses the interpreter's
built-in modules (``_socket``, ``_signal``) rather than ``socket`` and ``signal``, whose imports
(with enum, selectors and the rest) cost more than the rest of this side together.
"""

from __future__ import annotations

import _signal
import _socket
import os
import sys

from judge.resident import Messages, allowed, encode, identity, socket_path

FORWARDED = (_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP)
LOST = 1  # the status of a command whose resident judge ended before it did (EXIT_FAILED)
STREAMS = (0, 1, 2)


def run_in_resident(arguments: list[str]) -> int | None:
    """The status of the command ``arguments`` as a resident judge ran it; None when none would
    take it (there is none, it is stale, or this process's standard streams cannot be passed):
    then the command is run here."""
    if not allowed():
        return None
    who = identity()
    place = socket_path(who)
    if place is None or not os.path.exists(place) or not _streams_open():
        return None
    connection = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        try:
            connection.connect(place)
            _send_request(connection, who, arguments)
        except OSError:  # no resident behind the socket (one that died leaves it: the next replaces it)
            return None
        return _await_status(connection)
    finally:
        connection.close()


def _streams_open() -> bool:
    """Whether this process has its three standard streams (else the socket would take the
    number of a closed one, and be passed as that stream)."""
    try:
        for descriptor in STREAMS:
            os.fstat(descriptor)
    except OSError:
        return False
    return True


def _send_request(connection, who: str, arguments: list[str]) -> None:
    """The command, with this process's standard streams as file descriptors."""
    mask = os.umask(0)
    os.umask(mask)
    request = {"identity": who, "arguments": arguments, "program": sys.argv[0], "cwd": os.getcwd(),
               "path0": sys.path[0] if sys.path else "", "environment": dict(os.environ), "umask": mask,
               "streams": [_stream_settings(stream) for stream in (sys.stdin, sys.stdout, sys.stderr)]}
    data = encode(request)
    descriptors = b"".join(descriptor.to_bytes(4, sys.byteorder) for descriptor in STREAMS)  # C ints
    sent = connection.sendmsg([data], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, descriptors)])
    connection.sendall(data[sent:])


def _stream_settings(stream) -> tuple | None:
    """How this interpreter opened a standard stream, for the resident's child to open it alike."""
    if stream is None:
        return None
    buffered = type(stream.buffer).__name__ != "FileIO"  # python -u: no buffer below the text
    return (stream.encoding, stream.errors, stream.line_buffering, stream.write_through, buffered)


def _await_status(connection) -> int | None:
    """The command's exit status, forwarding signals meanwhile; None if the resident refused it
    before running it."""
    def forward(number, _frame) -> None:
        try:
            connection.sendall(encode({"signal": number}))
        except OSError:
            pass

    previous = {number: _signal.signal(number, forward) for number in FORWARDED}
    try:
        message = Messages(connection.recv).next()
    finally:
        for number, handler in previous.items():
            _signal.signal(number, handler)
    if message is None:
        print("judge: the resident judge ended before the command did; run it again "
              "(JUDGE_RESIDENT=0 runs every command in its own process)", file=sys.stderr)
        return LOST
    if "refused" in message:
        return None
    return int(message.get("exit", LOST))
