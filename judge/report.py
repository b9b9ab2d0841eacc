"""Rendering results for people (tables) and machines (JSON). No judging logic here."""

from __future__ import annotations

import json
from typing import Any

from tabulate import tabulate

from judge.runner import SubmissionResult


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
        "cases": [
            {"name": case.name, "group": case.group, "verdict": case.verdict,
             "cpu_time": case.cpu_time, "wall_time": case.wall_time,
             "memory_kb": case.memory_kb, "message": case.message}
            for case in result.cases
        ],
    }


def render_json(result: SubmissionResult) -> str:
    return json.dumps(result_to_json(result), indent=2, ensure_ascii=False)


def render_table(result: SubmissionResult) -> str:
    """Per-case table, then the compiler's message (if any) and a summary line with the score."""
    rows = [[case.name, case.verdict, f"{case.cpu_time * 1000:.0f}", f"{case.wall_time * 1000:.0f}",
             _memory(case.memory_kb), case.message] for case in result.cases]
    parts = [tabulate(rows, headers=["case", "verdict", "CPU ms", "wall ms", "memory", "message"],
                      tablefmt="simple", disable_numparse=True)]
    if result.compile_message:
        parts.append("\ncompiler says:\n" + result.compile_message)
    score = f"score {result.score:g}/{result.max_score:g}" if not result.partial else "no score: only some cases ran"
    parts.append(f"\n{result.verdict}  {result.passed}/{result.total} cases passed, "
                 f"{score}  ({result.problem}, {result.language})")
    return "\n".join(parts)


def _memory(kb: int) -> str:
    return f"{kb / 1024:.1f} MiB" if kb else "-"
