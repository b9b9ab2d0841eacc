# Tries every sequence of piece choices (4^10) with no memo, copying the board each time: too slow.
import sys

SCORE = [0] + [2 * i for i in range(1, 21)] + [0, 13, 16, 19, 22, 24, 28, 27, 26, 25, 30, 35]
RED = list(range(1, 22)) + [21, 23, 24, 30, 26, 30, 28, 29, 30, 31, 32, 20]
BLUE = {5: 22, 10: 25, 15: 27}


def advance(square, steps):
    for step in range(steps):
        if square == 21:
            break
        square = BLUE[square] if step == 0 and square in BLUE else RED[square]
    return square


def search(rolls, turn, pieces):
    if turn == 10:
        return 0
    best = 0
    for _ in range(3):  # re-evaluates every branch three times
        for i in range(4):
            if pieces[i] == 21:
                continue
            target = advance(pieces[i], rolls[turn])
            if target != 21 and target in pieces:
                continue
            best = max(best, SCORE[target] + search(rolls, turn + 1, pieces[:i] + [target] + pieces[i + 1:]))
    return best


print(search(list(map(int, sys.stdin.read().split())), 0, [0, 0, 0, 0]))
