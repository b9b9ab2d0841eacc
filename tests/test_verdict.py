import dataclasses
import signal

from judge.model.verdict import CheckResult, decide, overall_verdict, slowed_by_machine
from judge.sandbox import Limits, Outcome

LIMITS = Limits(cpu_time=1.0, wall_time=4.0, memory=64 << 20, output=1 << 20)
OK = CheckResult(True)
WRONG = CheckResult(False, "line 1: expected 'a', got 'b'")


def verdict(check=OK, **fields):
    return decide(Outcome(**{"exit_code": 0, **fields}), LIMITS, check).verdict


def test_accepted_and_wrong_answer():
    assert verdict() == "AC"
    assert verdict(WRONG) == "WA"


def test_time_limit_by_cpu_or_wall():
    assert verdict(cpu_time=1.2) == "TLE"
    assert verdict(wall_timed_out=True, exit_code=None, signal=signal.SIGKILL) == "TLE"
    assert verdict(cpu_time=0.99) == "AC"


def test_limits_win_over_the_crash_they_cause():
    assert verdict(cpu_time=1.5, exit_code=None, signal=signal.SIGKILL) == "TLE"
    assert verdict(output_exceeded=True, exit_code=None, signal=signal.SIGXFSZ) == "OLE"
    assert verdict(memory_kb=(64 << 10) + 1, exit_code=None, signal=signal.SIGKILL) == "MLE"


def test_memory_error_reported_by_the_runtime_is_mle():
    outcome = Outcome(exit_code=1, memory_kb=1000)
    assert decide(outcome, LIMITS, None, out_of_memory=True).verdict == "MLE"


def test_a_refused_allocation_says_so_rather_than_a_peak_below_the_limit():
    """`[0] * 10**9` is refused at once: its peak is a few MiB, far below the limit."""
    outcome = Outcome(exit_code=1, memory_kb=7000)
    message = decide(outcome, LIMITS, None, out_of_memory=True, error_line="MemoryError").message
    assert message == "memory limit 64 MiB exceeded: the program asked for more memory than the limit allows; MemoryError"
    over = decide(Outcome(exit_code=1, memory_kb=70 << 10), LIMITS, None, out_of_memory=True).message
    assert over == "memory limit 64 MiB exceeded (peak 70 MiB)"


def test_a_wall_clock_timeout_guesses_sleeping_only_when_little_cpu_was_used():
    limits = Limits.for_cpu(1.0, memory=64 << 20, output=1 << 20)  # wall clock 2 s

    def message(cpu_time):
        outcome = Outcome(exit_code=None, signal=signal.SIGKILL, wall_timed_out=True, cpu_time=cpu_time, wall_time=2.0)
        return decide(outcome, limits, None).message
    assert message(0.01) == "still running after 2 s of wall time (used 0.01 s CPU: sleeping or waiting?)"
    assert message(0.9) == "still running after 2 s of wall time (used 0.90 s CPU of its 1 s: the machine was busy)"


def test_runtime_errors():
    assert verdict(None, exit_code=1) == "RE"
    assert verdict(None, exit_code=None, signal=signal.SIGSEGV) == "RE"
    message = decide(Outcome(exit_code=None, signal=signal.SIGSEGV), LIMITS, None, error_line="boom").message
    assert message == ("killed by SIGSEGV (invalid memory access: an index out of bounds, a null pointer "
                       "or too deep recursion): boom")
    assert decide(Outcome(exit_code=None, signal=signal.SIGFPE), LIMITS, None).message == (
        "killed by SIGFPE (arithmetic error: an integer division by zero)")


def test_judge_faults_are_never_the_students():
    assert verdict(internal_error="sandbox failed", cpu_time=5) == "IE"


def test_overall_verdict_is_the_first_failure():
    assert overall_verdict(["AC", "AC"]) == "AC"
    assert overall_verdict(["AC", "TLE", "WA"]) == "TLE"


def test_output_over_its_cap_is_ole_even_when_the_program_then_times_out():
    """node and the JVM swallow the failed writes of a flood and run on until stopped."""
    assert verdict(output_exceeded=True, cpu_time=1.5, exit_code=None, signal=signal.SIGKILL) == "OLE"
    assert verdict(output_exceeded=True, wall_timed_out=True, exit_code=None, signal=signal.SIGKILL) == "OLE"


def test_where_the_program_runs_on_past_the_output_limit_its_time_comes_first():
    """A package's runs, as DOMjudge and problemtools judge them: a flood without end is TLE; one
    that ended in time is OLE, before the crash its failed write may have caused."""
    runs_on = dataclasses.replace(LIMITS, stop_at_output_limit=False)

    def judged(**fields):
        return decide(Outcome(**{"exit_code": 0, **fields}), runs_on, OK).verdict
    assert judged(output_exceeded=True, cpu_time=1.5, exit_code=None, signal=signal.SIGKILL) == "TLE"
    assert judged(output_exceeded=True, wall_timed_out=True, exit_code=None, signal=signal.SIGKILL) == "TLE"
    assert judged(output_exceeded=True) == "OLE"
    assert judged(output_exceeded=True, exit_code=1) == "OLE"


def test_the_wall_clock_is_the_time_limit_with_domjudges_overshoot():
    """A program still running when its wall time passes the time limit by DOMjudge's default
    overshoot (1 s or 10%, the larger) is too slow; problemtools has no wall clock, BAPCtools'
    is 1.5 x the limit + 1 s."""
    assert Limits.for_cpu(1.0, memory=1, output=1).wall_time == 2.0
    assert Limits.for_cpu(5.0, memory=1, output=1).wall_time == 6.0
    assert Limits.for_cpu(20.0, memory=1, output=1).wall_time == 22.0


def test_only_a_run_the_wall_clock_stopped_while_it_computed_was_slowed_by_the_machine():
    limits = Limits.for_cpu(1.0, memory=1, output=1)  # wall clock 2 s
    assert slowed_by_machine("TLE", 0.8, 2.0, limits)  # computing, short of its CPU time: a busy machine
    assert slowed_by_machine("TLE", 0.3, 2.0, limits)  # a sixth of a busy machine's time: still computing
    assert not slowed_by_machine("TLE", 0.04, 2.0, limits)  # sleeping or waiting for input: too slow
    assert not slowed_by_machine("TLE", 1.1, 1.2, limits)  # over its CPU limit
    assert not slowed_by_machine("WA", 0.8, 1.5, limits)  # ended by itself
