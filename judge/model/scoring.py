"""Scores from verdicts, through one protocol: a group's results (each case's or sub-group's verdict
and score, in order) reduce to the group's own (verdict, score) by a score type (declared as
``judge.extension_points.ScoreType``; CMS's group score types are the model). A problem's score is
its groups reduced, up to the whole.

The score types here are the shared ones: ``Aggregate`` (a verdict rule and a score rule: sum,
avg, min or max), ``PassFail`` (all-or-nothing points), and the wrappers ``LastOnly``,
``UntilRejected``, ``Requiring`` and ``ErrorsUngraded`` that change what another one sees or
earns. A suite's problem scores with them here (points per case, or per group where a group
scores only if all its cases pass); a problem package's rules choose among them from its test
data's settings (judge/formats/icpc/scoring.py). ``rank`` orders totals for the scoreboards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from judge.model.problem import Problem
from judge.model.verdict import Verdict, worst_verdict

if TYPE_CHECKING:
    from judge.extension_points import ScoreType


class Scored(NamedTuple):
    """One result a group reduces, or the group's own: a verdict (None: the case was not run,
    which is not accepted) and the score earned."""

    verdict: str | None
    score: float

    @property
    def accepted(self) -> bool:
        return self.verdict == Verdict.AC


def first_error(verdicts: Sequence[str | None]) -> str | None:
    """AC when every result is accepted, else the first one's verdict that is not."""
    return next((verdict for verdict in verdicts if verdict != Verdict.AC), Verdict.AC)


# How a group's verdict comes from its results' (worst in problemtools' order, first in order, or AC).
VERDICT_RULES: dict[str, Callable[[Sequence[str | None]], str | None]] = {
    "worst_error": worst_verdict, "first_error": first_error, "always_accept": lambda verdicts: Verdict.AC}
# How a group's score comes from its results' scores (never given none: see Aggregate).
SCORE_RULES: dict[str, Callable[[Sequence[float]], float]] = {
    "sum": sum, "avg": lambda scores: sum(scores) / len(scores), "min": min, "max": max}


@dataclass(frozen=True)
class Aggregate:
    """The verdict by one rule of ``VERDICT_RULES`` (AC instead when ``accept_if_any_accepted`` and
    one result is accepted) and the score by one of ``SCORE_RULES``. An empty group is accepted
    and scores 0."""

    score_rule: str = "sum"
    verdict_rule: str = "first_error"
    accept_if_any_accepted: bool = False

    @property
    def name(self) -> str:
        return self.score_rule

    def reduce(self, results: Iterable[Scored]) -> Scored:
        results = list(results)
        if not results:
            return Scored(Verdict.AC, 0.0)
        verdicts = [result.verdict for result in results]
        if self.accept_if_any_accepted and Verdict.AC in verdicts:
            verdict = Verdict.AC
        else:
            verdict = VERDICT_RULES[self.verdict_rule](verdicts)
        return Scored(verdict, float(SCORE_RULES[self.score_rule]([result.score for result in results])))


@dataclass(frozen=True)
class PassFail:
    """``points`` when every result is accepted (an empty group's are), else 0; the verdict is the
    first that is not AC."""

    points: float
    name = "pass-fail"

    def reduce(self, results: Iterable[Scored]) -> Scored:
        results = list(results)
        verdict = first_error([result.verdict for result in results])
        return Scored(verdict, self.points if verdict == Verdict.AC else 0.0)


@dataclass(frozen=True)
class LastOnly:
    """``inner`` over the last result alone (problemtools' ``ignore_sample``: the sample group comes
    first and counts for nothing)."""

    inner: ScoreType

    @property
    def name(self) -> str:
        return f"last only, {self.inner.name}"

    def reduce(self, results: Iterable[Scored]) -> Scored:
        return self.inner.reduce(list(results)[-1:])


@dataclass(frozen=True)
class UntilRejected:
    """``inner`` over the results up to the first rejected one, that one included (a package's
    ``on_reject: break``). Results come lazily: those after it are never worked out."""

    inner: ScoreType

    @property
    def name(self) -> str:
        return f"until rejected, {self.inner.name}"

    def reduce(self, results: Iterable[Scored]) -> Scored:
        kept = []
        for result in results:
            kept.append(result)
            if not result.accepted:
                break
        return self.inner.reduce(kept)


@dataclass(frozen=True)
class Requiring:
    """``inner``'s verdict, and its score only when every one of ``prerequisites`` (results outside
    the group, such as the cases of the groups a package's ``require_pass`` names) is accepted;
    else 0."""

    inner: ScoreType
    prerequisites: tuple[Scored, ...]

    @property
    def name(self) -> str:
        return f"requiring, {self.inner.name}"

    def reduce(self, results: Iterable[Scored]) -> Scored:
        verdict, score = self.inner.reduce(results)
        return Scored(verdict, score if all(result.accepted for result in self.prerequisites) else 0.0)


# Verdicts that are no grade of the submission's output: a group with one is not graded, it gets that.
UNGRADED = (Verdict.IE, Verdict.CE)


@dataclass(frozen=True)
class ErrorsUngraded:
    """A group with a judging or compile error among its results gets the first such verdict and
    0, as problemtools gives it; ``inner`` grades the others."""

    inner: ScoreType

    @property
    def name(self) -> str:
        return self.inner.name

    def reduce(self, results: Iterable[Scored]) -> Scored:
        results = list(results)
        ungraded = next((result.verdict for result in results if result.verdict in UNGRADED), None)
        return Scored(ungraded, 0.0) if ungraded is not None else self.inner.reduce(results)


# ---------------------------------------------------------------------------------------------
# A suite's problem

def score(problem: Problem, verdicts: dict[str, str]) -> float:
    """Points earned, out of ``problem.total_points``; ``verdicts`` maps case names to verdicts.

    Cases missing from ``verdicts`` (not run) earn nothing.
    """
    if problem.scoring == "groups":
        return round(_group_score(problem, verdicts), 2)
    weight = sum(case.points for case in problem.cases)
    earned = Aggregate("sum").reduce(_points_if_accepted(verdicts.get(case.name), case.points)
                                     for case in problem.cases).score
    return round(problem.total_points * earned / weight, 2) if weight else 0.0


def _points_if_accepted(verdict: str | None, points: float) -> Scored:
    return Scored(verdict, points if verdict == Verdict.AC else 0.0)


def _group_score(problem: Problem, verdicts: dict[str, str]) -> float:
    """Each group's points when all its cases pass (a group without cases earns nothing), summed and
    scaled to the problem's total."""
    total = sum(problem.group_points.values())
    groups = []
    for group, points in problem.group_points.items():
        members = [Scored(verdicts.get(case.name), 0.0) for case in problem.cases if case.group == group]
        groups.append(PassFail(points).reduce(members) if members else Scored(None, 0.0))
    earned = Aggregate("sum").reduce(groups).score
    return problem.total_points * earned / total if total else 0.0


def rank(keys: list, descending: bool = True) -> list[int]:
    """Competition ranks ("1, 2, 2, 4") of ``keys`` (totals, or tuples such as (-solved, penalty)):
    equal keys share a rank; the largest key ranks first, or the smallest if not ``descending``."""
    first: dict = {}
    for place, key in enumerate(sorted(keys, reverse=descending), 1):
        first.setdefault(key, place)
    return [first[key] for key in keys]
