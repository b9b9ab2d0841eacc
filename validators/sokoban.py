"""Input validator for `sokoban`: games of R x C boards (4..15), one worker, as many boxes as
targets, a key line of at most 50 of U D L R, and a final `0 0` line."""

import re

SYMBOLS = set(".#+bBwW")
KEYS = re.compile(r"[UDLR]{0,50}")


def validate(text: str) -> None:
    """Raise ValueError naming what is wrong with the input."""
    lines = text.split("\n")
    at, game = 0, 0
    while True:
        if at >= len(lines):
            raise ValueError("the input must end with a line `0 0`")
        header = lines[at].split()
        at += 1
        if len(header) != 2 or not all(part.isdigit() for part in header):
            raise ValueError(f"line {at}: expected `R C`, got {lines[at - 1]!r}")
        rows, cols = int(header[0]), int(header[1])
        if rows == 0 and cols == 0:
            return
        game += 1
        if not (4 <= rows <= 15 and 4 <= cols <= 15):
            raise ValueError(f"game {game}: R and C must be 4..15, got {rows} {cols}")
        if at + rows >= len(lines):
            raise ValueError(f"game {game}: the board or its key line is cut short")
        _check_board(game, lines[at:at + rows], cols)
        keys = lines[at + rows]
        if not KEYS.fullmatch(keys):
            raise ValueError(f"game {game}: keys must be at most 50 of U, D, L, R, got {keys!r}")
        at += rows + 1


def _check_board(game: int, board: list[str], cols: int) -> None:
    for number, row in enumerate(board, 1):
        if len(row) != cols:
            raise ValueError(f"game {game}, board row {number}: {len(row)} symbols, expected {cols}")
        if set(row) - SYMBOLS:
            raise ValueError(f"game {game}, board row {number}: unknown symbol {min(set(row) - SYMBOLS)!r}")
    cells = "".join(board)
    workers = sum(cells.count(ch) for ch in "wW")
    if workers != 1:
        raise ValueError(f"game {game}: expected exactly one worker, found {workers}")
    boxes, targets = sum(cells.count(ch) for ch in "bB"), sum(cells.count(ch) for ch in "+BW")
    if boxes != targets:
        raise ValueError(f"game {game}: {boxes} boxes but {targets} targets; they must be equal")


# Malformed inputs the validator must reject (checked by `judge test`).
INVALID_EXAMPLES = [
    "4 4\n####\n#w.#\n#b+#\n####\nRR\n",  # no `0 0`
    "4 4\n####\n#w.#\n#bb#\n####\nRR\n0 0\n",  # more boxes than targets
    "4 4\n####\n#..#\n#b+#\n####\nRR\n0 0\n",  # no worker
    "4 4\n####\n#w.#\n#b+#\n####\nRX\n0 0\n",  # a key that is not U D L R
    "3 4\n####\n#wb+\n####\n\n0 0\n",  # too few rows
]
