"""Work side by side: the one pool of worker threads the judge runs its parallel work in (a
submission's cases, a suite's example solutions, a package's submissions and its time limit's
accepted runs, stress examples, a class's submissions).

A pool is a block (``with Workers(count) as workers:``). Leaving it, for whatever reason (all
done, a worker's exception carried to the caller, Ctrl-C, a caller that stops at a failure or a
counterexample), cancels the work not begun and waits for the work running: a run already
started ends as the sandbox ends runs (at its limits, or at once when the judge is stopping, see
judge/sandbox/slots.py), and nothing starts after. A worker's exception reaches whoever asks for
its result, unchanged.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_EXCEPTION, Future, ThreadPoolExecutor, wait
from typing import Any, ParamSpec, TypeVar

__all__ = ["Future", "Workers", "usable_cores", "wait_all_or_first_failure"]

Item = TypeVar("Item")
Result = TypeVar("Result")
Params = ParamSpec("Params")


def usable_cores() -> int:
    """The CPUs this process may run on (all of them where the system cannot say which): how many
    workers a pool has unless its caller says."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


class Workers:
    """``count`` worker threads (default: ``usable_cores()``), taking work in the order it is
    given; and, asked for, one thread beside them (``beside``)."""

    def __init__(self, count: int | None = None) -> None:
        self.count = usable_cores() if count is None else max(1, count)
        self._pool = ThreadPoolExecutor(max_workers=self.count, thread_name_prefix="judge-worker")
        self._beside: ThreadPoolExecutor | None = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def submit(self, work: Callable[Params, Result], *args: Params.args, **kwargs: Params.kwargs) -> Future[Result]:
        """``work(*args, **kwargs)`` once a worker is free; its future holds its result or its exception."""
        return self._pool.submit(work, *args, **kwargs)

    def beside(self, work: Callable[Params, Result], *args: Params.args, **kwargs: Params.kwargs) -> Future[Result]:
        """``work`` on a thread of its own beside the workers, taking none of their turns: work of
        another kind made while they run (a package's other checks while its submissions are
        judged). One at a time, in the order given."""
        if self._beside is None:
            self._beside = ThreadPoolExecutor(max_workers=1, thread_name_prefix="judge-beside")
        return self._beside.submit(work, *args, **kwargs)

    def in_order(self, work: Callable[[Item], Result], items: Iterable[Item],
                 ahead: int | None = None) -> Iterator[Result]:
        """``work`` of each of ``items`` side by side, the results in the items' order, each as soon
        as it and those before it are done. The first exception in that order is raised where its
        result would come. Without ``ahead`` every item is submitted at once; with it, ``items``
        is read as the work goes (a generator that is still making them), and once more than
        ``ahead`` results wait to be taken, the oldest is waited for before the next item is
        read. Work of this call not begun when the caller stops taking results (or one raises)
        is cancelled."""
        waiting: deque[Future[Result]] = deque()
        try:
            if ahead is None:
                waiting.extend(self.submit(work, item) for item in items)
            else:
                for item in items:
                    waiting.append(self.submit(work, item))
                    while waiting and (waiting[0].done() or len(waiting) > ahead):
                        yield _take_oldest(waiting)
            while waiting:
                yield _take_oldest(waiting)
        finally:
            for future in waiting:
                future.cancel()

    def close(self) -> None:
        """Cancel the work not begun, then wait for the work running (beside as well)."""
        pools = [pool for pool in (self._pool, self._beside) if pool is not None]
        for pool in pools:
            pool.shutdown(wait=False, cancel_futures=True)
        for pool in pools:
            pool.shutdown(wait=True)


def _take_oldest(waiting: deque[Future[Result]]) -> Result:
    """The oldest future's result, which leaves ``waiting`` only once it is had (interrupted while
    waiting, it stays, to be cancelled if it has not begun)."""
    result = waiting[0].result()
    waiting.popleft()
    return result


def wait_all_or_first_failure(futures: Iterable[Future[Any]]) -> None:
    """Wait until every one of ``futures`` is done, or one has raised. Nothing is raised here: the
    caller takes the results, and with them the exceptions, in the order that tells most."""
    wait(list(futures), return_when=FIRST_EXCEPTION)
