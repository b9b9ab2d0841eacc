"""An assignment file (``assignments/week3.yaml``): which problems `judge grade` grades, for how
many points each, by which deadline, in which languages and with what feedback.

The least form is a map of problems to points::

    problems: {stones: 60, omok: 40}

The whole form (docs/reference/assignment-yaml.md; its JSON Schema is
``judge/schemas/assignment.schema.json``)::

    name: Week 3
    points: 100                 # with weights: the points they share
    problems:
      stones: {weight: 3}
      omok: {weight: 1}
    due: 2026-12-01T23:59+01:00
    late_penalty: 10%/day
    late_until: 2026-12-04
    feedback: hints
    hints: true
    submissions: 5
    languages: [python, java]

Every fault is a ``UsageError`` naming the file and the field (``problems.omok.points``), what
was expected and what was found; a misspelt key is an error with the nearest known key.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from judge.classroom.deadlines import Policy, parse_penalty, parse_time
from judge.classroom.grading import ClassReport, rank_students
from judge.errors import SuiteError, UsageError
from judge.languages import LANGUAGES
from judge.model.feedback import LEVELS
from judge.text.docs_links import see
from judge.text.suggestions import listing, nearest
from judge.text.yaml_files import read_yaml

KEYS = ("name", "points", "problems", "due", "late_penalty", "late_until", "feedback", "hints",
        "submissions", "languages")
PROBLEM_KEYS = ("points", "weight")
REFERENCE = "reference/assignment-yaml.md"


class AssignmentError(UsageError):
    """An assignment file that cannot be used, named with its field."""


@dataclass(frozen=True)
class Assignment:
    """What an assignment file says; ``points`` per problem are the final ones (weights resolved)."""

    name: str
    points: dict[str, float]  # problem -> its points, in the file's order
    policy: Policy | None = None  # the deadline and late policy, as --deadline's
    feedback: str | None = None  # a level of judge/model/feedback.py, or None: each problem's own policy
    hints: bool = True  # whether failed hidden cases show the author's hints
    submissions: int | None = None  # per problem, enforced where a student's versions are kept
    languages: tuple[str, ...] = ()  # the languages accepted; () accepts every one

    @property
    def problems(self) -> list[str]:
        return list(self.points)

    @property
    def total(self) -> float:
        return round(sum(self.points.values()), 2)

    def to_json(self) -> dict:
        return {"name": self.name, "points": self.points, "total": self.total,
                "due": _iso(self.policy.deadline) if self.policy else None,
                "late_penalty": self.policy.penalty_per_day if self.policy else None,
                "late_until": _iso(self.policy.late_until) if self.policy and self.policy.late_until else None,
                "feedback": self.feedback, "hints": self.hints, "submissions": self.submissions,
                "languages": list(self.languages) or None}


def load_assignment(path: Path) -> Assignment:
    """The assignment ``path`` describes; AssignmentError naming the field at fault."""
    if not path.is_file():
        raise AssignmentError(f"{path}: no such file; write one with `problems: {{PROBLEM: POINTS}}` {see(REFERENCE)}")
    try:
        data = read_yaml(path)
    except SuiteError as error:
        raise AssignmentError(str(error)) from None
    return _Reader(path).assignment(data)


class _Reader:
    def __init__(self, path: Path) -> None:
        self.path = path

    def fail(self, where: str, message: str) -> AssignmentError:
        return AssignmentError(f"{self.path}: {where}: {message} {see(REFERENCE)}")

    def assignment(self, data: Any) -> Assignment:
        if not isinstance(data, dict):
            raise AssignmentError(f"{self.path}: must be a mapping with at least `problems: {{PROBLEM: POINTS}}`, "
                                  f"got {_kind(data)} {see(REFERENCE)}")
        self.known_keys(data, KEYS, "")
        if "problems" not in data:
            raise self.fail("problems", "missing: list the problems with their points, e.g. "
                                        "`problems: {stones: 60, omok: 40}`")
        name = data.get("name", self.path.stem)
        if not isinstance(name, str) or not name.strip():
            raise self.fail("name", f"must be text, got {_kind(name)}")
        return Assignment(name, self.points(data.get("problems"), data.get("points")), self.policy(data),
                          self.feedback(data.get("feedback")), self.flag(data, "hints"),
                          self.submissions(data.get("submissions")), self.languages(data.get("languages")))

    def known_keys(self, data: dict, allowed: tuple[str, ...], where: str) -> None:
        for key in data:
            if key not in allowed:
                near = nearest(str(key), allowed)
                hint = f"; did you mean '{near}'?" if near else f" (known: {', '.join(allowed)})"
                raise self.fail(f"{where}{key}", f"unknown field{hint}")

    def points(self, problems: Any, total: Any) -> dict[str, float]:
        if not isinstance(problems, dict) or not problems:
            raise self.fail("problems", f"must map each problem to its points, e.g. {{stones: 60}}, got {_kind(problems)}")
        points: dict[str, float] = {}
        weights: dict[str, float] = {}
        for problem, spec in problems.items():
            where = f"problems.{problem}"
            if not isinstance(problem, str):
                raise self.fail(where, "a problem's name must be text")
            if isinstance(spec, dict):
                self.known_keys(spec, PROBLEM_KEYS, where + ".")
                if len(spec) != 1:
                    raise self.fail(where, "give either `points` or `weight`, one of them")
                key, value = next(iter(spec.items()))
                (points if key == "points" else weights)[problem] = self.number(value, f"{where}.{key}")
            else:
                points[problem] = self.number(spec, where)
        if weights and points:
            raise self.fail("problems", f"mixes points ({', '.join(points)}) and weights ({', '.join(weights)}): "
                                        f"give every problem points, or every one a weight and `points` the total")
        if weights:
            if total is None:
                raise self.fail("points", "missing: with weights, `points` is the total they share (e.g. points: 100)")
            share = self.number(total, "points") / sum(weights.values())
            return {problem: round(weight * share, 2) for problem, weight in weights.items()}
        if total is not None and abs(self.number(total, "points") - sum(points.values())) > 1e-9:
            raise self.fail("points", f"is {total:g} but the problems' points add up to {sum(points.values()):g}: "
                                      f"drop `points`, or make them agree")
        return points

    def number(self, value: Any, where: str) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
            raise self.fail(where, f"must be a number above 0, got {_kind(value)} {value!r:.40}")
        return float(value)

    def policy(self, data: dict) -> Policy | None:
        times = {key: self.time(data[key], key) for key in ("due", "late_until") if key in data}
        if "due" not in times:
            for key in ("late_penalty", "late_until"):
                if key in data:
                    raise self.fail(key, "needs `due`, the deadline it follows")
            return None
        penalty = 0.0
        if "late_penalty" in data:
            try:
                penalty = parse_penalty(str(data["late_penalty"]))
            except UsageError:
                raise self.fail("late_penalty", f"{data['late_penalty']!r} is not a share per day: write 10%/day") from None
        if "late_until" in times and not penalty:
            raise self.fail("late_until", "needs `late_penalty`: without a penalty no late work counts")
        if "late_until" in times and times["late_until"] < times["due"]:
            raise self.fail("late_until", "is before `due`")
        return Policy(times["due"], penalty, times.get("late_until"))

    def time(self, value: Any, where: str) -> float:
        # YAML reads an unquoted 2026-12-01 as a date and 2026-12-01 23:59 as a time: both are meant
        if isinstance(value, datetime.date):  # a datetime is a date too
            value = value.isoformat()
        if not isinstance(value, str):
            raise self.fail(where, f"must be a time such as 2026-12-01T23:59+01:00, got {_kind(value)}")
        try:
            return parse_time(value, where)
        except UsageError:
            raise self.fail(where, f"{value!r} is not a time: write it as 2026-12-01T23:59 or "
                                   f"2026-12-01T23:59+01:00") from None

    def feedback(self, value: Any) -> str | None:
        if value is not None and value not in LEVELS:
            raise self.fail("feedback", f"must be one of {', '.join(LEVELS)}, got {value!r:.40}")
        return value

    def flag(self, data: dict, key: str) -> bool:
        value = data.get(key, True)
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, got {_kind(value)} {value!r:.40}")
        return value

    def submissions(self, value: Any) -> int | None:
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise self.fail("submissions", f"must be a whole number of at least 1, got {value!r:.40}")
        return value

    def languages(self, value: Any) -> tuple[str, ...]:
        if value is None:
            return ()
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list) or not value:
            raise self.fail("languages", f"must be a list of languages ({', '.join(LANGUAGES)}), got {_kind(value)}")
        for name in value:
            if name not in LANGUAGES:
                near = nearest(str(name), list(LANGUAGES))
                raise self.fail("languages", f"unknown language {name!r:.40}"
                                + (f"; did you mean {near}?" if near else f" (known: {', '.join(LANGUAGES)})"))
        return tuple(value)


def check_problems(assignment: Assignment, path: Path, known: list[str]) -> None:
    """AssignmentError naming ``problems.X`` when the assignment names a problem not in force."""
    for problem in assignment.problems:
        if problem not in known:
            near = nearest(problem, known)
            raise AssignmentError(f"{path}: problems.{problem}: no such problem"
                                  + (f"; did you mean {near}?" if near else f" (known: {listing(known)})")
                                  + f" {see(REFERENCE)}")


def scale_to_points(report: ClassReport, assignment: Assignment) -> None:
    """Each result's score scaled from its problem's points to the assignment's, and the class
    ranked again by the totals that makes."""
    for student in report.students:
        for problem, result in student.results.items():
            points = assignment.points[problem]
            share = result.score / result.max_score if result.max_score else 0.0
            student.results[problem] = replace(result, score=round(share * points, 2), max_score=points)
    report.max_scores = dict(assignment.points)
    report.students = rank_students(report.students)


def assignment_history(history: list[dict], assignment: Assignment) -> list[dict]:
    """The recorded submissions (judge/classroom/store.py's history rows) of the assignment's problems, each
    score scaled to the problem's points in it: what its scoreboard counts."""
    rows = []
    for row in history:
        points = assignment.points.get(row["problem"])
        if points is not None:
            share = (row["score"] or 0.0) / row["max_score"] if row.get("max_score") else 0.0
            rows.append({**row, "score": round(share * points, 2), "max_score": points})
    return rows


def _kind(value: Any) -> str:
    return "nothing" if value is None else type(value).__name__


def _iso(moment: float) -> str:
    return datetime.datetime.fromtimestamp(moment, datetime.timezone.utc).isoformat(timespec="seconds")
