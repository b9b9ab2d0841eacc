"""Scoreboards from the recorded history: IOI (best score per problem) and ICPC (problems
solved, then penalty: minutes to the first AC plus 20 per earlier rejected attempt; a compile
error is no attempt).

Each student's result on a problem is a ``Cell`` in one of the states contestants know from
DOMjudge's and Kattis' boards: solved, solved first (the first to solve that problem), tried and
failed, or pending (a submission not judged yet: a history row whose verdict is None).

A scoreboard can be frozen, as contest judges do for the last part of a contest: submissions
made after the freeze do not change the standings; their cells show as pending instead.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from judge.model.scoring import rank
from judge.model.verdict import Verdict

PENALTY_MINUTES = 20
MODES = ("ioi", "icpc")

SOLVED, FIRST, FAILED, PENDING, UNTRIED = "solved", "first", "failed", "pending", "untried"
FIRST_MARK = "*"  # after a first solve's text: the state read without its colour
UNKNOWN_MARK = "?"  # after a pending cell's count of submissions whose results are not shown


@dataclass
class Cell:
    """One student's result on one problem, as the board shows it."""

    icpc: bool
    tries: int = 0  # judged submissions counted (ICPC: up to and with the first accepted one)
    minutes: int | None = None  # ICPC, once solved: minutes from the contest's start
    score: float | None = None  # IOI: the best judged score
    max_score: float | None = None  # IOI: the points the problem is worth
    solved_at: float | None = None  # when solved (the first AC; IOI: the first full score)
    judging: int = 0  # submissions recorded but not judged yet
    frozen: int = 0  # submissions made after the freeze, whose results the board does not show
    first: bool = False  # the first to solve the problem

    @property
    def unknown(self) -> int:
        """Submissions whose result the board does not count (yet)."""
        return self.judging + self.frozen

    @property
    def state(self) -> str:
        if self.solved_at is not None:
            return FIRST if self.first else SOLVED
        if self.unknown:
            return PENDING
        return FAILED if self.tries else UNTRIED

    def text(self) -> str:
        """What the cell says: ICPC "tries / minute" ("3 / 47", "3 / -" unsolved), IOI the
        points; first solves end with *, pending cells are "known + unknown ?"."""
        state = self.state
        if state == UNTRIED:
            return ""
        known = str(self.tries) if self.icpc else f"{self.score or 0:g}"
        if state == PENDING:
            return f"{known} + {self.unknown} {UNKNOWN_MARK}"
        if self.icpc:
            known += f" / {self.minutes}" if self.minutes is not None else " / -"
        return f"{known} {FIRST_MARK}" if state == FIRST else known

    def label(self) -> str:
        """The cell in words, for a screen reader and a tooltip: its state is never only its colour."""
        state = self.state
        tries = _count(self.tries, "try", "tries")
        if state == UNTRIED:
            return "not tried"
        if state == PENDING:
            return self._pending_label()
        solved = "solved first (the first to solve it)" if state == FIRST else "solved"
        if self.icpc:
            return f"{solved} at minute {self.minutes}, in {tries}" if self.solved_at is not None \
                else f"not solved: {tries} rejected"
        points = f"{self.score:g} of {self.max_score or 0:g} points"
        return f"{solved}: {points}, in {tries}" if self.solved_at is not None else f"not solved: {points} in {tries}"

    def _pending_label(self) -> str:
        waiting = [_count(self.judging, "submission", "submissions") + " not judged yet"] if self.judging else []
        waiting += [_count(self.frozen, "submission", "submissions") + " after the freeze"] if self.frozen else []
        if not self.icpc:
            known = f", {self.score or 0:g} points so far"
        else:
            known = f", after {_count(self.tries, 'rejected try', 'rejected tries')}" if self.tries else ""
        return f"pending: {' and '.join(waiting)}{known}"


def legend(mode: str) -> list[tuple[str, str, str]]:
    """The legend of a board in ``mode``: (state, an example cell's text, what it means), per state."""
    icpc = mode == "icpc"
    known = "judged tries" if icpc else "the score so far"
    examples = [
        (Cell(icpc, tries=3, minutes=47, score=100, max_score=100, solved_at=0, first=True),
         "solved first: the first to solve the problem"),
        (Cell(icpc, tries=3, minutes=47, score=100, max_score=100, solved_at=0),
         "solved, in 3 tries, at minute 47 of the contest" if icpc else "solved: the full score"),
        (Cell(icpc, tries=3, score=40, max_score=100), "tried 3 times, not solved" if icpc
         else "tried, not solved: the best score so far"),
        (Cell(icpc, tries=1, score=40, max_score=100, judging=2),
         f"pending: {known} + submissions not judged yet or made after the freeze"),
    ]
    return [(cell.state, cell.text(), meaning) for cell, meaning in examples]


@dataclass
class Standing:
    student: str
    rank: int = 0
    total: float = 0.0  # IOI: points; ICPC: problems solved
    penalty: int = 0  # ICPC only, minutes
    cells: dict[str, Cell] = field(default_factory=dict)


