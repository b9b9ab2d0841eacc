"""Scoreboards from the recorded history: IOI (best score per problem) and ICPC (problems
solved, then penalty: minutes to the first AC plus 20 per earlier rejected attempt).

A scoreboard can be frozen, as contest judges do for the last part of a contest: submissions
made after the freeze do not change the standings; they are counted as pending instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from judge.model.scoring import rank
from judge.model.verdict import Verdict

PENALTY_MINUTES = 20
MODES = ("ioi", "icpc")


@dataclass
class Standing:
    student: str
    rank: int = 0
    total: float = 0.0  # IOI: points; ICPC: problems solved
    penalty: int = 0  # ICPC only, minutes
    cells: dict[str, str] = field(default_factory=dict)
    pending: dict[str, int] = field(default_factory=dict)  # submissions after the freeze, per problem


@dataclass
class Scoreboard:
    mode: str
    problems: list[str]
    standings: list[Standing]
    frozen_at: float | None = None  # the freeze's time (seconds since the epoch), when frozen


def ioi_standings(history: list[dict]) -> tuple[list[str], list[Standing]]:
    """Best score per student and problem, summed."""
    best: dict[tuple[str, str], float] = {}
    for row in history:
        key = (row["student"], row["problem"])
        best[key] = max(best.get(key, 0.0), row["score"] or 0.0)
    problems = sorted({problem for _, problem in best})
    standings = {}
    for (student, problem), score in best.items():
        standing = standings.setdefault(student, Standing(student))
        standing.total = round(standing.total + score, 2)
        standing.cells[problem] = f"{score:g}"
    return problems, _ranked(list(standings.values()), key=lambda s: (-s.total,))


def icpc_standings(history: list[dict]) -> tuple[list[str], list[Standing]]:
    """Solved problems and penalty minutes, from the start of the first recorded submission."""
    if not history:
        return [], []
    start = contest_start(history)
    attempts: dict[tuple[str, str], list[dict]] = {}
    for row in history:
        attempts.setdefault((row["student"], row["problem"]), []).append(row)
    problems = sorted({problem for _, problem in attempts})
    standings = {}
    for (student, problem), rows in attempts.items():
        standing = standings.setdefault(student, Standing(student))
        rejected = 0
        for row in rows:
            if row["verdict"] == Verdict.AC:
                minutes = int((row["submitted_at"] - start) // 60)
                standing.total += 1
                standing.penalty += minutes + PENALTY_MINUTES * rejected
                standing.cells[problem] = f"+{rejected or ''} ({minutes}')"
                break
            rejected += 1
        else:
            standing.cells[problem] = f"-{rejected}"
    return problems, _ranked(list(standings.values()), key=lambda s: (-s.total, s.penalty))


STANDINGS: dict[str, Callable[[list[dict]], tuple[list[str], list[Standing]]]] = {
    "ioi": ioi_standings, "icpc": icpc_standings}


def contest_start(history: list[dict]) -> float:
    """When the contest started: the first recorded submission."""
    return min(row["submitted_at"] for row in history)


def scoreboard(history: list[dict], mode: str, freeze_at_minutes: float | None = None) -> Scoreboard:
    """The standings of ``history`` in ``mode``; with ``freeze_at_minutes``, as they were that
    many minutes after the contest's start, later submissions counted as pending."""
    if freeze_at_minutes is None or not history:
        return Scoreboard(mode, *STANDINGS[mode](history))
    frozen_at = contest_start(history) + freeze_at_minutes * 60
    before = [row for row in history if row["submitted_at"] <= frozen_at]
    after = [row for row in history if row["submitted_at"] > frozen_at]
    problems, standings = STANDINGS[mode](before)
    by_student = {standing.student: standing for standing in standings}
    for row in after:
        standing = by_student.get(row["student"])
        if standing is None:  # first seen after the freeze: listed, with nothing counted yet
            standing = by_student[row["student"]] = Standing(row["student"])
        standing.pending[row["problem"]] = standing.pending.get(row["problem"], 0) + 1
    problems = sorted(set(problems) | {row["problem"] for row in after})
    key = (lambda s: (-s.total, s.penalty)) if mode == "icpc" else (lambda s: (-s.total,))
    return Scoreboard(mode, problems, _ranked(list(by_student.values()), key), frozen_at)


def _ranked(standings: list[Standing], key) -> list[Standing]:
    """Sorted by ``key`` (then name), with competition ranks: equal keys share a rank."""
    standings.sort(key=lambda s: (key(s), s.student))
    for standing, place in zip(standings, rank([key(s) for s in standings], descending=False)):
        standing.rank = place
    return standings
