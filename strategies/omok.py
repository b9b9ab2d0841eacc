"""Hypothesis strategy for `omok` boards: scattered stones plus lines of 4 to 7 stones on every
axis (fives, sixes, near misses), kept only when they honour the statement's guarantees
(shrinks towards an empty board)."""

import importlib.util
from pathlib import Path

from hypothesis import strategies as st

SIZE = 19
AXES = ((0, 1), (1, 0), (1, 1), (-1, 1))


def _validator():
    path = Path(__file__).resolve().parent.parent / "validators" / "omok.py"
    spec = importlib.util.spec_from_file_location("omok_validator_for_strategy", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_VALIDATE = _validator().validate


def _valid(text: str) -> bool:
    try:
        _VALIDATE(text)
        return True
    except ValueError:
        return False


_stone = st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1), st.integers(1, 2))
_line = st.tuples(st.integers(0, SIZE - 1), st.integers(0, SIZE - 1), st.sampled_from(AXES),
                  st.integers(4, 7), st.integers(1, 2))


def _board(stones: list, lines: list) -> str:
    board = [[0] * SIZE for _ in range(SIZE)]
    for r, c, colour in stones:
        board[r][c] = colour
    for r, c, (dr, dc), length, colour in lines:
        for k in range(length):
            if 0 <= r + dr * k < SIZE and 0 <= c + dc * k < SIZE:
                board[r + dr * k][c + dc * k] = colour
    return "\n".join(" ".join(map(str, row)) for row in board) + "\n"


def inputs() -> st.SearchStrategy[str]:
    boards = st.builds(_board, st.lists(_stone, max_size=40), st.lists(_line, max_size=2))
    return boards.filter(_valid)
