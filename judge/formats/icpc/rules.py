"""A problem package's own rules for its submissions: one may be a folder of files, built with the
package's include/ files (judge/formats/icpc/programs.py), and a scoring package aggregates its groups'
scores as its test data says (judge/formats/icpc/scoring.py), with its custom grader where a group asks
for it (judge/formats/icpc/graders.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from judge.formats.icpc.graders import CustomGrader
from judge.formats.icpc.programs import prepare_submission
from judge.formats.icpc.scoring import aggregate
from judge.model.problem import JudgeRules, Problem


@dataclass(frozen=True)
class PackageRules(JudgeRules):
    grader: CustomGrader | None = None  # a scoring package's custom grader, if it has one

    def prepare(self, problem: Problem, source: Path):
        return prepare_submission(problem, source)

    def aggregate(self, problem: Problem, results: list):
        return aggregate(problem.package, results, self.grader) if problem.package.scoring else None
