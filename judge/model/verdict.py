"""Deciding a case's verdict: one pure function of the run, the limits and the checker's result."""

from __future__ import annotations

import signal
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from judge.sandbox import Limits, Outcome


@dataclass(frozen=True)
class CheckResult:
    """A checker's answer: accepted or not, and the first difference in words."""

    ok: bool
    message: str = ""


class Verdict(str, Enum):
    """A case's or a submission's verdict. A ``str``: it compares equal to, prints as and is
    stored and sent in JSON as its short name ("AC")."""

    AC = "AC"
    WA = "WA"
    TLE = "TLE"
    MLE = "MLE"
    OLE = "OLE"
    RE = "RE"
    CE = "CE"
    IE = "IE"

    __str__ = str.__str__
    __format__ = str.__format__

    @property
    def meaning(self) -> str:
        return VERDICT_NAMES[self]

    @classmethod
    def from_folder(cls, folder: str) -> Verdict | None:
        """The verdict an example solution's folder promises (``solutions/<id>/wrong_answer/``),
        in this judge's names and in the ICPC package format's; None for any other folder."""
        return FOLDER_VERDICTS.get(folder)


VERDICTS: tuple[Verdict, ...] = tuple(Verdict)
VERDICT_NAMES = {
    "AC": "accepted", "WA": "wrong answer", "TLE": "time limit exceeded",
    "MLE": "memory limit exceeded", "OLE": "output limit exceeded", "RE": "runtime error",
    "CE": "compilation error", "IE": "internal error (the judge's fault, not yours)",
}
FOLDER_VERDICTS = {
    "accepted": Verdict.AC, "wrong_answer": Verdict.WA, "time_limit_exceeded": Verdict.TLE,
    "memory_limit_exceeded": Verdict.MLE, "output_limit_exceeded": Verdict.OLE,
    "runtime_error": Verdict.RE, "run_time_error": Verdict.RE, "compile_error": Verdict.CE,
}
# problemtools' order of verdicts, worst first: a package group's verdict under its default grader.
WORST_FIRST = (Verdict.CE, Verdict.IE, Verdict.RE, Verdict.MLE, Verdict.TLE, Verdict.OLE, Verdict.WA, Verdict.AC)
# Every verdict a submission itself can earn (IE is the judge's).
SUBMISSION_VERDICTS = frozenset(verdict.value for verdict in VERDICTS if verdict != Verdict.IE)
# The ICPC problem package format's verdicts (submissions.yaml), and ours in its names (CE and IE
# have none: no case ran, or the judge failed).
PACKAGE_VERDICTS = ("AC", "WA", "TLE", "RTE")
AS_PACKAGE_VERDICT = {Verdict.AC: "AC", Verdict.WA: "WA", Verdict.TLE: "TLE", Verdict.RE: "RTE", Verdict.MLE: "RTE",
                      Verdict.OLE: "RTE"}
# A problem package's submissions/ folder -> the verdicts a submission in it may get overall (MLE
# and OLE count as run-time errors, as in the package format). DOMjudge's folder names
# (compiler_error, no_output, output_limit) are its result names in lower case.
PACKAGE_FOLDER_VERDICTS = {
    "accepted": {"AC"}, "wrong_answer": {"WA"}, "time_limit_exceeded": {"TLE"},
    "run_time_error": {"RE", "MLE", "OLE"}, "compile_error": {"CE"}, "compiler_error": {"CE"},
    "no_output": {"WA"}, "output_limit": {"OLE"},
    "rejected": {"WA", "TLE", "RE", "MLE", "OLE", "CE"}, "brute_force": {"TLE", "RE", "MLE", "OLE"},
}
# The 2025-09 format's default submissions.yaml: what a submission in each folder must get, in the
# format's verdict names (its cases' verdicts permitted, and at least one of those required).
PACKAGE_FOLDER_RULES = {
    "accepted": {"permitted": ["AC"]},
    "rejected": {"required": ["RTE", "TLE", "WA"]},
    "wrong_answer": {"permitted": ["AC", "WA"], "required": ["WA"]},
    "time_limit_exceeded": {"permitted": ["AC", "TLE"], "required": ["TLE"]},
    "run_time_error": {"permitted": ["AC", "RTE"], "required": ["RTE"]},
    "brute_force": {"permitted": ["AC", "RTE", "TLE"], "required": ["RTE", "TLE"]},
}
# DOMjudge's result names (and their package-format spellings) -> this judge's verdicts. An empty
# output is a wrong answer here: DOMjudge's NO-OUTPUT is WA.
DOMJUDGE_RESULT_VERDICTS = {
    "CORRECT": {"AC"}, "ACCEPTED": {"AC"}, "WRONG-ANSWER": {"WA"}, "NO-OUTPUT": {"WA"},
    "TIMELIMIT": {"TLE"}, "TIME-LIMIT-EXCEEDED": {"TLE"}, "RUN-ERROR": {"RE", "MLE", "OLE"},
    "RUN-TIME-ERROR": {"RE", "MLE", "OLE"}, "COMPILER-ERROR": {"CE"}, "COMPILE-ERROR": {"CE"},
    "OUTPUT-LIMIT": {"OLE"}, "MEMORY-LIMIT": {"MLE"},
}


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    message: str
    # IE because the machine, not the program, ran out of memory: worth running once more.
    machine_short_of_memory: bool = False


