# Typical mistake: the game recursion without memo is exponential in N.
import sys

sys.setrecursionlimit(5000)


def wins(n):
    return n > 0 and (not wins(n - 1) or (n >= 3 and not wins(n - 3)))


print("SK" if wins(int(input())) else "CY")
