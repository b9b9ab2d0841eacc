"""Argument validator for `footholds`: a 1..5 x 1..5 board of 0/1, both players on footholds."""


def validate(args: list) -> None:
    """Raise ValueError naming what is wrong with the call's arguments."""
    if len(args) != 3:
        raise ValueError(f"expected 3 arguments (board, aloc, bloc), got {len(args)}")
    board, aloc, bloc = args
    if not isinstance(board, list) or not 1 <= len(board) <= 5:
        raise ValueError("board must be a list of 1..5 rows")
    width = len(board[0]) if isinstance(board[0], list) else 0
    if not 1 <= width <= 5:
        raise ValueError("board rows must have 1..5 columns")
    for number, row in enumerate(board):
        if not isinstance(row, list) or len(row) != width or any(cell not in (0, 1) for cell in row):
            raise ValueError(f"board row {number} must be {width} values of 0 or 1")
    for name, loc in (("aloc", aloc), ("bloc", bloc)):
        if not (isinstance(loc, list) and len(loc) == 2 and all(isinstance(v, int) for v in loc)):
            raise ValueError(f"{name} must be [row, col]")
        r, c = loc
        if not (0 <= r < len(board) and 0 <= c < width):
            raise ValueError(f"{name} {loc} is off the board")
        if board[r][c] != 1:
            raise ValueError(f"{name} {loc} is not on a foothold")


# Malformed arguments the validator must reject (checked by `judge test`).
INVALID_EXAMPLES = [
    [[[1, 1]], [0, 0]],
    [[[1, 0]], [0, 0], [0, 1]],
    [[[1, 1, 1, 1, 1, 1]], [0, 0], [0, 1]],
    [[[1, 2]], [0, 0], [0, 0]],
    [[[1, 1]], [0, 0], [1, 0]],
]
