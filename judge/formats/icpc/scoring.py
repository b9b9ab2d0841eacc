"""Scores of scoring problems, aggregated through the test data groups.

Legacy and 2023-07-draft packages follow problemtools' default grader: every directory of
``data/`` is a group; a case scores ``accept_score`` (or its validator's ``score.txt``) when
accepted, else ``reject_score``; ``on_reject: break`` stops a group at its first rejected case;
``grader_flags`` choose the verdict (``worst_error``, ``first_error``, ``always_accept``,
``accept_if_any_accepted``), the score (``sum``, ``avg``, ``min``, ``max``) and ``ignore_sample``.
A group with ``grading: custom`` gets its verdict and score from the package's custom grader
instead (judge/formats/icpc/graders.py), given its ``grader_flags``; one with a judging error (or a
compile error) among its sub-results gets that, as problemtools gives it, without grading.
2025-09 packages follow that version's rules: ``score_aggregation`` (``pass-fail``, ``sum``,
``min``), ``max_score`` and ``require_pass`` of ``secret`` and its test data groups.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from typing import Protocol

from judge.formats.icpc.output_validator import Judgement
from judge.formats.icpc.package import V2025, Package
from judge.model.verdict import Verdict, overall_verdict, worst_verdict

SCORE_AGGREGATORS: dict[str, Callable[[Sequence[float]], float]] = {
    "sum": sum, "avg": lambda scores: sum(scores) / len(scores), "min": min, "max": max}
DEFAULT_MAX_SCORE = 100.0
UNGRADED = (Verdict.IE, Verdict.CE)  # a group with such a sub-result is not graded: it gets that


class Grader(Protocol):
    """A custom grader (judge/formats/icpc/graders.py's CustomGrader)."""

    def grade(self, group: str, results: list[tuple[str, float]], flags: list[str]) -> tuple[Verdict, float]: ...


def max_score(package: Package) -> float:
    """The best score a submission can get (shown as the maximum even where none is declared)."""
    declared = declared_max_score(package)
    return DEFAULT_MAX_SCORE if declared is None else declared


def declared_max_score(package: Package) -> float | None:
    """The full score as the package declares it: 2025-09's ``max_score`` of ``secret`` (100 by
    default); a legacy package's ``range`` of ``data`` or ``secret``, None without a finite one
    (problemtools then knows no full score to reach)."""
    if package.version == V2025:
        declared = package.groups["secret"].own.get("max_score", DEFAULT_MAX_SCORE) \
            if "secret" in package.groups else DEFAULT_MAX_SCORE
        return float(declared) if declared != "unbounded" else DEFAULT_MAX_SCORE
    for group in ("", "secret"):
        high = _range(package.groups[group].settings)[1] if group in package.groups else math.inf
        if math.isfinite(high):
            return high
    return None


def _range(settings: dict) -> tuple[float, float]:
    try:
        low, high = (float(part) for part in str(settings["range"]).split())
        return low, high
    except (KeyError, ValueError):
        return -math.inf, math.inf


def aggregate(package: Package, results, grader: Grader | None = None) -> tuple[str, float]:
    """(verdict, score) of a submission from its case results (runner.CaseResult; cases not run
    are left out, as a break leaves them); ``grader``: the package's custom grader, for its groups
    with ``grading: custom``."""
    by_name = {result.name: result for result in results}
    if package.version == V2025:
        score = _group_score_2025(package, "secret", by_name) if "secret" in package.groups else 0.0
        return overall_verdict([result.verdict for result in results]), round(score, 6)
    verdict, points = _legacy_group(package, "", by_name, grader)
    return Verdict(verdict or Verdict.AC), round(points, 6)


# ---------------------------------------------------------------------------------------------
# Legacy / 2023-07-draft: problemtools' default grader

def _legacy_group(package: Package, name: str, by_name: dict, grader: Grader | None) -> tuple[str | None, float]:
    """(verdict, score) of one group, or (None, 0) when none of its cases ran."""
    group = package.groups[name]
    settings = group.settings
    children: list[tuple[str, float]] = []
    for kind, child in group.children:
        if kind == "group":
            verdict, points = _legacy_group(package, child, by_name, grader)
            if verdict is None:
                continue
        elif child in by_name:
            result = by_name[child]
            verdict = result.verdict
            if result.score is not None:
                points = result.score
            else:
                points = float(settings.get("accept_score", 1.0) if verdict == Verdict.AC else settings.get("reject_score", 0.0))
        else:
            continue
        children.append((verdict, points))
        if verdict != Verdict.AC and settings.get("on_reject", "break") == "break":
            break
    if not children:
        return None, 0.0
    flags = str(settings.get("grader_flags") or "").split()
    ungraded = next((verdict for verdict, _ in children if verdict in UNGRADED), None)
    if ungraded is not None:
        return ungraded, 0.0
    if settings.get("grading") == "custom":
        assert grader is not None, "a package whose groups ask for a custom grader has one (see package.py)"
        return grader.grade(name, children, flags)
    return _grade(children, flags)


def _grade(children: list[tuple[str, float]], flags: list[str]) -> tuple[str, float]:
    verdicts = [verdict for verdict, _ in children]
    scores = [points for _, points in children]
    if "ignore_sample" in flags:
        verdicts, scores = verdicts[-1:], scores[-1:]
    aggregate_scores = SCORE_AGGREGATORS["sum"]
    mode = "worst_error"
    for flag in flags:
        aggregate_scores = SCORE_AGGREGATORS.get(flag, aggregate_scores)
        mode = flag if flag in ("worst_error", "no_errors", "first_error", "always_accept") else mode
    if ("accept_if_any_accepted" in flags and Verdict.AC in verdicts) or mode == "always_accept":
        verdict = Verdict.AC
    elif mode == "first_error":
        verdict = overall_verdict(verdicts)
    else:
        verdict = worst_verdict(verdicts)
    return verdict, float(aggregate_scores(scores))


# ---------------------------------------------------------------------------------------------
# 2025-09: score_aggregation and max_score

def _scoring_group(package: Package, directory: str) -> str:
    """The test data group a directory's cases count for: the nearest one with a test_group.yaml
    below ``secret``, else ``secret``."""
    while directory.count("/") >= 1:
        if package.groups[directory].has_file:
            return directory
        directory = directory.rsplit("/", 1)[0]
    return "secret"


def case_max_score(package: Package, case: str) -> float:
    """The most a case can score (infinite when unbounded): 2025-09, "Scoring problems": its
    group's ``max_score`` with ``min`` aggregation, an equal share of it with ``sum``. Legacy
    packages: the group's ``accept_score``."""
    if package.version != V2025:
        return float(package.groups[package.cases[case].group].settings.get("accept_score", 1.0))
    group = _scoring_group(package, package.cases[case].group)
    mode, bound, members = _group_rules(package, group)
    return bound if mode == "min" else bound / max(1, len(members))


def multiplied_score(package: Package, case: str, judgement: Judgement) -> Judgement:
    """An accepted case's score from its validator's ``score_multiplier.txt``: that share of the
    case's maximum score; a judge error when its maximum is unbounded (2025-09, "Scoring test cases")."""
    assert judgement.score_multiplier is not None
    bound = case_max_score(package, case)
    if not math.isfinite(bound):
        return Judgement(Verdict.IE, f"the output validator wrote score_multiplier.txt for {case}, whose maximum score "
                               f"is unbounded; write score.txt, or give its group a max_score")
    return dataclasses.replace(judgement, score=judgement.score_multiplier * bound)


def _group_rules(package: Package, name: str) -> tuple[str, float, list[str]]:
    """A 2025-09 group's aggregation, maximum score and own cases."""
    own = package.groups[name].own if name in package.groups else {}
    mode = own.get("score_aggregation", "sum" if name == "secret" else "pass-fail")
    declared = own.get("max_score", DEFAULT_MAX_SCORE if name == "secret" else "unbounded")
    bound = math.inf if declared == "unbounded" else float(declared)
    members = [case for case in package.cases if case.startswith("secret/")
               and _scoring_group(package, package.cases[case].group) == name]
    return mode, bound, members


def _group_score_2025(package: Package, name: str, by_name: dict) -> float:
    own = package.groups[name].own
    mode, bound, members = _group_rules(package, name)
    subgroups = sorted({_scoring_group(package, package.cases[case].group) for case in package.cases
                        if case.startswith(name + "/")} - {name})
    if subgroups:
        scores = [_group_score_2025(package, group, by_name) for group in subgroups]
        passed = all(by_name.get(case) is not None and by_name[case].verdict == Verdict.AC
                     for case in package.cases if case.startswith(name + "/"))
    else:
        case_bound = bound if mode == "min" else bound / max(1, len(members))
        scores = [_case_score(by_name.get(case), case_bound) for case in members]
        passed = all(by_name.get(case) is not None and by_name[case].verdict == Verdict.AC for case in members)
    if not _required_passed(package, own.get("require_pass"), by_name):
        return 0.0
    if mode == "pass-fail":
        return bound if passed and math.isfinite(bound) else 0.0
    if not scores:
        return 0.0
    return float(min(scores) if mode == "min" else sum(scores))


def _required_passed(package: Package, required, by_name: dict) -> bool:
    """Whether every case of the groups ``require_pass`` names (a name or a list) was accepted."""
    names = [required] if isinstance(required, str) else list(required or [])
    return all(by_name.get(case) is not None and by_name[case].verdict == Verdict.AC
               for group in names for case in package.cases if case.startswith(str(group) + "/"))


def _case_score(result, bound: float) -> float:
    if result is None or result.verdict != Verdict.AC:
        return 0.0
    if result.score is not None:
        return result.score
    return bound if math.isfinite(bound) else 0.0
