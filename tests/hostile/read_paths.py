# Tries to read each path given on stdin (one per line): prints READ and the path for every
# file it could read a byte of and every directory it could list an entry of.
import os
import sys


def readable(path):
    try:
        if os.path.isdir(path):
            return bool(os.listdir(path))
        with open(path, "rb") as handle:
            return handle.read(1) != b""
    except OSError:
        return False


for path in sys.stdin.read().splitlines():
    if path and readable(path):
        print("READ", path)
