# The problem's own main program: reads n, prints square(n) from the submission's square.py.
from square import square

print(square(int(input())))
