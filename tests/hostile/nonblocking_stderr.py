"""Writes a megabyte to stderr (more than a pipe holds: the judge must drain it), then makes its
stderr non-blocking, as a program may, and answers. Each case must find its standard streams as a
cold run does, whatever an earlier case did to the ones it was given."""
import os
import sys

sys.stderr.write("x" * 1000000 + "\n")
sys.stderr.flush()
os.set_blocking(2, False)
n = int(input())
print("SK" if n % 2 else "CY")
