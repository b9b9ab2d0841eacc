"""Starts a sibling instead of a child (clone with CLONE_PARENT: its parent is the program's
parent), which writes 400 MiB and holds them while the program waits, then answers. The
sibling is as much the program's as a child: its memory counts."""
import ctypes
import os
import time

CLONE_PARENT, SIGCHLD, SYS_CLONE = 0x00008000, 17, 56  # x86-64
if ctypes.CDLL(None, use_errno=True).syscall(SYS_CLONE, CLONE_PARENT | SIGCHLD, 0, 0, 0, 0) == 0:
    held = bytearray(400 << 20)
    for offset in range(0, len(held), 4096):
        held[offset] = 1
    time.sleep(3)
    os._exit(0)
time.sleep(2)
n = int(input())
print("SK" if n % 2 else "CY")
