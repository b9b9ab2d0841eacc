"""Hypothesis strategy for `yutnori` inputs: ten dice rolls of 1..5 (shrinks towards all ones).

Half the examples favour high rolls: only they drive several pieces home, where the rules about
FINISH (any number of pieces may stand there) and the shared 40 square matter.
"""

from hypothesis import strategies as st


def inputs() -> st.SearchStrategy[str]:
    any_rolls = st.lists(st.integers(min_value=1, max_value=5), min_size=10, max_size=10)
    high_rolls = st.lists(st.sampled_from((5, 4, 3, 5, 5)), min_size=10, max_size=10)
    return st.one_of(any_rolls, high_rolls).map(lambda values: " ".join(map(str, values)) + "\n")
