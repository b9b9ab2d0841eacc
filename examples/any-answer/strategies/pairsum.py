"""Hypothesis strategy for `pairsum` inputs: a list of small integers, and T the sum of two of
them (so a pair always exists; shrinks towards short lists of zeros)."""

from hypothesis import strategies as st


@st.composite
def _case(draw) -> str:
    values = draw(st.lists(st.integers(min_value=-50, max_value=50), min_size=2, max_size=12))
    first = draw(st.integers(min_value=0, max_value=len(values) - 2))
    second = draw(st.integers(min_value=first + 1, max_value=len(values) - 1))
    target = values[first] + values[second]
    return f"{len(values)} {target}\n{' '.join(map(str, values))}\n"


def inputs() -> st.SearchStrategy[str]:
    return _case()
