# Writes to stdout without end.
import sys

line = "x" * 4096 + "\n"
while True:
    sys.stdout.write(line)
