"""A function called in a worker process under a CPU and memory budget per call
(judge/classroom/budget_worker.py): its result; the reason when it went over or failed; and the next call
is served by a worker of its own."""

from __future__ import annotations

import math

import pytest

from judge.classroom.budget_worker import Budget, BudgetedWorker, CallFailed


def test_a_call_over_its_cpu_budget_fails_and_the_next_call_is_served():
    with BudgetedWorker(Budget(cpu_seconds=1, memory_bytes=1 << 30)) as worker:
        assert worker.call(math.sqrt, 16.0) == 4.0
        with pytest.raises(CallFailed, match=r"^over its budget of 1 s of CPU time$"):
            worker.call(math.factorial, 10 ** 7)  # minutes of CPU
        assert worker.call(math.sqrt, 9.0) == 3.0


def test_a_call_over_its_memory_budget_or_raising_says_why():
    with BudgetedWorker(Budget(cpu_seconds=10, memory_bytes=64 << 20)) as worker:
        with pytest.raises(CallFailed, match=r"^over its budget of 64 MiB of memory$"):
            worker.call(bytes, 256 << 20)
        with pytest.raises(CallFailed, match=r"^ValueError: math domain error$"):
            worker.call(math.sqrt, -1.0)
        assert worker.call(math.sqrt, 4.0) == 2.0
