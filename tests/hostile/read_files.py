# Tries to read the grader's files; prints each path it could read. The paths come on stdin.
import os
import sys

for path in sys.stdin.read().split():
    try:
        if os.path.isdir(path):
            os.listdir(path)
        else:
            with open(path, "rb") as handle:
                handle.read(1)
        print("READ", path)
    except OSError:
        pass
