"""An allocation that fails because the machine is short of memory, not because the program
reached its limit, is not the program's fault: the case runs once more, then it is IE, not MLE.

The program below makes its own allocation fail far below its limit, by lowering its own
address-space cap: what a machine without memory to give does to it. The machine is short of
memory for real when the problem's limit is more than the machine has available."""

from __future__ import annotations

import pytest

from judge.formats.suite.format import load_suite
from judge.model.verdict import Verdict, decide, machine_short_of_memory
from judge.runner import available_memory_kb, cold_execute, prepare, run_case
from judge.sandbox import Limits, Outcome

# Allocates 1 GiB under a cap of 512 MiB it set itself: MemoryError at a peak of a few MiB.
REFUSED_ALLOCATION = """
import resource
soft, hard = resource.getrlimit(resource.RLIMIT_AS)
cap = 512 << 20 if hard == resource.RLIM_INFINITY else min(512 << 20, hard)
resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
block = bytearray(1 << 30)
print(len(block))
"""
SUITE = """
id: hungry
title: Hungry
limits: {{time: 2, memory: {memory_mib}, output: 1}}
cases:
  - {{name: one, input: "1\\n", output: "1\\n", visibility: sample}}
"""


def run_counted(tmp_path, memory_mib: int):
    """The case's result and how many times its program ran."""
    (tmp_path / "cases").mkdir()
    suite = tmp_path / "cases" / "hungry.yaml"
    suite.write_text(SUITE.format(memory_mib=memory_mib))
    problem = load_suite(suite, root=tmp_path)
    source = tmp_path / "hungry.py"
    source.write_text(REFUSED_ALLOCATION)
    prepared = prepare(problem, source)
    runs = []

    def execute(*arguments):
        runs.append(arguments)
        return cold_execute(*arguments)

    return run_case(problem, prepared, problem.cases[0], execute), len(runs)


def test_an_allocation_failing_while_the_machine_has_too_little_memory_is_rerun_then_ie(tmp_path):
    available = available_memory_kb()
    if available is None:
        pytest.skip("no MemAvailable in /proc/meminfo")
    # A limit the machine cannot honour: more than twice what it has available.
    result, runs = run_counted(tmp_path, memory_mib=2 * available // 1024 + 1024)
    assert runs == 2
    assert result.verdict == Verdict.IE, result.message
    assert result.message.startswith("the machine was short of memory: an allocation failed at ")
    assert "not the program's fault" in result.message


def test_the_same_failure_with_memory_to_spare_is_mle_after_one_run(tmp_path):
    available = available_memory_kb()
    if available is None or available < 1 << 20:
        pytest.skip("this machine has less than 1 GiB available: a 256 MiB limit may not be honoured")
    result, runs = run_counted(tmp_path, memory_mib=256)
    assert runs == 1
    assert result.verdict == Verdict.MLE and "asked for more memory than the limit allows" in result.message


LIMITS = Limits(cpu_time=1, wall_time=3, memory=256 << 20, output=1 << 20)


@pytest.mark.parametrize("peak_mib, available_mib, short", [
    (10, 100, True),  # 246 MiB of its allowance left, 100 on the machine
    (10, 4096, False),  # memory to spare: the program asked for more than its limit
    (200, 10, False),  # near its limit: its own doing
    (10, None, False),  # unknown: as before, MLE
])
def test_short_of_memory_means_a_peak_well_below_the_limit_and_less_available_than_its_rest(
        peak_mib, available_mib, short):
    outcome = Outcome(exit_code=1, memory_kb=peak_mib * 1024, stderr=b"MemoryError")
    available_kb = None if available_mib is None else available_mib * 1024
    assert machine_short_of_memory(outcome, LIMITS, available_kb) is short
    decision = decide(outcome, LIMITS, None, out_of_memory=True, available_memory_kb=available_kb)
    assert decision.verdict == (Verdict.IE if short else Verdict.MLE)
    assert decision.machine_short_of_memory is short
    # Without the runtime saying it ran out of memory, nothing changes: a plain crash is RE.
    assert decide(outcome, LIMITS, None, available_memory_kb=available_kb).verdict == Verdict.RE


def test_available_memory_is_read_from_meminfo(tmp_path):
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       24683584 kB\nMemFree:  1000 kB\nMemAvailable:   123456 kB\n")
    assert available_memory_kb(meminfo) == 123456
    meminfo.write_text("MemTotal: 1 kB\n")
    assert available_memory_kb(meminfo) is None
