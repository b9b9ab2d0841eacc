"""Hypothesis strategy for `footholds` calls: [board, aloc, bloc] on boards up to 5x5, both
players on footholds, sometimes on the same one (shrinks towards a 1x1 board)."""

from hypothesis import strategies as st


@st.composite
def _call(draw) -> list:
    rows = draw(st.integers(min_value=1, max_value=5))
    cols = draw(st.integers(min_value=1, max_value=5))
    board = draw(st.lists(st.lists(st.sampled_from((1, 0)), min_size=cols, max_size=cols),
                          min_size=rows, max_size=rows))
    cells = st.tuples(st.integers(0, rows - 1), st.integers(0, cols - 1))
    a = draw(cells)
    b = a if draw(st.booleans()) else draw(cells)
    for r, c in (a, b):
        board[r][c] = 1
    return [board, list(a), list(b)]


def inputs() -> st.SearchStrategy[list]:
    return _call()
