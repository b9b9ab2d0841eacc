# Plain minimax on the board itself: step off (the foothold vanishes), recurse, restore.
def solution(board, aloc, bloc):
    rows, cols = len(board), len(board[0])

    def turn(me, other):
        """(can the player to move win?, total moves from here) with both playing optimally."""
        r, c = me
        if board[r][c] == 0:  # the other player left our shared cell
            return False, 0
        win, lose = None, 0
        for nr, nc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= nr < rows and 0 <= nc < cols and board[nr][nc]:
                board[r][c] = 0
                other_wins, moves = turn(other, (nr, nc))
                board[r][c] = 1
                if not other_wins:
                    win = moves + 1 if win is None else min(win, moves + 1)
                else:
                    lose = max(lose, moves + 1)
        return (True, win) if win is not None else (False, lose)

    return turn(aloc, bloc)[1]
