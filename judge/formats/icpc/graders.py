"""Custom graders (legacy package format, "Graders"): the package's one program in ``graders/``,
which gives a test data group with ``grading: custom`` its verdict and score from its
sub-results (its cases' and subgroups', in order, as far as judging went).

The grader is built as the package's validators are, and runs in the sandbox with their limits:

    grader [grader_flags] < results

one line ``VERDICT SCORE`` per sub-result in, one line ``VERDICT SCORE`` out, exit 0. The verdicts
are the format's (AC, WA, TLE, RTE; JE for a judging error), as problemtools' judge/grade.py
writes and reads them. A grader that does not build, fails, or answers otherwise (JE included) is
the package's fault: a PackageError naming the group and what the grader was given.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

from judge.formats.icpc.package import Package, PackageError
from judge.formats.icpc.programs import package_program, run_package_program
from judge.languages import CompileError, LanguageUnavailable, Program, UnknownLanguage
from judge.model.verdict import AS_PACKAGE_VERDICT, Verdict, signal_name

JUDGE_ERROR = "JE"
# problemtools' pattern of a grader's whole output.
ANSWER = re.compile(r"(AC|WA|TLE|RTE|MLE|OLE|JE)\s+(-?[0-9.]+)\s*")
FROM_GRADER = {"AC": Verdict.AC, "WA": Verdict.WA, "TLE": Verdict.TLE, "RTE": Verdict.RE, "MLE": Verdict.MLE,
               "OLE": Verdict.OLE}
SHOWN_INPUT_LINES = 8  # of the grader's input, in a message about its failure


class CustomGrader:
    """The package's custom grader, built once (thread-safe); its answers are kept, as a
    submission's groups are graded again whenever its result is summed up."""

    def __init__(self, package: Package) -> None:
        assert package.grader is not None
        self.package = package
        self.path: Path = package.grader
        self._program: Program | None = None
        self._answers: dict[tuple[tuple[str, ...], str], tuple[Verdict, float]] = {}
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return str(self.path.relative_to(self.package.root))

    def program(self) -> Program:
        """The built grader; PackageError (naming it) when it does not build."""
        with self._lock:
            if self._program is None:
                try:
                    self._program = package_program(self.package, self.path)
                except (CompileError, UnknownLanguage, LanguageUnavailable) as error:
                    raise PackageError(f"{self.path}: the custom grader does not build: {error}") from None
        return self._program

    def grade(self, group: str, results: list[tuple[str, float]], flags: list[str]) -> tuple[Verdict, float]:
        """The verdict and score the grader gives ``group`` (its name under data/) from its
        sub-results ((verdict, score) each, in order) and its ``grader_flags``."""
        text = "".join(f"{grader_verdict(verdict)} {score_text(score)}\n" for verdict, score in results)
        key = (tuple(flags), text)
        if key not in self._answers:
            self._answers[key] = self._run(group, text, flags)
        return self._answers[key]

    def _run(self, group: str, text: str, flags: list[str]) -> tuple[Verdict, float]:
        outcome = run_package_program(self.package, self.program(), text.encode(), flags)
        output = outcome.stdout.decode("utf-8", errors="replace")
        failure = _failure(outcome)
        answer = ANSWER.fullmatch(output) if not failure else None
        if answer is None or answer.group(1) == JUDGE_ERROR:
            failure = failure or (f"answered {output.strip()[:80]!r}, not 'VERDICT SCORE' (AC, WA, TLE or RTE and a "
                                  f"number)" if answer is None else f"answered {JUDGE_ERROR} (a judging error)")
            raise PackageError(f"{self.path}: the custom grader {failure} on group {group or 'data'}"
                               f"{_given(text, flags)}")
        try:
            score = float(answer.group(2))
        except ValueError:
            raise PackageError(f"{self.path}: the custom grader's score {answer.group(2)!r} is not a number "
                               f"(on group {group or 'data'}{_given(text, flags)})") from None
        return FROM_GRADER[answer.group(1)], score


def grader_verdict(verdict: str) -> str:
    """A sub-result's verdict as a grader reads it: the format's code (MLE and OLE are run-time
    errors there; IE and CE, which no grader is given, would be judging errors)."""
    return AS_PACKAGE_VERDICT.get(Verdict(verdict), JUDGE_ERROR)


def score_text(score: float) -> str:
    """A score as a grader reads it: a whole number without decimals (as an ``accept_score`` of
    10 is written), else as Python writes a float."""
    return str(int(score)) if score.is_integer() and abs(score) < 1e15 else repr(score)


def _failure(outcome) -> str:
    """How the grader failed to answer at all ("" when it exited 0)."""
    if outcome.internal_error:
        return f"could not run ({outcome.internal_error})"
    if outcome.wall_timed_out:
        return "ran out of time"
    if outcome.signal is not None:
        return f"was killed by {signal_name(outcome.signal)}"
    if outcome.exit_code != 0:
        stderr = outcome.stderr.decode("utf-8", errors="replace").strip().splitlines()
        return f"exited {outcome.exit_code}, not 0" + (f" ({stderr[-1][:200]})" if stderr else "")
    return ""


def _given(text: str, flags: list[str]) -> str:
    """What the grader was given, for a message about its failure."""
    lines = text.splitlines()
    shown = " / ".join(lines[:SHOWN_INPUT_LINES])
    if len(lines) > SHOWN_INPUT_LINES:
        shown += f" / ... ({len(lines)} lines)"
    return f", given flags {' '.join(flags) or '(none)'} and the results {shown}"
