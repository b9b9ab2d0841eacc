"""Rendering results for people (tables) and machines (JSON). No judging logic here."""

from __future__ import annotations

import json
from typing import Any

from judge.model.verdict import Verdict
from judge.renderers.case_view import SampleView
from judge.runner import CaseResult, SubmissionResult
from judge.text.output_diff import excerpt, expected_label, first_difference
from judge.text.terminal import ELLIPSIS, NARROWEST, cut, terminal_width
from judge.text.visible_text import visible


def result_to_json(result: SubmissionResult) -> dict[str, Any]:
    """The documented JSON shape of one submission's result (times in seconds)."""
    return {
        "problem": result.problem,
        "submission": result.submission,
        "language": result.language,
        "verdict": result.verdict,
        "score": result.score,
        "max_score": result.max_score,
        "passed": result.passed,
        "total": result.total,
        "compile_message": result.compile_message,
        "feedback": result.feedback,
        "cases": cases_to_json(result.cases),
    } | (result.explanation.to_json() if result.explanation is not None else {})


def cases_to_json(cases: list[CaseResult]) -> list[dict[str, Any]]:
    return [{"name": case.name, "group": case.group, "verdict": case.verdict, "cpu_time": case.cpu_time,
             "wall_time": case.wall_time, "memory_kb": case.memory_kb, "message": case.message,
             "hint": case.hint, "description": case.description}
            for case in cases]


def render_json(result: SubmissionResult) -> str:
    return json.dumps(result_to_json(result), indent=2, ensure_ascii=False)


def render_table(result: SubmissionResult, samples: dict[str, SampleView] | None = None,
                 width: int | None = None, show_hint: bool = False) -> str:
    """Per-case table fitted to the terminal (messages are cut, never the case or verdict), then
    what follows it (see ``render_after_table``)."""
    width = terminal_width() if width is None else width
    table = CaseTable([case.name for case in result.cases], width)
    return "\n".join([table.header(), *map(table.row, result.cases)]) + "\n" + \
        render_after_table(result, samples, width, show_hint)


def render_after_table(result: SubmissionResult, samples: dict[str, SampleView] | None = None,
                       width: int | None = None, show_hint: bool = False, whole_counterexample: bool = False) -> str:
    """What follows the per-case table: the compiler's message once (if any), what went wrong on
    each failed sample case (input, expected and actual output around the first difference), the
    counterexample for hidden failures, and a summary line with the score.

    ``show_hint``: say how to see a failed sample case, or the counterexample, in full (`judge run
    --show CASE`, `--show counterexample`); ``whole_counterexample``: show all of the counterexample."""
    width = terminal_width() if width is None else width
    parts = []
    if result.compile_message:
        parts.append("\ncompiler says:\n" + visible(result.compile_message))
    for case in result.cases:
        view = (samples or {}).get(case.name)
        if view is not None and case.verdict not in (Verdict.AC, Verdict.CE, Verdict.IE):
            parts.append("\n" + failed_case_text(case, view, width, show_hint))
    hints = _hints(result.cases, width)
    if hints:
        parts.append("\n" + hints)
    if result.explanation is not None and result.explanation.hidden_failed:
        parts.append("\n" + explanation_text(result.explanation, width, show_hint, whole_counterexample))
    score = f"score {result.score:g}/{result.max_score:g}" if not result.partial else "no score: only some cases ran"
    parts.append(f"\n{result.verdict}  {result.passed}/{result.total} cases passed, "
                 f"{score}  ({result.problem}, {result.language})")
    return "\n".join(parts)


class CaseTable:
    """`judge run`'s per-case table, laid out from the case names alone: its rows can be printed
    one at a time as the cases are decided (judge/renderers/case_stream.py) and still line up with the
    header. The message column takes what the terminal's width leaves; it alone is cut."""

    HEADERS = ("case", "verdict", "CPU ms", "wall ms", "memory", "message")
    # Wide enough for any verdict, for times up to 999 s of CPU and 9999 s of wall, and for
    # memory up to 9999.9 MiB: the columns line up before the values are known.
    FIXED_WIDTHS = (7, 6, 7, 10)
    GAP = "  "

    def __init__(self, names: list[str], width: int) -> None:
        name_width = max([len(self.HEADERS[0]), *(len(visible(name, one_line=True)) for name in names)])
        self.widths = [name_width, *self.FIXED_WIDTHS]
        used = sum(self.widths) + len(self.GAP) * len(self.widths)
        self.message_width = max(NARROWEST, len(self.HEADERS[-1]), width - used)

    def header(self) -> str:
        dashes = [*self.widths, len(self.HEADERS[-1])]
        return self._line(self.HEADERS) + "\n" + self.GAP.join("-" * width for width in dashes)

    def row(self, case: CaseResult) -> str:
        return self._line([case.name, case.verdict, _milliseconds(case.cpu_time), _milliseconds(case.wall_time),
                           _memory(case.memory_kb), _row_message(case)])

    def _line(self, cells) -> str:
        *fixed, message = [visible(" ".join(str(cell).splitlines()), one_line=True) for cell in cells]
        padded = [cell.ljust(width) for cell, width in zip(fixed, self.widths)]
        return self.GAP.join([*padded, cut(message, self.message_width)]).rstrip()