# What the signals a crashing program dies of mean, in a student's words.
SIGNAL_MEANINGS = {getattr(signal, name): meaning for name, meaning in {
    "SIGSEGV": "invalid memory access: an index out of bounds, a null pointer or too deep recursion",
    "SIGBUS": "invalid memory access",
    "SIGFPE": "arithmetic error: an integer division by zero",
    "SIGABRT": "aborted: a failed assert or an uncaught exception",
    "SIGILL": "illegal instruction: undefined behaviour the compiler made a trap, such as a division by zero",
}.items() if hasattr(signal, name)}  # (Windows has no SIGBUS)
# The signals of the CPU and file-size limits, or -1 where the system has none (Windows).
SIGXCPU, SIGXFSZ = (getattr(signal, name, -1) for name in ("SIGXCPU", "SIGXFSZ"))


def signal_name(number: int) -> str:
    """``SIGSEGV (invalid memory access: ...)``: the name, and what it means when it is a crash's."""
    try:
        name = signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
    meaning = SIGNAL_MEANINGS.get(number)
    return f"{name} ({meaning})" if meaning else name


def machine_short_of_memory(outcome: Outcome, limits: Limits, available_kb: int | None) -> bool:
    """Whether an allocation that failed below the program's limit failed for want of memory on
    the machine: the program's peak was well below its limit (under half), and the machine had
    less memory available (MemAvailable, as the run ended) than the rest of the program's
    allowance, so it could not have had what its limit promises."""
    if available_kb is None:
        return False
    limit_kb = limits.memory // 1024
    return outcome.memory_kb < limit_kb // 2 and available_kb < limit_kb - outcome.memory_kb


# The share of its wall time a program stopped by the wall clock had on a CPU, at or above which
# it was computing (and a loaded machine slowed it), below which it was waiting (sleep, input): a
# waiting program has its start-up's few hundredths of a second; a computing one on a machine
# shared with many busy programs still gets a sixth of its time or so.
COMPUTING_SHARE = 0.1


def slowed_by_machine(verdict: str, cpu_time: float, wall_time: float, limits: Limits) -> bool:
    """Whether a case the wall clock stopped short of its CPU limit was computing all the while
    (at least COMPUTING_SHARE of its wall time on a CPU): a loaded machine, not the program, made
    it late, and it deserves a run with more wall time (Limits.loaded_wall). A program that waited
    (slept, read input that never came) is too slow, as DOMjudge judges it."""
    return (verdict == Verdict.TLE and cpu_time <= limits.cpu_time and wall_time >= limits.wall_time
            and cpu_time >= COMPUTING_SHARE * wall_time)


