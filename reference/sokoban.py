"""Reference solver for `sokoban` (BOJ 4577): a direct simulation of each game."""

import sys

MOVES = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
TARGETS = "+BW"


def play(board: list[str], keys: str) -> tuple[bool, list[str]]:
    """Final (complete?, board) after pressing ``keys``."""
    rows, cols = len(board), len(board[0])
    target = [[ch in TARGETS for ch in row] for row in board]
    boxes = {(r, c) for r in range(rows) for c in range(cols) if board[r][c] in "bB"}
    walls = {(r, c) for r in range(rows) for c in range(cols) if board[r][c] == "#"}
    worker = next((r, c) for r in range(rows) for c in range(cols) if board[r][c] in "wW")

    def free(cell):
        r, c = cell
        return 0 <= r < rows and 0 <= c < cols and cell not in walls and cell not in boxes

    def complete():
        return all(target[r][c] for r, c in boxes)

    for key in keys:
        if complete():
            break
        if key not in MOVES:
            continue
        dr, dc = MOVES[key]
        ahead = (worker[0] + dr, worker[1] + dc)
        if ahead in boxes:
            beyond = (ahead[0] + dr, ahead[1] + dc)
            if free(beyond):
                boxes.remove(ahead)
                boxes.add(beyond)
                worker = ahead
        elif free(ahead):
            worker = ahead

    final = []
    for r in range(rows):
        row = []
        for c in range(cols):
            if (r, c) in walls:
                row.append("#")
            elif (r, c) in boxes:
                row.append("B" if target[r][c] else "b")
            elif (r, c) == worker:
                row.append("W" if target[r][c] else "w")
            else:
                row.append("+" if target[r][c] else ".")
        final.append("".join(row))
    return complete(), final


def solve(text: str) -> str:
    lines = text.split("\n")
    out = []
    at, game = 0, 0
    while at < len(lines):
        header = lines[at].split()
        at += 1
        if not header:
            continue
        rows, cols = int(header[0]), int(header[1])
        if rows == 0 and cols == 0:
            break
        board = [line.rstrip("\r")[:cols] for line in lines[at:at + rows]]
        keys = lines[at + rows].strip() if at + rows < len(lines) else ""
        at += rows + 1
        game += 1
        done, final = play(board, keys)
        out.append(f"Game {game}: {'complete' if done else 'incomplete'}")
        out.extend(final)
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.stdout.write(solve(sys.stdin.read()))
