"""Scoreboards from the recorded history: IOI (best score per problem) and ICPC (problems
solved, then penalty: minutes to the first AC plus 20 per earlier rejected attempt)."""

from __future__ import annotations

from dataclasses import dataclass, field

from judge.scoring import rank

PENALTY_MINUTES = 20


@dataclass
class Standing:
    student: str
    rank: int = 0
    total: float = 0.0  # IOI: points; ICPC: problems solved
    penalty: int = 0  # ICPC only, minutes
    cells: dict[str, str] = field(default_factory=dict)


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
    start = min(row["submitted_at"] for row in history)
    attempts: dict[tuple[str, str], list[dict]] = {}
    for row in history:
        attempts.setdefault((row["student"], row["problem"]), []).append(row)
    problems = sorted({problem for _, problem in attempts})
    standings = {}
    for (student, problem), rows in attempts.items():
        standing = standings.setdefault(student, Standing(student))
        rejected = 0
        for row in rows:
            if row["verdict"] == "AC":
                minutes = int((row["submitted_at"] - start) // 60)
                standing.total += 1
                standing.penalty += minutes + PENALTY_MINUTES * rejected
                standing.cells[problem] = f"+{rejected or ''} ({minutes}')"
                break
            rejected += 1
        else:
            standing.cells[problem] = f"-{rejected}"
    return problems, _ranked(list(standings.values()), key=lambda s: (-s.total, s.penalty))


def _ranked(standings: list[Standing], key) -> list[Standing]:
    standings.sort(key=lambda s: (key(s), s.student))
    for standing, place in zip(standings, rank([key(s) for s in standings], descending=False)):
        standing.rank = place
    return standings