def decide(outcome: Outcome, limits: Limits, check: CheckResult | None,
           out_of_memory: bool = False, error_line: str = "", available_memory_kb: int | None = None) -> Decision:
    """The verdict of one run.

    Order matters: a judge fault first; then limits (a program killed for running out of time
    also exits abnormally, and that is not its fault); then crashes; then the answer.
    ``out_of_memory`` is the runtime saying so (MemoryError, bad_alloc, OutOfMemoryError);
    ``error_line`` is the last line the program printed to stderr, for the message;
    ``available_memory_kb`` is the memory the machine had left as the run ended (None: unknown).
    An allocation that failed below the limit is MLE when the machine had memory to spare, and
    IE (``machine_short_of_memory``: the runner runs it once more) when it had not.
    """
    if outcome.internal_error:
        return Decision(Verdict.IE, outcome.internal_error)
    # Output over the limit first: a runtime that swallows the write errors (node, the JVM) runs on
    # and may time out afterwards, but what it did wrong was the output. Where the program was
    # meant to run on past the limit (a package's, as DOMjudge and problemtools judge), its time
    # comes first: one that writes without end is too slow.
    over_output = outcome.output_exceeded or outcome.signal == SIGXFSZ
    out_of_time = _out_of_time(outcome, limits)
    if over_output and (limits.stop_at_output_limit or out_of_time is None):
        return Decision(Verdict.OLE, f"output over the limit of {limits.output // 1024} KiB")
    if out_of_time is not None:
        return out_of_time
    ceiling_kb = (limits.memory + limits.memory_slack) // 1024
    limit_text = f"memory limit {limits.memory // (1024 * 1024)} MiB exceeded"
    if outcome.memory_kb > ceiling_kb or (out_of_memory and outcome.memory_kb > limits.memory // 1024):
        return Decision(Verdict.MLE, f"{limit_text} ({outcome.memory_text()})")
    if out_of_memory and machine_short_of_memory(outcome, limits, available_memory_kb):
        return Decision(Verdict.IE, f"the machine was short of memory: an allocation failed at {outcome.memory_kb // 1024} "
                                    f"MiB, below the memory limit of {limits.memory // (1024 * 1024)} MiB, with only "
                                    f"{available_memory_kb // 1024} MiB available on the machine; not the program's "
                                    f"fault (judge it again when the machine has memory free)",
                        machine_short_of_memory=True)
    if out_of_memory:
        # An allocation beyond the limit is refused before it is made, so the peak may be far
        # below the limit: "peak 7 MiB" would contradict the verdict.
        return Decision(Verdict.MLE, f"{limit_text}: the program asked for more memory than the limit allows"
                                     + (f"; {error_line}" if error_line else ""))
    if outcome.signal is not None:
        return Decision(Verdict.RE, f"killed by {signal_name(outcome.signal)}" + (f": {error_line}" if error_line else ""))
    if outcome.exit_code:
        return Decision(Verdict.RE, f"exit code {outcome.exit_code}" + (f": {error_line}" if error_line else ""))
    if check is None:
        return Decision(Verdict.IE, "no checker result for a finished run")
    return Decision(Verdict.AC if check.ok else Verdict.WA, check.message)


def _out_of_time(outcome: Outcome, limits: Limits) -> Decision | None:
    """TLE when the run passed its CPU or its wall-clock limit, else None."""
    if outcome.cpu_time > limits.cpu_time or outcome.signal == SIGXCPU:
        return Decision(Verdict.TLE, f"CPU time {outcome.cpu_time:.2f} s over the limit {limits.cpu_time:g} s")
    if outcome.wall_timed_out:
        # A program that used little CPU was waiting; one near its CPU limit was computing on a
        # machine too busy to give it the CPU time in the wall-clock time.
        used = (f"used {outcome.cpu_time:.2f} s CPU: sleeping or waiting?"
                if outcome.cpu_time < COMPUTING_SHARE * max(outcome.wall_time, limits.wall_time)
                else f"used {outcome.cpu_time:.2f} s CPU of its {limits.cpu_time:g} s: the machine was busy")
        return Decision(Verdict.TLE, f"still running after {limits.wall_time:g} s of wall time ({used})")
    return None


def overall_verdict(verdicts: list[Verdict]) -> Verdict:
    """AC when every case is AC, else the first case's verdict that is not."""
    return next((Verdict(verdict) for verdict in verdicts if verdict != Verdict.AC), Verdict.AC)


def worst_verdict(verdicts: list[Verdict]) -> Verdict:
    """The worst of ``verdicts`` in problemtools' order (``WORST_FIRST``); one it does not know is worst."""
    return min(verdicts, key=lambda item: WORST_FIRST.index(item) if item in WORST_FIRST else 0)
