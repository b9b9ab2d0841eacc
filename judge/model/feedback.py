"""What a student is shown of the cases they may not see, as the teacher decides: a suite's
``feedback:`` policy, and a command's ``--feedback``, which can ask for less, never for more.

Levels, each showing what the one before it does and more (sample cases are always shown whole):
- ``verdict``: each hidden case's verdict, and the limit it went over (its limit, not a measure);
- ``hints``: the author's hint and description of a failed case too;
- ``counterexamples``: and, when a hidden case failed, an input of the judge's own that shows the
  fault (judge/authoring/explain.py); the default;
- ``full``: hidden cases shown as samples are (input, expected, got, every measure, their
  names), from the policy's date on (before it, ``counterexamples``).

Below ``full`` a report carries of a hidden case nothing its program can steer (``HIDDEN_CASE_FIELDS``):
a program that reads its input can encode it in its CPU time, wall time, peak memory, exit code,
signal, output (which checker messages quote) or exception, and a case's name may be its input.
``StudentView`` applies this to results, once, for every format students read.
"""

from __future__ import annotations

import dataclasses
import datetime
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from judge.errors import UsageError
from judge.model.results import CaseResult, SubmissionResult
from judge.model.verdict import Verdict
from judge.model.vocabulary import Visibility
from judge.text.docs_links import see

if TYPE_CHECKING:
    from judge.model.problem import Problem

LEVELS = ("verdict", "hints", "counterexamples", "full")
DEFAULT_LEVEL = "counterexamples"
POLICY_KEYS = ("level", "full_after")


@dataclass(frozen=True)
class FeedbackPolicy:
    level: str = DEFAULT_LEVEL
    full_after: datetime.date | None = None  # with level "full": hidden cases are shown from this day on

    def level_on(self, day: datetime.date) -> str:
        """The level in force on ``day``."""
        if self.level == "full" and self.full_after is not None and day < self.full_after:
            return DEFAULT_LEVEL
        return self.level


def parse_policy(spec, fail) -> FeedbackPolicy:
    """A suite's ``feedback:`` field: a level's name, or {level: full, full_after: YYYY-MM-DD};
    ``fail(message)`` makes the error naming the suite."""
    def fail_here(message: str):
        return fail(f"{message} {see('how-to/feedback-and-hints.md')}")

    if isinstance(spec, str):
        spec = {"level": spec}
    if not isinstance(spec, dict):
        raise fail_here(f"field 'feedback' must be one of {', '.join(LEVELS)}, or a mapping of {', '.join(POLICY_KEYS)}")
    unknown = sorted(set(map(str, spec)) - set(POLICY_KEYS))
    if unknown:
        raise fail_here(f"feedback: unknown field {unknown[0]!r}; known fields: {', '.join(POLICY_KEYS)}")
    level = spec.get("level", DEFAULT_LEVEL)
    if level not in LEVELS:
        raise fail_here(f"feedback: level must be one of {', '.join(LEVELS)}, got {level!r}")
    after = spec.get("full_after")
    if after is not None:
        if level != "full":
            raise fail_here("feedback: full_after is the day hidden cases are shown from; it needs level: full")
        after = _date(after, fail_here)
    return FeedbackPolicy(level, after)


def _date(value, fail) -> datetime.date:
    if isinstance(value, datetime.datetime):
        return value.date()
    if isinstance(value, datetime.date):  # YAML reads an unquoted 2026-12-20 as a date
        return value
    try:
        return datetime.date.fromisoformat(str(value))
    except ValueError:
        raise fail(f"feedback: full_after must be a date written YYYY-MM-DD, got {value!r}") from None


def level_for(policy: FeedbackPolicy, asked: str | None, day: datetime.date | None = None) -> str:
    """The level to apply: the policy's on ``day`` (default today), or the lower one ``asked``
    for; UsageError for asking more than the policy allows."""
    allowed = policy.level_on(day or datetime.date.today())
    if asked is None:
        return allowed
    if LEVELS.index(asked) > LEVELS.index(allowed):
        raise UsageError(f"this problem's feedback is {allowed!r}; --feedback can ask for less ("
                         f"{', '.join(LEVELS[:LEVELS.index(allowed) + 1])}), not for more")
    return asked


def at_least(level: str, wanted: str) -> bool:
    """Whether ``level`` shows what ``wanted`` does."""
    return LEVELS.index(level) >= LEVELS.index(wanted)


