"""Reference solver for `pairsum`: the first pair found, scanning left to right with a map of
the values seen. Other pairs are right too: the checker judges any of them."""

import sys


def solve(text: str) -> str:
    tokens = text.split()
    count, target = int(tokens[0]), int(tokens[1])
    values = [int(token) for token in tokens[2:2 + count]]
    seen: dict[int, int] = {}
    for position, value in enumerate(values, start=1):
        if target - value in seen:
            return f"{seen[target - value]} {position}\n"
        seen.setdefault(value, position)
    raise ValueError("no pair adds up to the target")


if __name__ == "__main__":
    sys.stdout.write(solve(sys.stdin.read()))
