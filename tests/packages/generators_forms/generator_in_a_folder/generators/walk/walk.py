"""Prints a pair of numbers to add, from the step count given."""
import sys

steps = int(sys.argv[sys.argv.index("--steps") + 1])
print(steps, steps * 2)