@dataclass
class Scoreboard:
    mode: str
    problems: list[str]
    standings: list[Standing]
    frozen_at: float | None = None  # the freeze's time (seconds since the epoch), when frozen
    freeze_at_minutes: float | None = None  # the freeze, in minutes after the contest's start
    points: dict[str, float] | None = None  # an assignment's points per problem, when it has one

    def cell(self, standing: Standing, problem: str) -> Cell:
        return standing.cells.get(problem) or Cell(self.mode == "icpc")

    def freeze_banner(self) -> str:
        """Since when the board is frozen and what that means, in one sentence ("" when it is not)."""
        if self.frozen_at is None:
            return ""
        since = time.strftime("%Y-%m-%d %H:%M %Z", time.localtime(self.frozen_at))
        return (f"The scoreboard is frozen since {since} ({self.freeze_at_minutes:g} minutes after the first "
                f"submission): submissions made later show as pending ({UNKNOWN_MARK}), their results hidden.")


def icpc_cell(rows: list[dict], start: float, frozen_at: float | None) -> Cell:
    """A student's ICPC cell for one problem from their submissions to it, oldest first."""
    cell = Cell(icpc=True)
    for row in rows:
        if frozen_at is not None and row["submitted_at"] > frozen_at:
            cell.frozen += 1
        elif row["verdict"] is None:
            cell.judging += 1
        elif row["verdict"] == Verdict.CE:
            continue  # no try, as the ICPC rules, DOMjudge and Kattis count: the program never ran
        elif row["verdict"] == Verdict.AC:
            if cell.unknown:  # an earlier submission's result is not known, so neither is this one's place
                cell.judging += 1
                continue
            cell.tries += 1
            cell.solved_at = row["submitted_at"]
            cell.minutes = int((row["submitted_at"] - start) // 60)
            break
        else:
            cell.tries += 1
    return cell


def ioi_cell(rows: list[dict], frozen_at: float | None) -> Cell:
    """A student's IOI cell for one problem: the best judged score and when it first was full."""
    cell = Cell(icpc=False)
    for row in rows:
        if frozen_at is not None and row["submitted_at"] > frozen_at:
            cell.frozen += 1
        elif row["verdict"] is None:
            cell.judging += 1
        else:
            cell.tries += 1
            cell.score = max(cell.score or 0.0, row["score"] or 0.0)
            cell.max_score = row["max_score"]
            if cell.solved_at is None and row["max_score"] and cell.score >= row["max_score"]:
                cell.solved_at = row["submitted_at"]
    return cell


def contest_start(history: list[dict]) -> float:
    """When the contest started: the first recorded submission."""
    return min(row["submitted_at"] for row in history)


def scoreboard(history: list[dict], mode: str, freeze_at_minutes: float | None = None,
               points: dict[str, float] | None = None) -> Scoreboard:
    """The standings of ``history`` (rows with verdict None are being judged) in ``mode``; with
    ``freeze_at_minutes``, as they were that many minutes after the contest's start, later
    submissions pending; with an assignment's ``points``, its problems are the columns."""
    frozen_at = None
    if freeze_at_minutes is not None and history:
        frozen_at = contest_start(history) + freeze_at_minutes * 60
    attempts: dict[tuple[str, str], list[dict]] = {}
    for row in history:
        attempts.setdefault((row["student"], row["problem"]), []).append(row)
    start = contest_start(history) if history else 0.0
    standings: dict[str, Standing] = {}
    for (student, problem), rows in attempts.items():
        cell = icpc_cell(rows, start, frozen_at) if mode == "icpc" else ioi_cell(rows, frozen_at)
        standings.setdefault(student, Standing(student)).cells[problem] = cell
    _mark_first_solves(standings.values())
    for standing in standings.values():
        _add_up(standing, mode)
    problems = list(points) if points is not None else sorted({problem for _, problem in attempts})
    key = (lambda s: (-s.total, s.penalty)) if mode == "icpc" else (lambda s: (-s.total,))
    return Scoreboard(mode, problems, _ranked(list(standings.values()), key), frozen_at,
                      freeze_at_minutes if frozen_at is not None else None, points)


def _mark_first_solves(standings) -> None:
    """Each problem's earliest solve (every one of them, if several came at the same moment) is first."""
    earliest: dict[str, float] = {}
    for standing in standings:
        for problem, cell in standing.cells.items():
            if cell.solved_at is not None:
                earliest[problem] = min(earliest.get(problem, cell.solved_at), cell.solved_at)
    for standing in standings:
        for problem, cell in standing.cells.items():
            cell.first = cell.solved_at is not None and cell.solved_at == earliest[problem]


def _add_up(standing: Standing, mode: str) -> None:
    """The standing's total (and ICPC penalty) from its cells."""
    for cell in standing.cells.values():
        if mode == "icpc" and cell.solved_at is not None:
            standing.total += 1
            standing.penalty += cell.minutes + PENALTY_MINUTES * (cell.tries - 1)
        elif mode == "ioi":
            standing.total = round(standing.total + (cell.score or 0.0), 2)


def _count(number: int, one: str, many: str) -> str:
    return f"{number} {one if number == 1 else many}"


def _ranked(standings: list[Standing], key) -> list[Standing]:
    """Sorted by ``key`` (then name), with competition ranks: equal keys share a rank."""
    standings.sort(key=lambda s: (key(s), s.student))
    for standing, place in zip(standings, rank([key(s) for s in standings], descending=False)):
        standing.rank = place
    return standings
