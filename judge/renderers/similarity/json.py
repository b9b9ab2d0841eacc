"""The similarity report as one JSON object: the pairs, highest score first."""

from __future__ import annotations

import json

from judge.classroom.similarity import Pair, SimilarityReport


def to_json(report: SimilarityReport) -> dict:
    return {
        "pairs": [pair_json(pair) for pair in report.pairs],
        "threshold": report.threshold,
        "compared": report.compared,
        "notes": report.notes,
    }


def pair_json(pair: Pair) -> dict:
    """``score`` is the larger of the two shares; ``a_share`` is the fraction of a's
    fingerprinted code found in b; ``a_spans`` the shared passages as character offsets."""
    return {"problem": pair.problem, "a": pair.a.student, "b": pair.b.student, "score": round(pair.score, 4),
            "a_share": round(pair.a_share, 4), "b_share": round(pair.b_share, 4), "tokens": pair.tokens,
            "a_file": pair.a.name, "b_file": pair.b.name,
            "a_spans": [list(span) for span in pair.a_spans], "b_spans": [list(span) for span in pair.b_spans]}


def render(report: SimilarityReport) -> str:
    return json.dumps(to_json(report), indent=2, ensure_ascii=False)
