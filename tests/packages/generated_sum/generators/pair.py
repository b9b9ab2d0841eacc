"""Two large numbers, written to testcase.in itself (not to standard output)."""
import random
import sys

from bounds import LIMIT

rng = random.Random(int(sys.argv[1]))
with open("testcase.in", "w") as file:
    file.write(f"{rng.randrange(-LIMIT, LIMIT)} {rng.randrange(-LIMIT, LIMIT)}\n")
