"""Seeded random inputs for the five problems, used to build the case suites.

Each generator takes a ``random.Random`` and returns one valid input (text for stdio problems,
an argument list for `footholds`). Every input passes the problem's validator.
"""

from __future__ import annotations

import random

OMOK = 19
OMOK_DIRECTIONS = ((0, 1), (1, 0), (1, 1), (-1, 1))


def yutnori(rng: random.Random) -> str:
    return " ".join(str(rng.randint(1, 5)) for _ in range(10)) + "\n"


def stones(rng: random.Random) -> str:
    return f"{rng.randint(1, 1000)}\n"


def footholds(rng: random.Random) -> list:
    rows, cols = rng.randint(1, 5), rng.randint(1, 5)
    density = rng.choice((0.5, 0.7, 0.9, 1.0))
    board = [[1 if rng.random() < density else 0 for _ in range(cols)] for _ in range(rows)]
    a = (rng.randrange(rows), rng.randrange(cols))
    b = a if rng.random() < 0.2 else (rng.randrange(rows), rng.randrange(cols))
    for r, c in (a, b):
        board[r][c] = 1
    return [board, list(a), list(b)]


def sokoban_game(rng: random.Random, rows: int | None = None, cols: int | None = None) -> str:
    rows, cols = rows or rng.randint(4, 9), cols or rng.randint(4, 9)
    walled = rng.random() < 0.6
    cells = [["." for _ in range(cols)] for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            edge = r in (0, rows - 1) or c in (0, cols - 1)
            if (walled and edge) or rng.random() < 0.08:
                cells[r][c] = "#"
    free = [(r, c) for r in range(rows) for c in range(cols) if cells[r][c] == "."]
    rng.shuffle(free)
    boxes = rng.randint(1, min(4, (len(free) - 1) // 2))
    worker, box_cells, target_cells = free[0], free[1:1 + boxes], free[1 + boxes:1 + 2 * boxes]
    if rng.random() < 0.15:
        target_cells = box_cells  # starts complete
    elif rng.random() < 0.4:
        target_cells = box_cells[:-1] + target_cells[-1:]  # one push from complete, often
    for r, c in target_cells:
        cells[r][c] = "+"
    for r, c in box_cells:
        cells[r][c] = "B" if cells[r][c] == "+" else "b"
    r, c = worker
    cells[r][c] = "W" if cells[r][c] == "+" else "w"
    keys = "".join(rng.choice("UDLR") for _ in range(rng.choice((0, 5, 20, 50))))
    return f"{rows} {cols}\n" + "\n".join("".join(row) for row in cells) + f"\n{keys}\n"


def sokoban(rng: random.Random) -> str:
    return "".join(sokoban_game(rng) for _ in range(rng.randint(1, 3))) + "0 0\n"


def omok(rng: random.Random) -> str:
    """A sparse board, often with one planted line of 4, 5 or 6 stones; valid by construction."""
    while True:
        board = [[0] * OMOK for _ in range(OMOK)]
        for _ in range(rng.randint(0, 60)):
            board[rng.randrange(OMOK)][rng.randrange(OMOK)] = rng.randint(1, 2)
        if rng.random() < 0.8:
            plant_line(board, rng, rng.randint(1, 2), rng.choice((4, 5, 5, 5, 6)))
        text = "\n".join(" ".join(map(str, row)) for row in board) + "\n"
        if _omok_valid(text):
            return text


def plant_line(board: list[list[int]], rng: random.Random, stone: int, length: int) -> None:
    dr, dc = rng.choice(OMOK_DIRECTIONS)
    while True:
        r, c = rng.randrange(OMOK), rng.randrange(OMOK)
        end_r, end_c = r + dr * (length - 1), c + dc * (length - 1)
        if 0 <= end_r < OMOK and 0 <= end_c < OMOK:
            break
    for k in range(length):
        board[r + dr * k][c + dc * k] = stone


def _omok_valid(text: str) -> bool:
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "validators" / "omok.py"
    spec = importlib.util.spec_from_file_location("omok_validator", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        module.validate(text)
        return True
    except ValueError:
        return False


GENERATORS = {"yutnori": yutnori, "stones": stones, "footholds": footholds, "sokoban": sokoban, "omok": omok}