# What a report students read carries of a hidden case, by level: the CaseResult fields it keeps.
# The others (STEERABLE; every field is one or the other) are the program's to steer with its
# input, replaced by what the judge knows without the run (``StudentView.case``): the name by
# "hidden N" (unless the suite marks it safe to show), the message by the limit the verdict names,
# every measure by None (not shown).
STEERABLE = ("name", "cpu_time", "wall_time", "memory_kb", "exit_code", "signal", "message", "output",
             "output_excerpt", "score")
_ALWAYS = frozenset({"verdict", "group", "visibility", "machine_short_of_memory"})
_AUTHORS = frozenset({"hint", "description"})  # the problem's author's words, shown when the case failed
HIDDEN_CASE_FIELDS = {
    "verdict": _ALWAYS,
    "hints": _ALWAYS | _AUTHORS,
    "counterexamples": _ALWAYS | _AUTHORS,
    "full": frozenset(field.name for field in dataclasses.fields(CaseResult)),
}
HIDDEN_NAME = "hidden {number}"  # a hidden case's name where students read it


class StudentView:
    """Results as a student shown ``level`` of ``problem``'s hidden cases sees them (sample cases
    are shown whole). ``problem`` None: a problem no longer loaded, whose hidden cases are
    numbered in the order of the results."""

    def __init__(self, problem: Problem | None, level: str) -> None:
        self.level = level
        self.fields = HIDDEN_CASE_FIELDS[level]
        self.names = shown_names(problem) if problem is not None else None
        self.problem = problem

    def case(self, case: CaseResult, number: int | None = None) -> CaseResult:
        """``case`` as shown: a copy, whole for a sample case; ``number``: its place among the
        hidden cases when the problem does not say."""
        if case.visibility == Visibility.SAMPLE or self.level == "full":
            return case
        kept = {name: getattr(case, name) for name in self.fields}
        return CaseResult(name=self._name(case.name, number), message=self._limit_text(case.verdict, case.message),
                          cpu_time=None, wall_time=None, memory_kb=None, **kept)

    def result(self, result: SubmissionResult) -> SubmissionResult:
        """``result`` as shown (a copy; the result itself, recorded for the teacher, keeps all)."""
        hidden = 0
        shown = []
        for case in result.cases:
            hidden += case.visibility != Visibility.SAMPLE
            shown.append(self.case(case, hidden))
        return dataclasses.replace(result, cases=shown, feedback=self.level)

    def shown_name(self, name: str) -> str:
        """The name a case of the problem is shown under."""
        if self.level == "full" or self.names is None:
            return name
        return self.names.get(name, name)

    def _name(self, name: str, number: int | None) -> str:
        if self.names is not None and name in self.names:
            return self.names[name]
        return HIDDEN_NAME.format(number=number if number is not None else "?")

    def _limit_text(self, verdict: str, message: str) -> str:
        """What the judge says of a verdict without the run: the limit it names, if any (a
        compiler's message is the submission's, the same on every case)."""
        problem = self.problem
        if verdict == Verdict.CE:
            return message
        if verdict == Verdict.TLE:
            return f"over the {problem.time_limit:g} s time limit" if problem else "over the time limit"
        if verdict == Verdict.MLE:
            return f"over the {problem.memory_limit >> 20} MiB memory limit" if problem else "over the memory limit"
        if verdict == Verdict.OLE:
            return f"over the {_size(problem.output_limit)} output limit" if problem else "over the output limit"
        return ""


def _size(size: int) -> str:
    return f"{size >> 20} MiB" if size >= 1 << 20 and size % (1 << 20) == 0 else f"{size >> 10} KiB"


def shown_names(problem: Problem) -> dict[str, str]:
    """Each case's name where students read it below ``full``: a sample's own, a hidden case's
    number among the hidden cases ("hidden 7"), or its own name where the suite marks it safe
    to show (``show_name: true``)."""
    names, number = {}, 0
    for case in problem.cases:
        if case.visibility == Visibility.SAMPLE:
            names[case.name] = case.name
            continue
        number += 1
        names[case.name] = case.name if case.show_name else HIDDEN_NAME.format(number=number)
    return names


_WORD = re.compile(r"[^\W_]+")


def name_holds_input(name: str, text: str) -> bool:
    """Whether a case's ``name`` gives away its input ``text``: a number of the input of 2 digits
    or more is in the name ("n-100", "case100" for 100), a word of 2 characters or more is a word
    of the name, or every word and number of the input is ("n-1" for 1)."""
    name_words = {word.casefold() for word in _WORD.findall(name)}
    input_words = {word.casefold() for word in _WORD.findall(text)}
    if not input_words:
        return False
    long_words = {word for word in input_words if len(word) >= 2}
    return (any(word in name.casefold() for word in long_words if word.isdigit())
            or bool(long_words & name_words) or input_words <= name_words)
