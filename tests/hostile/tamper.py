# Tries to change the grader's files; prints each path it could write. The paths come on stdin.
import os
import sys

for path in sys.stdin.read().split():
    try:
        with open(path, "ab") as handle:
            handle.write(b"tampered")
        print("WROTE", path)
    except OSError:
        pass
    try:
        os.unlink(path)
        print("DELETED", path)
    except OSError:
        pass