def _row_message(case: CaseResult) -> str:
    # A compiler's message is the same for every case: printed once, under the table.
    return "see the compiler message below" if case.verdict == Verdict.CE else case.message


def _hints(cases: list[CaseResult], width: int) -> str:
    """The author's hints and descriptions of the failed cases that have them, a line each."""
    lines = [cut(f"  {case.name} ({case.verdict}): " + " - ".join(filter(None, [case.description, case.hint])), width)
             for case in cases if case.hint or case.description]
    return "\n".join(["hints for the failed cases:", *lines]) if lines else ""


def failed_case_text(case: CaseResult, view: SampleView, width: int, show_hint: bool = False,
                     no_output: str = "(no output)") -> str:
    """A failed case that may be shown, compactly: a few lines of input, expected and actual
    output (``no_output`` says why there is none to show)."""
    lines = [cut(f"{case.name}: {case.verdict} - {case.message}", width), f"{view.input_label}:"]
    lines += excerpt(view.input, None, width)
    lines.append(f"{view.expected_label}:")
    lines += excerpt(view.expected, view.difference, width)
    lines.append("got:")
    lines += excerpt(view.got, view.difference, width) if view.got is not None else [f"  {no_output}"]
    if show_hint:
        lines.append(cut(f"(run again with --show {case.name} to see all of it)", width))
    return "\n".join(lines)


SHOW_COUNTEREXAMPLE = "counterexample"  # `judge run --show counterexample`: all of it


def explanation_text(explanation: Any, width: int, show_hint: bool = False, whole: bool = False) -> str:
    """The counterexample for failed hidden cases, shown as a failed sample case is (``whole``: all
    of it, as the program read and wrote it, as `--show CASE` shows a sample); or why there is none."""
    lines = []
    if explanation.rejected_hidden:
        lines.append(cut(f"({explanation.rejected_hidden} candidate input(s) passed over: they are hidden cases' "
                         f"inputs, which stay hidden)", width))
    example = explanation.counterexample
    if example is None:
        return "\n".join([cut(f"no counterexample for the hidden failures: {explanation.note}", width)] + lines)
    pointed = example.verdict == Verdict.WA and explanation.one_right_output
    difference = first_difference(explanation.expected_text, example.got) if pointed else None
    lines.insert(0, cut(f"counterexample (an input of the judge's own, not a hidden case; found in "
                        f"{explanation.seconds:.1f} s): {example.verdict} - {example.message}", width))
    texts = [(explanation.input_label, explanation.input_text, None),
             (expected_label(explanation.one_right_output), explanation.expected_text, difference),
             ("got", example.got, difference)]
    cut_short = False
    for label, text, where in texts:
        lines.append(f"{label}:")
        if not text and label == "got":
            lines.append("  (no output)")
            continue
        shown = [visible(text.rstrip("\n"))] if whole else excerpt(text, where, width)
        cut_short = cut_short or any(line.endswith((ELLIPSIS, "more lines)", "lines before)")) for line in shown)
        lines += shown
    if difference is not None:
        lines.append(f"first difference: line {difference.line + 1}, column {difference.column + 1}")
    if show_hint and cut_short:
        lines.append(cut(f"(run again with --show {SHOW_COUNTEREXAMPLE} to see all of it)", width))
    return "\n".join(lines)



def render_case_in_full(result: SubmissionResult, view: SampleView) -> str:
    """One sample case in full: its verdict, input, expected output and the program's output
    (control characters shown as escapes, lines kept)."""
    case = next(case for case in result.cases if case.name == view.name)
    lines = [f"{case.name}: {case.verdict}" + (f" - {case.message}" if case.message else ""), "",
             f"{view.input_label}:", view.input.rstrip("\n"), "", f"{view.expected_label}:", view.expected.rstrip("\n"), "",
             "got:", view.got.rstrip("\n") if view.got is not None else "(no output)"]
    if view.difference is not None:
        where = view.difference
        lines += ["", f"first difference: line {where.line + 1}, column {where.column + 1}"]
    if result.compile_message:
        lines += ["", "compiler says:", result.compile_message]
    return visible("\n".join(lines))


def _milliseconds(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.0f}"  # None: not shown (judge/model/feedback.py)


def _memory(kb: int | None) -> str:
    return f"{kb / 1024:.1f} MiB" if kb else "-"
