# A thread (not the main one) forks two workers that burn a second of CPU each, and stays alive
# while they do: its children, not the main thread's. The workers are left unreaped (zombies of
# that thread) when the program ends: two seconds of CPU at least, whatever the limit.
import os
import threading
import time

burnt = threading.Event()


def fork_burners():
    workers = []
    for _ in range(2):
        pid = os.fork()
        if pid == 0:
            while time.process_time() < 1.0:
                pass
            os._exit(0)
        workers.append(pid)
    for pid in workers:  # until each worker is a zombie: waited for, not reaped
        os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
    burnt.set()
    time.sleep(3600)  # alive till the program ends


threading.Thread(target=fork_burners, daemon=True).start()
burnt.wait()
print("SK")
