"""Deciding a case's verdict: one pure function of the run, the limits and the checker's result."""

from __future__ import annotations

import signal
from dataclasses import dataclass
from typing import Literal

from judge.checkers import CheckResult
from judge.sandbox import Limits, Outcome

Verdict = Literal["AC", "WA", "TLE", "MLE", "OLE", "RE", "CE", "IE"]
VERDICTS: tuple[Verdict, ...] = ("AC", "WA", "TLE", "MLE", "OLE", "RE", "CE", "IE")
VERDICT_NAMES = {
    "AC": "accepted", "WA": "wrong answer", "TLE": "time limit exceeded",
    "MLE": "memory limit exceeded", "OLE": "output limit exceeded", "RE": "runtime error",
    "CE": "compilation error", "IE": "internal error (the judge's fault, not yours)",
}


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    message: str


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def decide(outcome: Outcome, limits: Limits, check: CheckResult | None,
           out_of_memory: bool = False, error_line: str = "") -> Decision:
    """The verdict of one run.

    Order matters: a judge fault first; then limits (a program killed for running out of time
    also exits abnormally, and that is not its fault); then crashes; then the answer.
    ``out_of_memory`` is the runtime saying so (MemoryError, bad_alloc, OutOfMemoryError);
    ``error_line`` is the last line the program printed to stderr, for the message.
    """
    if outcome.internal_error:
        return Decision("IE", outcome.internal_error)
    if outcome.cpu_time > limits.cpu_time or outcome.signal == signal.SIGXCPU:
        return Decision("TLE", f"CPU time {outcome.cpu_time:.2f} s over the limit {limits.cpu_time:g} s")
    if outcome.wall_timed_out:
        return Decision("TLE", f"still running after {limits.wall_time:g} s of wall time "
                               f"(used {outcome.cpu_time:.2f} s CPU: sleeping or waiting?)")
    if outcome.output_exceeded or outcome.signal == signal.SIGXFSZ:
        return Decision("OLE", f"output over the limit of {limits.output // 1024} KiB")
    ceiling_kb = (limits.memory + limits.memory_slack) // 1024
    if out_of_memory or outcome.memory_kb > ceiling_kb:
        return Decision("MLE", f"memory limit {limits.memory // (1024 * 1024)} MiB exceeded"
                               f" (peak {outcome.memory_kb // 1024} MiB)")
    if outcome.signal is not None:
        return Decision("RE", f"killed by {_signal_name(outcome.signal)}" + (f": {error_line}" if error_line else ""))
    if outcome.exit_code:
        return Decision("RE", f"exit code {outcome.exit_code}" + (f": {error_line}" if error_line else ""))
    if check is None:
        return Decision("IE", "no checker result for a finished run")
    return Decision("AC" if check.ok else "WA", check.message)


def overall_verdict(verdicts: list[Verdict]) -> Verdict:
    """AC when every case is AC, else the first case's verdict that is not."""
    return next((verdict for verdict in verdicts if verdict != "AC"), "AC")
