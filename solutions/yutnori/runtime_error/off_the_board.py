# Typical mistake: moving past FINISH indexes past the end of the board list.
import sys
from functools import lru_cache

SCORE = [0] + [2 * i for i in range(1, 21)] + [0, 13, 16, 19, 22, 24, 28, 27, 26, 25, 30, 35]
RED = list(range(1, 22)) + [None, 23, 24, 30, 26, 30, 28, 29, 30, 31, 32, 20]
BLUE = {5: 22, 10: 25, 15: 27}


def advance(square, steps):
    for step in range(steps):
        square = BLUE[square] if step == 0 and square in BLUE else RED[square]
    return square


rolls = list(map(int, sys.stdin.read().split()))


@lru_cache(maxsize=None)
def best(turn, pieces):
    if turn == 10:
        return 0
    answer = -1
    for i in range(4):
        if pieces[i] == 21:
            continue
        target = advance(pieces[i], rolls[turn])
        if target != 21 and target in pieces:
            continue
        answer = max(answer, SCORE[target] + best(turn + 1, pieces[:i] + (target,) + pieces[i + 1:]))
    return answer


print(best(0, (0, 0, 0, 0)))
