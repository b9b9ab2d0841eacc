"""The scoreboard as a terminal table: its columns, its cells coloured by state, the legend and
the freeze's banner."""

from __future__ import annotations

from judge.scoreboard.standings import FAILED, FIRST, PENDING, SOLVED, Scoreboard, legend
from judge.text.terminal import coloured, fitted_table

# Each scoreboard state's colour in a terminal (ANSI): dark text on green, a brighter green in bold
# for a first solve, red, and cyan, as DOMjudge's board colours them; the text says the state too.
CELL_STYLES = {FIRST: "1;30;102", SOLVED: "30;42", FAILED: "30;101", PENDING: "30;106"}


def scoreboard_headers(board: Scoreboard) -> list[str]:
    """The columns: with an assignment's points (IOI), each problem with its points ("stones /60")."""
    icpc = board.mode == "icpc"
    points = board.points if board.points is not None and not icpc else None
    problems = [f"{p} /{points[p]:g}" for p in board.problems] if points else list(board.problems)
    total = "solved" if icpc else f"total /{sum(points.values()):g}" if points else "total"
    return ["rank", "student", *problems, total] + (["penalty"] if icpc else [])


def render_scoreboard(board: Scoreboard, colour: bool = False) -> str:
    """The scoreboard as a terminal table, its cells coloured by state when ``colour``, with the
    legend and, when frozen, since when."""
    icpc = board.mode == "icpc"
    if not board.standings:
        return "no recorded results yet"
    cells = [[board.cell(s, p) for p in board.problems] for s in board.standings]
    rows = [[str(s.rank), s.student, *[c.text() for c in row], f"{s.total:g}"] + ([str(s.penalty)] if icpc else [])
            for s, row in zip(board.standings, cells)]
    styles = [["", "", *[CELL_STYLES.get(c.state, "") for c in row], ""] + ([""] if icpc else [])
              for row in cells] if colour else None
    text = fitted_table(rows, scoreboard_headers(board), shrinkable=[1], styles=styles)
    examples = legend(board.mode)
    width = max(len(example) for _, example, _ in examples)
    text += "\n\n" + "\n".join(f"{coloured(example, CELL_STYLES[state]) if colour else example}"
                                 f"{' ' * (width - len(example))}  {meaning}" for state, example, meaning in examples)
    if board.frozen_at is not None:
        text += "\n\n" + board.freeze_banner()
    return text
