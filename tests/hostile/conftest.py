"""What the hostile tests share: the isolation tiers this machine has, and a server on the host's
loopback that records any connection."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

# `tier` (each tier this machine has, forced for the test) is tests/conftest.py's.


@dataclass
class Listener:
    port: int
    accepted: list = field(default_factory=list)


@pytest.fixture
def loopback_listener() -> Iterator[Listener]:
    """A TCP server on 127.0.0.1 accepting for one second; ``accepted`` lists who got through."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(5)
    server.settimeout(1)
    listener = Listener(server.getsockname()[1])

    def accept():
        try:
            listener.accepted.append(server.accept())
        except OSError:
            pass

    thread = threading.Thread(target=accept)
    thread.start()
    yield listener
    thread.join()
    server.close()
