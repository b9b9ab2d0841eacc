# Typical mistake: a memoised recursion deeper than Python's default recursion limit.
from functools import lru_cache


@lru_cache(maxsize=None)
def wins(n):
    return n > 0 and (not wins(n - 1) or (n >= 3 and not wins(n - 3)))


print("SK" if wins(int(input())) else "CY")
