"""Input validator for `omok`: a 19x19 board of 0/1/2 honouring the statement's guarantees
(black and white never both win; a colour never wins in two places)."""

SIZE = 19
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (-1, 1))


def validate(text: str) -> None:
    """Raise ValueError naming what is wrong with the input."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) != SIZE:
        raise ValueError(f"expected {SIZE} rows, found {len(lines)}")
    board = []
    for number, line in enumerate(lines, 1):
        cells = line.split()
        if len(cells) != SIZE:
            raise ValueError(f"row {number} has {len(cells)} numbers, expected {SIZE}")
        if any(cell not in {"0", "1", "2"} for cell in cells):
            raise ValueError(f"row {number} has a value other than 0, 1, 2")
        board.append([int(cell) for cell in cells])
    wins = exact_fives(board)
    if len({stone for stone, _, _ in wins}) > 1:
        raise ValueError("both colours have five in a row; the statement guarantees at most one winner")
    if len(wins) > 1:
        raise ValueError("one colour wins in two places; the statement guarantees one")


def exact_fives(board: list[list[int]]) -> list[tuple[int, int, int]]:
    """Every run of exactly five: (colour, row, column) of its first stone."""
    def colour(r, c):
        return board[r][c] if 0 <= r < SIZE and 0 <= c < SIZE else 0

    found = []
    for r in range(SIZE):
        for c in range(SIZE):
            stone = board[r][c]
            for dr, dc in DIRECTIONS:
                if not stone or colour(r - dr, c - dc) == stone:
                    continue
                length = 1
                while colour(r + dr * length, c + dc * length) == stone:
                    length += 1
                if length == 5:
                    found.append((stone, r, c))
    return found


_EMPTY_ROW = " ".join(["0"] * SIZE)
# Malformed inputs the validator must reject (checked by `judge test`).
INVALID_EXAMPLES = [
    "\n".join([_EMPTY_ROW] * 18) + "\n",
    "\n".join([_EMPTY_ROW] * 18 + ["0 " * 18 + "3"]) + "\n",
    "\n".join(["1 1 1 1 1" + " 0" * 14, "2 2 2 2 2" + " 0" * 14] + [_EMPTY_ROW] * 17) + "\n",
]
