# Burns CPU from eight threads at once.
import threading


def burn():
    while True:
        pass


for _ in range(8):
    threading.Thread(target=burn, daemon=True).start()
burn()
