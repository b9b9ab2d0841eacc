"""What judging produces, below everything that judges: a prepared submission (or why it cannot
run), each case's result and the submission's. Task types, the runner, the store and the
renderers all speak these; none of them needs the runner to name them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from judge.model.verdict import Verdict
from judge.model.vocabulary import Visibility

if TYPE_CHECKING:
    from judge.languages import Language
    from judge.languages.program import Program
    from judge.sandbox import Limits


@dataclass
class CaseResult:
    name: str
    group: str
    verdict: Verdict
    # None: not shown, in a report students read (judge/model/feedback.py); judged results carry all.
    cpu_time: float | None = 0.0
    wall_time: float | None = 0.0
    memory_kb: int | None = 0
    exit_code: int | None = None
    signal: int | None = None
    message: str = ""
    visibility: Visibility = Visibility.HIDDEN
    output: str = ""  # what the submission printed (or returned), whole: only when asked for (stress)
    output_excerpt: str = ""  # a sample case's output, its first judge.runner.OUTPUT_EXCERPT_CHARS; "" for hidden cases
    score: float | None = None  # a package's output validator's score.txt, for group scoring
    machine_short_of_memory: bool = False  # IE for want of memory on the machine (see decide): run again
    hint: str = ""  # the case's author's hint and description, kept when the case failed
    description: str = ""


@dataclass
class SubmissionResult:
    problem: str
    submission: str
    language: str
    verdict: Verdict
    score: float
    max_score: float
    cases: list[CaseResult] = field(default_factory=list)
    compile_message: str = ""
    partial: bool = False  # only some of the problem's cases were run: the score means little
    explanation: Any = None  # judge/authoring/explain.py's Explanation, when `judge run` searched for a counterexample
    feedback: str = "counterexamples"  # the level of judge/model/feedback.py its hidden cases are shown at

    @property
    def passed(self) -> int:
        return sum(case.verdict == Verdict.AC for case in self.cases)

    @property
    def total(self) -> int:
        return len(self.cases)


@dataclass(frozen=True)
class Prepared:
    """A submission ready to run: its language, the built program, and the limits it runs under."""

    language: Language
    program: Program
    limits: Limits


@dataclass(frozen=True)
class PrepareFailure:
    """A submission that cannot run: CE (it does not compile) or IE (a toolchain is missing)."""

    verdict: Verdict
    message: str
    language: str

    @property
    def headline(self) -> str:
        """The line of the message that says what is wrong."""
        return key_line(self.message)


def key_line(message: str) -> str:
    """The line of a compiler's message that says what is wrong (the first 'error' line)."""
    lines = [line.strip() for line in message.splitlines() if line.strip()]
    return next((line for line in lines if "error" in line.lower()), lines[0] if lines else "")[:200]


NOT_CHECKED = "not checked"  # a part of the problem the judge could not check (a validator it cannot run)
NOT_JUDGED = "not judged"  # an example submission the judge could not judge (no toolchain for its language)


@dataclass(frozen=True)
class Check:
    """One of `judge test`'s checks of a problem, passed or failed, with what it found; or a check
    that could not be made (``not_made``: NOT_CHECKED or NOT_JUDGED, the detail saying why), which
    neither passed nor failed: ``ok`` (no failure) holds, ``passed`` does not."""

    problem: str
    what: str
    ok: bool
    detail: str = ""
    not_made: str = ""

    @property
    def passed(self) -> bool:
        return self.ok and not self.not_made

    @classmethod
    def unmade(cls, problem: str, what: str, word: str, reason: str) -> Check:
        """A check not made, and why (a summary quotes ``reason`` up to its first ``;``, less a
        parenthesis that ends it)."""
        return cls(problem, what, True, reason, not_made=word)
