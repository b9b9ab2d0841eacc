"""Hypothesis strategy for `omok` boards: scattered stones plus up to three lines of 4 to 7 stones
on every axis (fives, sixes, near misses), often along an edge, kept only when they honour the
statement's guarantees (shrinks towards an empty board)."""

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
# A line starts on the board's first or last row or column half the time: mistakes at the edges
# are the common ones, and a uniform start reaches an edge one time in nineteen.
_coordinate = st.integers(0, SIZE - 1) | st.sampled_from((0, SIZE - 1))
# Length 0 (no stones) is what a line shrinks to: Hypothesis does not always delete a list's
# element, but shrinks one readily, so a line the failure does not need leaves no stone behind.
_line = st.tuples(_coordinate, _coordinate, st.sampled_from(AXES),
                  st.sampled_from((0, 4, 5, 6, 7)), st.integers(1, 2))


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
    boards = st.builds(_board, st.lists(_stone, max_size=40), st.lists(_line, max_size=3))
    return boards.filter(_valid)
