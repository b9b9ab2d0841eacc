"""Looks for what an earlier case of the same submission could have left in every place a
program can write (a file in each directory, System V shared memory through its /proc listing),
leaves the same for the next case, then answers: wrongly, naming what it found, if it found
anything. Each case must find the world a cold run finds."""
import ctypes
import os

MARK = "judge-hostile-state-py"
KEY = 0x6A756468
PLACES = [".", "/tmp", "/dev/shm", "/var/tmp", "/", "/dev", "/etc", "/home", "/root", "/run", "/mnt", "/srv",
          "/media", "/opt", "/work", "/usr/local"]

found = [place for place in PLACES if os.path.exists(os.path.join(place, MARK))]
libc = ctypes.CDLL(None)
if libc.shmget(KEY, 4096, 0) >= 0:
    found.append("shm")
for place in PLACES:  # after looking: "." may be one of them
    try:
        open(os.path.join(place, MARK), "w").close()
    except OSError:
        pass
libc.shmget(KEY, 4096, 0o1000 | 0o600)  # IPC_CREAT
n = int(input())
print("LEFTOVER " + " ".join(found) if found else ("SK" if n % 2 else "CY"))
