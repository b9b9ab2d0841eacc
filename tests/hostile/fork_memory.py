"""Writes 1 GiB in a forked child while the program waits for it, then answers: the child's
memory is the program's, and the run must be stopped as it passes the limit, not after."""
import os
import time

if os.fork() == 0:
    held = bytearray(1 << 30)
    for offset in range(0, len(held), 4096):
        held[offset] = 1
    time.sleep(3)
    os._exit(0)
os.wait()
n = int(input())
print("SK" if n % 2 else "CY")
