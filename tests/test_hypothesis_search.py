"""Driving Hypothesis: its engine directly (fast) and `find` (the public API) are interchangeable."""

import pytest
from conftest import ROOT, built_in_problems
from hypothesis import strategies as st

from judge.authoring.planned_examples import strategy_inputs
from judge.authoring.stress import stress
from judge.formats.catalog import load_problem
from judge.problem_code import hypothesis_search

PROBLEMS = built_in_problems()
# When a Hypothesis release changes the internals the engine is driven by, stress falls back to
# find (tested below either way); these tests then say so instead of failing.
needs_engine = pytest.mark.skipif(not hypothesis_search._engine_works(),
                                  reason="this Hypothesis' engine cannot be driven directly; judge stress uses find")


def tried(strategy, examples: int, seed: int, engine: bool) -> list:
    seen = []
    search = hypothesis_search._engine_search if engine else hypothesis_search._find_search
    found = search(strategy, lambda value: seen.append(value) or False, hypothesis_search._settings(examples, False), seed)
    assert found == (False, None)
    return seen


@needs_engine
@pytest.mark.parametrize("problem_id", PROBLEMS)
def test_both_ways_try_the_same_inputs_in_the_same_order(problem_id):
    strategy = strategy_inputs(load_problem(problem_id).files.strategies)
    assert tried(strategy, 60, 3, engine=True) == tried(strategy, 60, 3, engine=False)


@needs_engine
def test_both_ways_shrink_to_the_same_input():
    strategy = st.lists(st.integers(0, 1000)).map(sorted)

    def big(values):
        return sum(values) > 1500

    settings = hypothesis_search._settings(500, True)
    engine = hypothesis_search._engine_search(strategy, big, settings, 5)
    assert engine == hypothesis_search._find_search(strategy, big, settings, 5)
    assert engine[0] and sum(engine[1]) == 1501


@needs_engine
def test_rejected_inputs_are_skipped():
    strategy = st.integers(0, 100).filter(lambda n: n % 7 == 3)
    seen = tried(strategy, 50, 0, engine=True)
    assert seen and all(n % 7 == 3 for n in seen)


def test_stress_finds_the_same_counterexample_either_way(monkeypatch):
    stones = load_problem("stones")
    wrong = ROOT / "solutions/stones/wrong_answer/even_wins.py"
    usual = stress(stones, wrong, examples=40, seed=2, jobs=2)
    monkeypatch.setattr(hypothesis_search, "_engine_works", lambda: False)
    public = stress(stones, wrong, examples=40, seed=2, jobs=2)
    assert usual.found and (usual.examples_run, usual.counterexample) == (public.examples_run, public.counterexample)
