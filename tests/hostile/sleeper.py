# Sleeps instead of computing.
import time

time.sleep(600)
