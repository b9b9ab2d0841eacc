"""The scoring protocol (judge/model/scoring.py): each score type reduces a group's results to the
group's (verdict, score); a suite's points per case and per group, and a package's grader flags,
are score types under it."""

from pathlib import Path

import pytest

from judge import extension_points
from judge.formats.icpc.scoring import CustomGrading, default_grader
from judge.formats.suite.format import load_suite
from judge.model.scoring import (
    Aggregate,
    ErrorsUngraded,
    LastOnly,
    PassFail,
    Requiring,
    Scored,
    UntilRejected,
    score,
)
from judge.model.verdict import Verdict

AC, WA, TLE, RE, IE, CE = Verdict.AC, Verdict.WA, Verdict.TLE, Verdict.RE, Verdict.IE, Verdict.CE
MIXED = [Scored(AC, 4.0), Scored(WA, 1.0), Scored(TLE, 0.0), Scored(AC, 3.0)]


def lazily(results, consumed: list):
    """``results`` one at a time, noting each one as it is asked for."""
    for result in results:
        consumed.append(result)
        yield result


@pytest.mark.parametrize("rule, expected", [("sum", 8.0), ("avg", 2.0), ("min", 0.0), ("max", 4.0)])
def test_aggregate_scores_by_its_rule(rule, expected):
    assert Aggregate(rule).reduce(MIXED).score == expected


@pytest.mark.parametrize("rule, expected", [("first_error", WA), ("worst_error", TLE), ("always_accept", AC)])
def test_aggregate_decides_the_verdict_by_its_rule(rule, expected):
    assert Aggregate("sum", rule).reduce(MIXED).verdict == expected


def test_accept_if_any_accepted_needs_one_accepted_result():
    assert Aggregate("sum", "worst_error", accept_if_any_accepted=True).reduce(MIXED).verdict == AC
    assert Aggregate("sum", "worst_error", accept_if_any_accepted=True).reduce(MIXED[1:3]).verdict == TLE


def test_an_empty_group_is_accepted_and_scores_nothing_but_passes_pass_fail():
    assert Aggregate("min").reduce([]) == Scored(AC, 0.0)
    assert PassFail(10).reduce([]) == Scored(AC, 10)
    assert UntilRejected(Aggregate("sum")).reduce([]) == Scored(AC, 0.0)
    assert LastOnly(Aggregate("avg")).reduce([]) == Scored(AC, 0.0)


def test_pass_fail_gives_its_points_only_when_every_result_is_accepted():
    assert PassFail(25).reduce([Scored(AC, 0.0), Scored(AC, 0.0)]) == Scored(AC, 25)
    assert PassFail(25).reduce([Scored(AC, 0.0), Scored(RE, 0.0), Scored(WA, 0.0)]) == Scored(RE, 0.0)


def test_a_case_not_run_is_not_accepted():
    assert PassFail(25).reduce([Scored(AC, 0.0), Scored(None, 0.0)]).score == 0.0


def test_until_rejected_stops_at_the_first_rejected_result_and_asks_for_no_more():
    consumed: list = []
    result = UntilRejected(Aggregate("sum")).reduce(lazily(MIXED, consumed))
    assert result == Scored(WA, 5.0)
    assert consumed == MIXED[:2]


def test_last_only_reduces_the_last_result_alone():
    assert LastOnly(Aggregate("sum", "worst_error")).reduce(MIXED) == Scored(AC, 3.0)


def test_requiring_keeps_the_verdict_and_zeroes_the_score_unless_every_prerequisite_passed():
    passed, failed, not_run = Scored(AC, 0.0), Scored(WA, 0.0), Scored(None, 0.0)
    assert Requiring(Aggregate("sum"), (passed, passed)).reduce(MIXED) == Scored(WA, 8.0)
    assert Requiring(Aggregate("sum"), (passed, failed)).reduce(MIXED) == Scored(WA, 0.0)
    assert Requiring(PassFail(7), (not_run,)).reduce([Scored(AC, 0.0)]) == Scored(AC, 0.0)


