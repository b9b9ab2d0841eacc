"""The similarity report for a terminal: one row per pair, highest score first."""

from __future__ import annotations

import textwrap

from judge.classroom.similarity import SimilarityReport
from judge.text.terminal import fitted_table, terminal_width
from judge.text.visible_text import visible


def render(report: SimilarityReport, width: int | None = None) -> str:
    width = terminal_width() if width is None else width
    compared = ", ".join(f"{problem}: {count}" for problem, count in report.compared.items())
    if report.pairs:
        rows = [[pair.problem, pair.a.student, pair.b.student, f"{pair.score:.0%}", f"{pair.a_share:.0%}",
                 f"{pair.b_share:.0%}", pair.tokens] for pair in report.pairs]
        text = fitted_table(rows, ["problem", "a", "b", "score", "of a", "of b", "tokens"], shrinkable=[1, 2],
                            width=width)
    else:
        text = f"no pair shares {report.threshold:.0%} or more"
    text += f"\n\nsubmissions compared: {compared or 'none'}"
    if report.notes:
        lines = [textwrap.fill(visible(note, one_line=True), width, initial_indent="  - ", subsequent_indent="    ")
                 for note in report.notes]
        text += "\nnot compared:\n" + "\n".join(lines)
    return text
