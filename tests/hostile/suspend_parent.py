# On input 1 stops its watcher (its parent, its parent's process group, every process it can
# reach: PID 1 of the sandbox among them), on input 2 kills it, then sleeps far past any wall
# limit; on any other input answers at once.
import os
import signal
import time

n = int(input())
if n in (1, 2):
    sig = signal.SIGSTOP if n == 1 else signal.SIGKILL
    parent = os.getppid()
    for action in (lambda: os.kill(parent, sig), lambda: os.killpg(os.getpgid(parent), sig),
                   lambda: os.kill(1, sig), lambda: os.kill(-1, sig)):
        try:
            action()
        except OSError:
            pass
    time.sleep(100)
print("SK" if n % 2 else "CY")
