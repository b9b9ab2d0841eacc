"""The similarity report as one HTML page: the pairs, each linked to the two programs side by
side with their shared passages highlighted."""

from __future__ import annotations

from datetime import datetime, timezone

from judge.classroom.similarity import SimilarityReport
from judge.renderers.html_page import environment


def render(report: SimilarityReport) -> str:
    pairs = [{"pair": pair, "a": segments(pair.a.text, pair.a_spans), "b": segments(pair.b.text, pair.b_spans)}
             for pair in report.pairs]
    generated = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return environment().get_template("similarity.html.j2").render(report=report, pairs=pairs, generated=generated)


def segments(text: str, spans: list[tuple[int, int]]) -> list[tuple[str, bool]]:
    """``text`` cut into (piece, shared) at the ``spans``, which may overlap and come in any order."""
    pieces, at = [], 0
    for start, end in sorted(spans):
        start, end = max(start, at), min(end, len(text))
        if start >= end:
            continue
        if start > at:
            pieces.append((text[at:start], False))
        pieces.append((text[start:end], True))
        at = end
    if at < len(text):
        pieces.append((text[at:], False))
    return pieces
