# Tries to stop the judge: its parent (the zygote, warm), its parent's process group, every
# process it can signal, and its parent through a pidfd. Then answers.
import os
import signal

parent = os.getppid()
for action in (lambda: os.kill(parent, signal.SIGSTOP),
               lambda: os.killpg(os.getpgid(parent), signal.SIGSTOP),
               lambda: os.kill(-1, signal.SIGSTOP),
               lambda: signal.pidfd_send_signal(os.pidfd_open(parent), signal.SIGSTOP)):
    try:
        action()
    except OSError:
        pass
print("SK")
