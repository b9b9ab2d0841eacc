"""Reference solver for `stones` (BOJ 9655): taking 1 or 3 keeps parity, so odd N wins for SK."""

import sys


def solve(text: str) -> str:
    n = int(text.split()[0])
    return "SK\n" if n % 2 == 1 else "CY\n"


if __name__ == "__main__":
    sys.stdout.write(solve(sys.stdin.read()))
