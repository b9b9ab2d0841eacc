"""Prints a valid input: N (at most the first argument) integers, seeded by the second."""

import random
import sys

top, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
n = rng.randint(1, top)
print(n)
print(*(rng.randint(-10**6, 10**6) for _ in range(n)))
