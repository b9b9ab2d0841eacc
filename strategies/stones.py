"""Hypothesis strategy for `stones` inputs: N from 1 to 1000 (shrinks towards 1)."""

from hypothesis import strategies as st


def inputs() -> st.SearchStrategy[str]:
    return st.integers(min_value=1, max_value=1000).map(lambda n: f"{n}\n")
