"""Reference solver for `sums`: the sum of the listed integers."""

import sys


def solve(text: str) -> str:
    return f"{sum(map(int, text.split()[1:]))}\n"


if __name__ == "__main__":
    sys.stdout.write(solve(sys.stdin.read()))
