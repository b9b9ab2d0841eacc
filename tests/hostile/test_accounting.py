"""Every process of a run counts against its limits: the children of helper threads, and the
CPU time of workers that already ended. Checked in every isolation tier this machine offers."""

from __future__ import annotations

import pytest

from tests.hostile.test_hostile import STONES, TIERS, leftover_processes, program_marker, run_raw, verdict_of

MEMORY_LIMIT_KB = STONES.memory_limit >> 10


@pytest.mark.parametrize("tier", TIERS)
def test_memory_of_processes_forked_by_a_thread_counts(tier):
    outcome = run_raw("thread_fork_memory.c", tier, stdin=b"1\n")
    assert outcome.memory_kb > MEMORY_LIMIT_KB, outcome
    assert not leftover_processes(program_marker("thread_fork_memory.c"))


@pytest.mark.parametrize("tier", TIERS)
def test_cpu_of_processes_forked_by_a_thread_counts(tier):
    outcome = run_raw("thread_fork_cpu.c", tier, stdin=b"1\n")
    # On a busy machine the burners may reach the wall-clock limit before the CPU limit.
    assert outcome.cpu_time > STONES.time_limit or outcome.wall_timed_out, outcome


@pytest.mark.parametrize("name, verdict", [("thread_fork_memory.c", "MLE"), ("thread_fork_cpu.c", "TLE")])
def test_thread_forks_get_the_verdict_of_the_whole_run(name, verdict):
    assert verdict_of(name)[0] == verdict
