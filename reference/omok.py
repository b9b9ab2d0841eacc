"""Reference solver for `omok` (BOJ 2615): look for runs of exactly five from each run's start.

Scanning only right, down, down-right and up-right, and only from a stone whose predecessor in
that direction is not the same colour, the start of a run is its leftmost stone (topmost for a
vertical run), which is the one the answer names.
"""

import sys

SIZE = 19
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (-1, 1))


def winner(board: list[list[int]]) -> tuple[int, int, int] | None:
    def colour(r, c):
        return board[r][c] if 0 <= r < SIZE and 0 <= c < SIZE else 0

    for c in range(SIZE):
        for r in range(SIZE):
            stone = board[r][c]
            if not stone:
                continue
            for dr, dc in DIRECTIONS:
                if colour(r - dr, c - dc) == stone:
                    continue
                length = 1
                while colour(r + dr * length, c + dc * length) == stone:
                    length += 1
                if length == 5:
                    return stone, r + 1, c + 1
    return None


def solve(text: str) -> str:
    numbers = [int(token) for token in text.split()]
    board = [numbers[row * SIZE:(row + 1) * SIZE] for row in range(SIZE)]
    found = winner(board)
    if found is None:
        return "0\n"
    stone, row, col = found
    return f"{stone}\n{row} {col}\n"


if __name__ == "__main__":
    sys.stdout.write(solve(sys.stdin.read()))
