"""Reference solver for `footholds` (Programmers 92345): minimax over the whole game, memoised.

The player to move wins if some move leads to a position its opponent loses; it then picks the
shortest such win, and when every move loses it picks the longest. A player whose own foothold
has vanished (the other left the shared cell) has lost before moving.
"""

from functools import cache

STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def solution(board, aloc, bloc):
    rows, cols = len(board), len(board[0])
    start = 0
    for r in range(rows):
        for c in range(cols):
            if board[r][c]:
                start |= 1 << (r * cols + c)

    @cache
    def play(cells: int, me: tuple, other: tuple) -> tuple[bool, int]:
        r, c = me
        if not cells >> (r * cols + c) & 1:
            return False, 0
        wins, losses = [], []
        for dr, dc in STEPS:
            nr, nc = r + dr, c + dc
            if 0 <= nr < rows and 0 <= nc < cols and cells >> (nr * cols + nc) & 1:
                other_wins, moves = play(cells & ~(1 << (r * cols + c)), other, (nr, nc))
                (losses if other_wins else wins).append(moves + 1)
        if wins:
            return True, min(wins)
        return False, max(losses, default=0)

    return play(start, tuple(aloc), tuple(bloc))[1]
