import time
input()
time.sleep(60)
