# Leaves a daemon behind: double fork, setsid, then a long sleep with a recognisable command line.
import os
import sys

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execv("/bin/sleep", ["sleep", "31337.25"])
    os._exit(0)
os.wait()
print("SK")
sys.stdout.flush()
