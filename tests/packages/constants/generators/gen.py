"""A random n from 1 to the bound it is given, which must be the problem's max_n ({{max_n}})."""
import random
import sys

bound, seed = int(sys.argv[1]), int(sys.argv[2])
assert bound == {{max_n}}, "the command's {{max_n}} was not substituted"
random.seed(seed)
print(random.randint(1, bound))