@pytest.mark.parametrize("error", [IE, CE])
def test_a_judging_or_compile_error_is_not_graded(error):
    results = [Scored(AC, 5.0), Scored(error, 0.0), Scored(IE if error == CE else CE, 0.0)]
    assert ErrorsUngraded(Aggregate("sum", "always_accept")).reduce(results) == Scored(error, 0.0)
    assert ErrorsUngraded(Aggregate("sum", "always_accept")).reduce(MIXED) == Scored(AC, 8.0)


def test_a_break_comes_before_the_errors_that_follow_it():
    results = [Scored(AC, 1.0), Scored(WA, 0.0), Scored(IE, 0.0)]
    assert UntilRejected(ErrorsUngraded(Aggregate("sum"))).reduce(results) == Scored(WA, 1.0)


@pytest.mark.parametrize("flags, expected", [
    ([], Aggregate("sum", "worst_error")),
    (["min", "first_error"], Aggregate("min", "first_error")),
    (["first_error", "no_errors", "avg", "max"], Aggregate("max", "worst_error")),
    (["accept_if_any_accepted"], Aggregate("sum", "worst_error", True)),
    (["ignore_sample", "always_accept"], LastOnly(Aggregate("sum", "always_accept"))),
])
def test_a_packages_grader_flags_choose_the_default_graders_score_type(flags, expected):
    assert default_grader(flags) == expected


class Recorder:
    """A custom grader's stand-in that answers the best score it was given, and notes its calls."""

    def __init__(self) -> None:
        self.calls: list = []

    def grade(self, group, results, flags):
        self.calls.append((group, [tuple(result) for result in results], flags))
        return Verdict.AC, max(result.score for result in results)


def test_a_custom_grader_is_a_score_type_given_the_group_its_results_and_flags():
    grader = Recorder()
    assert UntilRejected(CustomGrading(grader, "secret/g1", ("min",))).reduce(MIXED) == Scored(AC, 4.0)
    assert grader.calls == [("secret/g1", [(AC, 4.0), (WA, 1.0)], ["min"])]


def test_every_score_type_is_one_by_the_protocol():
    score_types = [Aggregate(), PassFail(1), LastOnly(Aggregate()), UntilRejected(Aggregate()),
                   Requiring(Aggregate(), ()), ErrorsUngraded(Aggregate()), CustomGrading(Recorder(), "", ())]
    assert [type(kind).__name__ for kind in score_types if not isinstance(kind, extension_points.ScoreType)] == []


SUITE = """
id: tiny
title: Tiny
{scoring}
cases:
  - {{name: a, input: "1", group: easy, points: 1}}
  - {{name: b, input: "2", group: easy, points: 2}}
  - {{name: c, input: "3", group: hard, points: 5}}
"""


def suite(tmp_path: Path, scoring: str):
    (tmp_path / "cases").mkdir()
    path = tmp_path / "cases" / "tiny.yaml"
    path.write_text(SUITE.format(scoring=scoring))
    return load_suite(path, root=tmp_path)


def test_a_suite_scores_its_cases_points_out_of_its_total(tmp_path):
    problem = suite(tmp_path, "points: 40")
    assert score(problem, {"a": AC, "b": WA, "c": AC}) == 30.0
    assert score(problem, {"b": AC}) == 10.0  # cases not run earn nothing


def test_a_suite_scores_a_group_only_when_all_its_cases_pass(tmp_path):
    problem = suite(tmp_path, "scoring: groups\ngroups: {easy: 30, hard: 60, empty: 10}")
    assert score(problem, {"a": AC, "b": AC, "c": WA}) == 30.0
    assert score(problem, {"a": AC, "c": AC}) == 60.0  # b not run: easy earns nothing
    assert score(problem, {"a": AC, "b": AC, "c": AC}) == 90.0  # a group without cases earns nothing
