"""Hypothesis strategy for `sums` inputs: up to 20 integers between -10^6 and 10^6."""

from hypothesis import strategies as st


def inputs() -> st.SearchStrategy[str]:
    values = st.lists(st.integers(min_value=-10**6, max_value=10**6), min_size=1, max_size=20)
    return values.map(lambda items: f"{len(items)}\n{' '.join(map(str, items))}\n")
