"""How `judge stress` drives Hypothesis: generate inputs from a strategy, test each with a
predicate, and shrink the first input it holds for to a minimal one.

Two ways, which try the same inputs in the same order for a seed and shrink to the same input:
- Hypothesis' search engine, driven directly: each example costs about a third less than
  through `find`, whose per-example bookkeeping (seeding the global random, wrapping the test,
  reporting) a judge does not need. It uses Hypothesis internals, so it is used only when a
  small search with a known answer gives that answer on the installed Hypothesis.
- `hypothesis.find`, the public API, otherwise.

Hypothesis is imported here, and only when a search runs.
"""

from __future__ import annotations

import functools
import random
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from judge.sandbox.host import user_tag


def search(strategy, predicate: Callable[[Any], bool], examples: int, seed: int, shrink: bool) -> tuple[bool, Any]:
    """Try up to ``examples`` inputs; (True, the input shrunk if ``shrink``) for the first on
    which ``predicate`` holds, else (False, None). Errors of the strategy propagate."""
    _keep_hypothesis_files_out_of_the_project()
    settings = _settings(examples, shrink)
    if _engine_works():
        return _engine_search(strategy, predicate, settings, seed)
    return _find_search(strategy, predicate, settings, seed)


def _settings(examples: int, shrink: bool):
    # Hypothesis takes most of a second to import: only for a stress search, not at `judge` start-up.
    from hypothesis import HealthCheck, Phase, settings

    phases = [Phase.generate, Phase.shrink] if shrink else [Phase.generate]
    return settings(max_examples=examples, database=None, deadline=None, derandomize=False,
                    suppress_health_check=list(HealthCheck), phases=phases)


def _find_search(strategy, predicate, settings, seed: int) -> tuple[bool, Any]:
    # Hypothesis takes most of a second to import: only for a stress search, not at `judge` start-up.
    from hypothesis import find
    from hypothesis.errors import NoSuchExample

    try:
        return True, find(strategy, predicate, settings=settings, random=random.Random(seed))
    except NoSuchExample:
        return False, None


class _Holds(Exception):
    """What the engine records as the reason an example is interesting."""


def _engine_search(strategy, predicate, settings, seed: int) -> tuple[bool, Any]:
    # Hypothesis takes most of a second to import: only for a stress search, not at `judge` start-up.
    from hypothesis.control import BuildContext
    from hypothesis.errors import UnsatisfiedAssumption
    from hypothesis.internal.conjecture.data import ConjectureData
    from hypothesis.internal.conjecture.engine import ConjectureRunner
    from hypothesis.internal.escalation import InterestingOrigin

    try:
        raise _Holds
    except _Holds as holds:
        origin = InterestingOrigin.from_exception(holds)

    def draw(data):
        # Strategies such as .map() report to the context of the test being run.
        with BuildContext(data, wrapped_test=predicate):
            return data.draw(strategy)

    def test_function(data) -> None:
        try:
            value = draw(data)
        except UnsatisfiedAssumption:  # a filter or assume() in the strategy rejected it
            data.mark_invalid()  # ends this example (it raises)
        else:
            if predicate(value):
                data.mark_interesting(origin)  # ends this example (it raises)

    # Seeded as find() seeds its engine, so both ways try the same inputs in the same order.
    engine_random = random.Random(random.Random(seed).getrandbits(64))
    runner = ConjectureRunner(test_function, settings=settings, random=engine_random)
    runner.run()
    # Named interesting_examples before Hypothesis 6.16x.
    found = getattr(runner, "interesting_test_cases", None)
    if found is None:
        found = runner.interesting_examples
    if not found:
        return False, None
    (result,) = found.values()
    return True, draw(ConjectureData.for_choices(result.choices))


@functools.cache  # once per process
def _engine_works() -> bool:
    """Whether driving the engine directly works with the installed Hypothesis: a search whose
    answer is known (the smallest n >= 7, through .map) must find it, and a search with nothing
    to find must try every one of a few inputs, once each."""
    # Hypothesis takes most of a second to import: only for a stress search, not at `judge` start-up.
    from hypothesis import strategies as st

    seen: list[str] = []

    def record(text: str) -> bool:
        seen.append(text)
        return False

    try:
        found = _engine_search(st.integers(0, 100).map(str), lambda text: int(text) >= 7, _settings(100, True), 0)
        _engine_search(st.integers(0, 5).map(str), record, _settings(20, False), 0)
    except Exception:  # noqa: BLE001 - any mismatch with the internals: use the public API
        return False
    return found == (True, "7") and sorted(seen) == ["0", "1", "2", "3", "4", "5"]


def _keep_hypothesis_files_out_of_the_project() -> None:
    """No example database is used, but Hypothesis also caches constants it finds in loaded code;
    that goes to a temporary directory, not ``.hypothesis/`` in the user's working directory."""
    # Hypothesis takes most of a second to import: only for a stress search, not at `judge` start-up.
    from hypothesis.configuration import set_hypothesis_home_dir

    set_hypothesis_home_dir(str(Path(tempfile.gettempdir()) / f"judge-hypothesis-{user_tag()}"))
