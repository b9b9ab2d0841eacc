# Starts thousands of threads.
import threading
import time

threads = []
for _ in range(10000):
    thread = threading.Thread(target=time.sleep, args=(60,), daemon=True)
    thread.start()
    threads.append(thread)
