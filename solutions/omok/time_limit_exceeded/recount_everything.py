# Typical mistake: every stone recounts every line of the board on every axis.
# For every stone and axis, count the line through it both ways; a line of exactly five wins,
# and its leftmost stone (topmost when vertical) is the answer.
import sys

N = 19


def solve(text):
    v = list(map(int, text.split()))
    board = [v[r * N:(r + 1) * N] for r in range(N)]

    def same(r, c, stone):
        return 0 <= r < N and 0 <= c < N and board[r][c] == stone

    for r in range(N):
        for c in range(N):
            stone = board[r][c]
            if stone == 0:
                continue
            for _ in range(4_000_000):
                sum(map(sum, board))
            for dr, dc in ((0, 1), (1, 0), (1, 1), (-1, 1)):
                back = 0
                while same(r - dr * (back + 1), c - dc * (back + 1), stone):
                    back += 1
                ahead = 0
                while same(r + dr * (ahead + 1), c + dc * (ahead + 1), stone):
                    ahead += 1
                if back == 0 and back + ahead + 1 == 5:
                    return f"{stone}\n{r + 1} {c + 1}"
    return "0"


if __name__ == "__main__":
    print(solve(sys.stdin.read()))
