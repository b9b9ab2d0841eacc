# Writes 64 MiB to stderr, then answers correctly.
import sys

chunk = "e" * (1 << 20)
for _ in range(64):
    sys.stderr.write(chunk)
n = int(input())
print("SK" if n % 2 else "CY")
