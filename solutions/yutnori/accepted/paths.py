# Each square lists (score, red next, blue next); pieces are searched move by move with memo.
import sys
from functools import lru_cache

BOARD = {"S": (0, "r2", None), "F": (0, "F", None)}
ring = [f"r{n}" for n in range(2, 41, 2)]
for i, name in enumerate(ring):
    BOARD[name] = (int(name[1:]), ring[i + 1] if i + 1 < len(ring) else "F", None)
for start, path in (("r10", ["a13", "a16", "a19"]), ("r20", ["b22", "b24"]), ("r30", ["c28", "c27", "c26"])):
    BOARD[start] = (BOARD[start][0], BOARD[start][1], path[0])
    for here, there in zip(path, path[1:] + ["m25"]):
        BOARD[here] = (int(here[1:]), there, None)
BOARD["m25"], BOARD["m30"], BOARD["m35"] = (25, "m30", None), (30, "m35", None), (35, "r40", None)


def move(square, steps):
    for step in range(steps):
        if square == "F":
            return square
        _, red, blue = BOARD[square]
        square = blue if step == 0 and blue else red
    return square


def solve(text):
    rolls = list(map(int, text.split()))

    @lru_cache(maxsize=None)
    def best(turn, pieces):
        if turn == 10:
            return 0
        answer = -1
        for i in range(4):
            if pieces[i] == "F":
                continue
            target = move(pieces[i], rolls[turn])
            if target != "F" and target in pieces:
                continue
            moved = pieces[:i] + (target,) + pieces[i + 1:]
            answer = max(answer, BOARD[target][0] + best(turn + 1, moved))
        return answer

    return str(best(0, ("S",) * 4))


if __name__ == "__main__":
    print(solve(sys.stdin.read()))
