"""Two numbers below 10 * the second argument, drawn with the first argument as the seed."""
import random
import sys

rng = random.Random(int(sys.argv[1]))
scale = 10 * int(sys.argv[2])
print(rng.randrange(-scale, scale), rng.randrange(-scale, scale))
