# Tries to kill the judge: its parent, its process group, and every process it can signal.
import os
import signal

for action in (lambda: os.kill(os.getppid(), signal.SIGKILL),
               lambda: os.killpg(os.getpgid(os.getppid()), signal.SIGKILL),
               lambda: os.kill(-1, signal.SIGKILL)):
    try:
        action()
    except (OSError, ProcessLookupError):
        pass
print("SK")
