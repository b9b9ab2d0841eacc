"""Reading a run's System V shared memory from the judge: the segments a program makes and
detaches are memory no process of the run shows, held until its IPC namespace goes. The kernel
lists the segments of the reader's IPC namespace only, so the reading thread enters the run's
for the moment of the reading (setns; only as root, which may enter any)."""

from __future__ import annotations

import ctypes
import functools
import os

from judge.harness.ipc_objects import shared_memory_kb
from judge.sandbox.command import running_as_root

CLONE_NEWIPC = 0x08000000


@functools.cache
def _setns():
    return ctypes.CDLL(None, use_errno=True).setns


def run_shared_memory_kb(inside: int, uid: int) -> int:
    """KiB of the shared memory segments that slot ``uid`` created, in the IPC namespace of its
    process ``inside`` (0 if it is gone, or without root)."""
    if not running_as_root():
        return 0
    try:
        target = os.open(f"/proc/{inside}/ns/ipc", os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return 0
    try:
        if os.fstat(target).st_ino == os.stat("/proc/thread-self/ns/ipc").st_ino:
            return shared_memory_kb(uid)  # no namespace of its own (the none tier)
        own = os.open("/proc/thread-self/ns/ipc", os.O_RDONLY | os.O_CLOEXEC)
        try:
            if _setns()(target, CLONE_NEWIPC) != 0:
                return 0
            try:
                return shared_memory_kb(uid)
            finally:
                if _setns()(own, CLONE_NEWIPC) != 0:  # never keep a thread in a run's namespace
                    raise OSError(ctypes.get_errno(), "could not return to the judge's IPC namespace")
        finally:
            os.close(own)
    finally:
        os.close(target)
