"""Hypothesis strategy for `sokoban` inputs: one to three games on boards of 4..15 squares a
side, with or without surrounding walls, as many boxes as targets (boxes may start on targets,
the worker may stand on one), small crowded boards as often as large ones, and up to 50 keys (shrinks towards one small game with no keys)."""

from hypothesis import strategies as st


@st.composite
def _game(draw) -> str:
    # Small crowded boards half the time: pushes into boxes and walls happen there.
    side = st.one_of(st.integers(min_value=4, max_value=6), st.integers(min_value=4, max_value=15))
    rows, cols = draw(side), draw(side)
    walled = draw(st.booleans())
    grid = [["#" if walled and (r in (0, rows - 1) or c in (0, cols - 1)) else "." for c in range(cols)]
            for r in range(rows)]
    for r, c in draw(st.lists(st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1)), max_size=12)):
        grid[r][c] = "#"
    free = [(r, c) for r in range(rows) for c in range(cols) if grid[r][c] == "."]
    boxes = draw(st.integers(min_value=1, max_value=max(1, min(6, (len(free) - 1) // 2))))
    chosen = draw(st.permutations(range(len(free))))[: 1 + 2 * boxes]
    if len(chosen) < 1 + 2 * boxes:  # a board too cramped for this many boxes: no boxes to move
        return _render(rows, cols, grid, draw)
    worker, box_cells, spare = free[chosen[0]], [free[i] for i in chosen[1:1 + boxes]], [free[i] for i in chosen[1 + boxes:]]
    for index, box in enumerate(box_cells):
        where = draw(st.sampled_from(("spare", "under box", "under worker") if index == 0 else ("spare", "under box")))
        target = {"spare": spare[index], "under box": box, "under worker": worker}[where]
        grid[target[0]][target[1]] = "+"
    for r, c in box_cells:
        grid[r][c] = "B" if grid[r][c] == "+" else "b"
    grid[worker[0]][worker[1]] = "W" if grid[worker[0]][worker[1]] == "+" else "w"
    return _render(rows, cols, grid, draw)


def _render(rows: int, cols: int, grid: list[list[str]], draw) -> str:
    if not any(cell in "wW" for row in grid for cell in row):
        grid[0][0] = "w"  # the one cell a cramped board is sure to have
        if not any(cell in "bB" for row in grid for cell in row):
            grid[0][1] = "B"
    keys = draw(st.text(alphabet="UDLR", max_size=50))
    return f"{rows} {cols}\n" + "\n".join("".join(row) for row in grid) + f"\n{keys}\n"


def inputs() -> st.SearchStrategy[str]:
    return st.lists(_game(), min_size=1, max_size=3).map(lambda games: "".join(games) + "0 0\n")
