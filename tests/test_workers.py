"""The judge's one worker pool (judge/workers.py), on real threads: work runs side by side;
results come in the items' order; leaving the pool's block (a failure, a stop, Ctrl-C) cancels
the work not begun and lets the running work finish; a worker's exception reaches the caller;
work beside the workers never waits for them. Events and barriers show what ran when (the
timeouts on them only keep a broken pool from hanging the tests)."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from judge.workers import Workers, usable_cores, wait_all_or_first_failure

ROOT = Path(__file__).resolve().parent.parent
HANG_GUARD = 60  # seconds a wait may take before the test is failed rather than hung


class Stop(Exception):
    """A failure of the caller's own, while work is running."""


def test_the_workers_run_side_by_side():
    all_running = threading.Barrier(3)  # passed only when three works run at the same time
    with Workers(3) as workers:
        futures = [workers.submit(all_running.wait, HANG_GUARD) for _ in range(3)]
        assert sorted(future.result() for future in futures) == [0, 1, 2]


def test_a_pool_has_as_many_workers_as_usable_cores_unless_told():
    assert Workers().count == usable_cores()
    assert Workers(None).count == usable_cores()
    assert Workers(3).count == 3 and Workers(0).count == 1
    if hasattr(os, "sched_getaffinity"):
        assert usable_cores() == len(os.sched_getaffinity(0))


def test_results_come_in_the_items_order_whatever_order_they_end_in():
    last_done = threading.Event()

    def work(item: int) -> int:
        if item == 0:
            assert last_done.wait(HANG_GUARD)  # the first ends only after the last
        if item == 2:
            last_done.set()
        return item * 10

    with Workers(3) as workers:
        assert list(workers.in_order(work, range(3))) == [0, 10, 20]


def test_the_first_exception_in_the_items_order_is_raised_where_its_result_would_come():
    later_failed = threading.Event()

    def work(item: int) -> int:
        if item == 1:
            assert later_failed.wait(HANG_GUARD)
            raise ValueError("the first in order")
        if item == 2:
            later_failed.set()
            raise ValueError("the first in time")
        return item

    with Workers(3) as workers:
        results = workers.in_order(work, range(3))
        assert next(results) == 0
        with pytest.raises(ValueError, match="the first in order"):
            next(results)


def test_a_stop_raised_in_a_worker_reaches_the_caller_as_itself():
    """The sandbox's RunsStopped is a KeyboardInterrupt: it is carried like any exception."""
    def stopped(_item: int) -> int:
        raise KeyboardInterrupt("SIGINT")

    with pytest.raises(KeyboardInterrupt, match="SIGINT"), Workers(2) as workers:
        list(workers.in_order(stopped, range(4)))


class HeldPool:
    """Two workers held running and three works queued behind them; the held works are let go
    only once the last queued one is cancelled (or, were it not, done)."""

    def __init__(self) -> None:
        self.both_running = threading.Barrier(3)
        self.let_go = threading.Event()
        self.finished: list[str] = []  # the held works that ended
        self.ran: list[int] = []  # the queued works that ran
        self.queued = []

    def leave_by(self, leave) -> None:
        """Hold the workers, queue three works, then ``leave()`` inside the pool's block."""
        with Workers(2) as workers:
            for name in ("first", "second"):
                workers.submit(self._hold, name)
            self.queued = [workers.submit(self.ran.append, number) for number in range(3)]
            self.queued[-1].add_done_callback(lambda _future: self.let_go.set())
            self.both_running.wait(HANG_GUARD)
            leave()

    def _hold(self, name: str) -> None:
        self.both_running.wait(HANG_GUARD)
        assert self.let_go.wait(HANG_GUARD)
        self.finished.append(name)

    def ended_as_expected(self) -> bool:
        """The running works ended before the block was left; the queued ones never began."""
        return sorted(self.finished) == ["first", "second"] and self.ran == [] \
            and all(future.cancelled() for future in self.queued)


@pytest.mark.parametrize("stop", [Stop, KeyboardInterrupt], ids=["an exception", "ctrl-c in the caller"])
def test_leaving_the_pool_by_a_raise_cancels_the_work_not_begun_and_lets_the_running_finish(stop):
    pool = HeldPool()

    def raised() -> None:
        raise stop

    with pytest.raises(stop):
        pool.leave_by(raised)
    assert pool.ended_as_expected()


def test_a_pool_left_normally_lets_the_running_work_finish_and_begins_none_after():
    pool = HeldPool()
    pool.leave_by(lambda: None)
    assert pool.ended_as_expected()


def test_a_caller_that_stops_taking_results_cancels_the_items_not_begun():
    """As `judge stress` stops at its first counterexample: the rest is not judged."""
    both_running = threading.Barrier(3)
    let_go = threading.Event()
    ran, finished = [], []

    def work(item: int) -> int:
        if item in (1, 2):  # the two workers, held until the caller has stopped
            both_running.wait(HANG_GUARD)
            assert let_go.wait(HANG_GUARD)
            finished.append(item)
        elif item > 2:
            ran.append(item)
        return item

    with Workers(2) as workers:
        results = workers.in_order(work, range(6))
        assert next(results) == 0
        both_running.wait(HANG_GUARD)
        results.close()  # the caller found what it looked for, and goes on in the pool's block
        let_go.set()
        _drain(workers)
        assert ran == [] and sorted(finished) == [1, 2]


def _drain(workers: Workers) -> None:
    """Return once every work queued so far has ended: a worker takes the next work only when its
    last has ended, and these hold every worker at once."""
    every_worker = threading.Barrier(workers.count)
    for future in [workers.submit(every_worker.wait, HANG_GUARD) for _ in range(workers.count)]:
        future.result()


def test_with_ahead_the_items_are_read_only_as_far_as_the_work_has_gone():
    """A generator still making its items (stress's planned examples) is read no further than
    ``ahead`` results waiting, beyond the one being waited for."""
    read = []
    third_submitted = threading.Event()

    def items():
        for item in range(10):
            read.append(item)
            yield item

    def work(item: int) -> int:
        if item == 0:
            assert third_submitted.wait(HANG_GUARD)
        if item == 2:
            third_submitted.set()
        return item

    with Workers(3) as workers:
        results = workers.in_order(work, items(), ahead=2)
        assert next(results) == 0
        assert read == [0, 1, 2]
        assert list(results) == list(range(1, 10))


def test_work_beside_the_workers_runs_while_they_are_all_busy():
    beside_ran = threading.Event()
    with Workers(1) as workers:
        busy = workers.submit(beside_ran.wait, HANG_GUARD)  # its one worker waits for the work beside
        beside = workers.beside(beside_ran.set)
        assert busy.result() is True and beside.result() is None


def test_waiting_for_all_ends_at_the_first_failure():
    let_go = threading.Event()
    with Workers(2) as workers:
        slow = workers.submit(let_go.wait, HANG_GUARD)
        failing = workers.submit(int, "not a number")
        wait_all_or_first_failure([slow, failing])
        assert not slow.done() and isinstance(failing.exception(), ValueError)
        let_go.set()
        wait_all_or_first_failure([slow, workers.submit(int, "7")])
        assert slow.result() is True


def test_every_pool_of_the_judge_is_this_one():
    """No module but judge/workers.py starts a thread pool of its own."""
    pools = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "judge").rglob("*.py")
                   if "ThreadPoolExecutor" in path.read_text())
    assert pools == ["judge/workers.py"]
