"""Scores of scoring problems, aggregated through the test data groups: each group's settings
choose its score type, of the shared ones (judge/model/scoring.py) or the package's custom grader.

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
import itertools
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from judge.formats.icpc.output_validator import Judgement
from judge.formats.icpc.package import V2025, Package
from judge.model.scoring import (
    SCORE_RULES,
    VERDICT_RULES,
    Aggregate,
    ErrorsUngraded,
    LastOnly,
    PassFail,
    Requiring,
    Scored,
    UntilRejected,
)
from judge.model.verdict import Verdict, overall_verdict

if TYPE_CHECKING:
    from judge.extension_points import ScoreType

DEFAULT_MAX_SCORE = 100.0


class Grader(Protocol):
    """A custom grader (judge/formats/icpc/graders.py's CustomGrader)."""

    def grade(self, group: str, results: list[Scored], flags: list[str]) -> tuple[Verdict, float]: ...


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
        score = _group_score_2025(package, "secret", by_name).score if "secret" in package.groups else 0.0
        return overall_verdict([result.verdict for result in results]), round(score, 6)
    verdict, points = _legacy_group(package, "", by_name, grader) or (Verdict.AC, 0.0)
    return Verdict(verdict), round(points, 6)


# ---------------------------------------------------------------------------------------------
# Legacy / 2023-07-draft: problemtools' default grader

def _legacy_group(package: Package, name: str, by_name: dict, grader: Grader | None) -> Scored | None:
    """(verdict, score) of one group, or None when none of its cases ran."""
    settings = package.groups[name].settings
    ran = _ran_children(package, name, by_name, grader)
    first = next(ran, None)
    if first is None:
        return None
    return _legacy_score_type(name, settings, grader).reduce(itertools.chain([first], ran))


def _ran_children(package: Package, name: str, by_name: dict, grader: Grader | None) -> Iterator[Scored]:
    """The group's sub-results in order, worked out as they are asked for (a break asks for no
    more): its cases that ran, and its sub-groups where any of their cases did."""
    settings = package.groups[name].settings
    for kind, child in package.groups[name].children:
        if kind == "group":
            result = _legacy_group(package, child, by_name, grader)
            if result is not None:
                yield result
        elif child in by_name:
            yield _case_score(by_name[child], settings)


def _case_score(result, settings: dict) -> Scored:
    """A case's score: its validator's, else the group's ``accept_score`` or ``reject_score``."""
    if result.score is not None:
        return Scored(result.verdict, result.score)
    points = settings.get("accept_score", 1.0) if result.verdict == Verdict.AC else settings.get("reject_score", 0.0)
    return Scored(result.verdict, float(points))


def _legacy_score_type(name: str, settings: dict, grader: Grader | None) -> ScoreType:
    """The score type a group's settings choose: its custom grader or the default one with its
    ``grader_flags``, not grading a judging error, stopped at the first rejection on ``on_reject: break``."""
    flags = str(settings.get("grader_flags") or "").split()
    if settings.get("grading") == "custom":
        assert grader is not None, "a package whose groups ask for a custom grader has one (see package.py)"
        graded: ScoreType = CustomGrading(grader, name, tuple(flags))
    else:
        graded = default_grader(flags)
    score_type: ScoreType = ErrorsUngraded(graded)
    return UntilRejected(score_type) if settings.get("on_reject", "break") == "break" else score_type


def default_grader(flags: list[str]) -> ScoreType:
    """problemtools' default grader given ``grader_flags``: the last verdict flag and the last score
    flag win (worst_error and sum by default; no_errors is worst_error)."""
    score_rule, verdict_rule = "sum", "worst_error"
    for flag in flags:
        score_rule = flag if flag in SCORE_RULES else score_rule
        verdict_rule = flag if flag in VERDICT_RULES else "worst_error" if flag == "no_errors" else verdict_rule
    grader: ScoreType = Aggregate(score_rule, verdict_rule, "accept_if_any_accepted" in flags)
    return LastOnly(grader) if "ignore_sample" in flags else grader


@dataclass(frozen=True)
class CustomGrading:
    """A group with ``grading: custom``: the package's grader gives its verdict and score."""

    grader: Grader
    group: str
    flags: tuple[str, ...]
    name = "custom"

    def reduce(self, results: Iterable[Scored]) -> Scored:
        return Scored(*self.grader.grade(self.group, list(results), list(self.flags)))


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
    return _case_bound(*_group_rules(package, group))


def _case_bound(mode: str, bound: float, members: list[str]) -> float:
    """The most one of a 2025-09 group's own cases can score: the group's maximum with ``min``
    aggregation, an equal share of it otherwise."""
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


def _group_score_2025(package: Package, name: str, by_name: dict) -> Scored:
    """A 2025-09 group's result: a pass-fail group reduces all its cases; a sum or min group its
    subgroups' results, or its own cases' where it has no subgroups. Its score counts only when the
    groups its ``require_pass`` names passed."""
    mode, bound, members = _group_rules(package, name)
    under = [case for case in package.cases if case.startswith(name + "/")]
    subgroups = sorted({_scoring_group(package, package.cases[case].group) for case in under} - {name})
    case_bound = _case_bound(mode, bound, members)
    if mode == "pass-fail":
        score_type: ScoreType = PassFail(bound if math.isfinite(bound) else 0.0)
        results = [_scored_2025(by_name.get(case), case_bound) for case in under]
    else:
        score_type = Aggregate(mode)
        results = [_group_score_2025(package, group, by_name) for group in subgroups] if subgroups \
            else [_scored_2025(by_name.get(case), case_bound) for case in members]
    required = package.groups[name].own.get("require_pass")
    names = [required] if isinstance(required, str) else list(required or [])
    prerequisites = tuple(_scored_2025(by_name.get(case), 0.0) for group in names
                          for case in package.cases if case.startswith(str(group) + "/"))
    return Requiring(score_type, prerequisites).reduce(results)


def _scored_2025(result, bound: float) -> Scored:
    """A case's result (None: not run): its validator's score when accepted, else ``bound`` (0 when
    unbounded); nothing when rejected."""
    if result is None:
        return Scored(None, 0.0)
    if result.verdict != Verdict.AC:
        return Scored(result.verdict, 0.0)
    if result.score is not None:
        return Scored(result.verdict, result.score)
    return Scored(result.verdict, bound if math.isfinite(bound) else 0.0)
