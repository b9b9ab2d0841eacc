"""Reference solver for `yutnori` (BOJ 17825): search over the ten moves, memoised on the
positions of the (interchangeable) pieces.

Squares are numbered by position, not by score: the shortcut 16 and the ring 16 are different
squares; the centre 25 and the square 40 are shared.
"""

import sys
from functools import cache

START, FINISH = 0, 21
# Ring: square i (1..20) is worth 2*i. Then the shortcuts and the centre line.
SCORE = [0] + [2 * i for i in range(1, 21)] + [0, 13, 16, 19, 22, 24, 28, 27, 26, 25, 30, 35]
RED = list(range(1, 22)) + [21, 23, 24, 30, 26, 30, 28, 29, 30, 31, 32, 20]
BLUE = {5: 22, 10: 25, 15: 27}  # from ring 10, 20 and 30


def advance(square: int, steps: int) -> int:
    """Where a piece starting on ``square`` ends after ``steps`` steps."""
    for step in range(steps):
        if square == FINISH:
            break
        square = BLUE[square] if step == 0 and square in BLUE else RED[square]
    return square


def best_score(rolls: list[int]) -> int:
    @cache
    def best(turn: int, pieces: tuple) -> int:
        if turn == len(rolls):
            return 0
        result = None
        for index, square in enumerate(pieces):
            if square == FINISH or (index and square == pieces[index - 1]):
                continue  # finished, or the same move as the identical piece before it
            target = advance(square, rolls[turn])
            if target != FINISH and target in pieces:
                continue
            moved = tuple(sorted(pieces[:index] + (target,) + pieces[index + 1:]))
            value = SCORE[target] + best(turn + 1, moved)
            result = value if result is None else max(result, value)
        return result if result is not None else -10**9

    return best(0, (START,) * 4)


def solve(text: str) -> str:
    rolls = [int(token) for token in text.split()]
    return f"{best_score(rolls)}\n"


if __name__ == "__main__":
    sys.stdout.write(solve(sys.stdin.read()))
