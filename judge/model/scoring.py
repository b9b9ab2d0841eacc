"""Scores from verdicts: points per case, or per group (a group scores only if all its cases pass)."""

from __future__ import annotations

from judge.model.problem import Problem
from judge.model.verdict import Verdict


def score(problem: Problem, verdicts: dict[str, str]) -> float:
    """Points earned, out of ``problem.total_points``; ``verdicts`` maps case names to verdicts.

    Cases missing from ``verdicts`` (not run) earn nothing.
    """
    if problem.scoring == "groups":
        return round(_group_score(problem, verdicts), 2)
    weight = sum(case.points for case in problem.cases)
    earned = sum(case.points for case in problem.cases if verdicts.get(case.name) == Verdict.AC)
    return round(problem.total_points * earned / weight, 2) if weight else 0.0


def _group_score(problem: Problem, verdicts: dict[str, str]) -> float:
    total = sum(problem.group_points.values())
    earned = 0.0
    for group, points in problem.group_points.items():
        members = [case for case in problem.cases if case.group == group]
        if members and all(verdicts.get(case.name) == Verdict.AC for case in members):
            earned += points
    return problem.total_points * earned / total if total else 0.0


def rank(keys: list, descending: bool = True) -> list[int]:
    """Competition ranks ("1, 2, 2, 4") of ``keys`` (totals, or tuples such as (-solved, penalty)):
    equal keys share a rank; the largest key ranks first, or the smallest if not ``descending``."""
    first: dict = {}
    for place, key in enumerate(sorted(keys, reverse=descending), 1):
        first.setdefault(key, place)
    return [first[key] for key in keys]
