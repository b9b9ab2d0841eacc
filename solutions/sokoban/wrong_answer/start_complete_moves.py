# Typical mistake: completion is only checked after a move, so a board that starts complete still moves.
# Simulates on a mutable grid, remembering which cells are targets so they can be restored.
import sys

STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}


def run_game(grid, keys):
    rows, cols = len(grid), len(grid[0])
    target = [[ch in "+BW" for ch in row] for row in grid]
    wr, wc = next((r, c) for r in range(rows) for c in range(cols) if grid[r][c] in "wW")

    def done():
        return not any(ch == "b" for row in grid for ch in row)

    def put(r, c, thing):  # thing: "w", "b" or "" (empty)
        if thing == "w":
            grid[r][c] = "W" if target[r][c] else "w"
        elif thing == "b":
            grid[r][c] = "B" if target[r][c] else "b"
        else:
            grid[r][c] = "+" if target[r][c] else "."

    def inside(r, c):
        return 0 <= r < rows and 0 <= c < cols

    for key in keys:
        dr, dc = STEP[key]
        r1, c1, r2, c2 = wr + dr, wc + dc, wr + 2 * dr, wc + 2 * dc
        if not inside(r1, c1) or grid[r1][c1] == "#":
            continue
        if grid[r1][c1] in "bB":
            if not inside(r2, c2) or grid[r2][c2] not in ".+":
                continue
            put(r2, c2, "b")
        put(wr, wc, "")
        put(r1, c1, "w")
        wr, wc = r1, c1
        if done():
            break
    return done()


def solve(text):
    lines = text.split("\n")
    out, at, game = [], 0, 0
    while True:
        rows, cols = map(int, lines[at].split())
        if rows == 0 and cols == 0:
            break
        grid = [list(lines[at + 1 + r][:cols]) for r in range(rows)]
        keys = lines[at + 1 + rows].strip()
        at += rows + 2
        game += 1
        complete = run_game(grid, keys)
        out.append(f"Game {game}: {'complete' if complete else 'incomplete'}")
        out += ["".join(row) for row in grid]
    return "\n".join(out)


if __name__ == "__main__":
    print(solve(sys.stdin.read()))
