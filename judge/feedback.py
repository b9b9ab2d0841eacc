"""What a student is shown of the cases they may not see, as the teacher decides: a suite's
``feedback:`` policy, and a command's ``--feedback``, which can ask for less, never for more.

Levels, each showing what the one before it does and more (sample cases are always shown whole):
- ``verdict``: each hidden case's verdict only;
- ``hints``: its message too, and the author's hint and description of a failed case;
- ``counterexamples``: and, when a hidden case failed, an input of the judge's own that shows the
  fault (judge/explain.py); the default;
- ``full``: hidden cases shown as samples are (input, expected, got), from the policy's date on
  (before it, ``counterexamples``).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from judge.docs_links import see
from judge.errors import UsageError
from judge.vocabulary import Visibility

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


def withhold(cases, level: str) -> None:
    """Remove from judged hidden cases (CaseResult values, changed in place) what ``level`` does
    not show: below ``hints``, their messages, hints and descriptions."""
    if at_least(level, "hints"):
        return
    for case in cases:
        if case.visibility != Visibility.SAMPLE:
            case.message = case.hint = case.description = ""
