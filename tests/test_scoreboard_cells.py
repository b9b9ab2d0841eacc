"""The scoreboard's cells as contestants read them: solved, solved first, tried and failed, pending
(being judged, or made after the freeze), each with its text (tries and minute, or score) and a
label in words; the terminal's colours (ANSI on a terminal only, never with NO_COLOR) over a table
that reads the same without them; the live page's colours, legend and CSP."""

from __future__ import annotations

import os
import pty
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from page_policy import assert_only_its_own_script_and_style

from judge.classroom.store import Store, read_history
from judge.formats.catalog import load_problem
from judge.scoreboard.feed import standings_json
from judge.scoreboard.standings import FAILED, FIRST, PENDING, SOLVED, UNTRIED, scoreboard
from judge.scoreboard.table import CELL_STYLES, render_scoreboard

START = 1_000_000.0
SOLUTIONS = ROOT / "solutions"
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def row(student: str, problem: str, verdict: str | None, minutes: float, score: float | None = None) -> dict:
    """A history row as judge/classroom/store.py reads it (verdict None: still being judged)."""
    if score is None and verdict is not None:
        score = 100 if verdict == "AC" else 0
    return {"student": student, "problem": problem, "verdict": verdict, "score": score,
            "max_score": None if verdict is None else 100, "submitted_at": START + minutes * 60}


CONTEST = [
    row("ana", "p", "WA", 0), row("ana", "p", "WA", 5), row("ana", "p", "AC", 47),  # solved, third try
    row("bo", "p", "AC", 30),  # the first to solve p
    row("bo", "q", "WA", 31), row("bo", "q", "TLE", 40),  # tried twice, failed
    row("cy", "q", "RE", 50), row("cy", "q", None, 55),  # one rejected, one being judged
]


def cells(board) -> dict[tuple[str, str], object]:
    return {(s.student, p): board.cell(s, p) for s in board.standings for p in board.problems}


def test_each_icpc_cell_has_its_state_tries_and_minute():
    board = scoreboard(CONTEST, "icpc")
    by_cell = cells(board)
    states = {key: cell.state for key, cell in by_cell.items()}
    assert states == {("ana", "p"): SOLVED, ("ana", "q"): UNTRIED, ("bo", "p"): FIRST, ("bo", "q"): FAILED,
                      ("cy", "p"): UNTRIED, ("cy", "q"): PENDING}
    texts = {key: cell.text() for key, cell in by_cell.items()}
    assert texts == {("ana", "p"): "3 / 47", ("ana", "q"): "", ("bo", "p"): "1 / 30 *", ("bo", "q"): "2 / -",
                     ("cy", "p"): "", ("cy", "q"): "1 + 1 ?"}
    assert by_cell["ana", "p"].label() == "solved at minute 47, in 3 tries"
    assert by_cell["bo", "p"].label() == "solved first (the first to solve it) at minute 30, in 1 try"
    assert by_cell["bo", "q"].label() == "not solved: 2 tries rejected"
    assert by_cell["cy", "q"].label() == "pending: 1 submission not judged yet, after 1 rejected try"
    assert by_cell["ana", "q"].label() == "not tried"
    # The standings count only what is judged: ana's penalty is 47 + 2 * 20, cy's pending counts nothing.
    assert [(s.student, s.rank, s.total, s.penalty) for s in board.standings] == [
        ("bo", 1, 1, 30), ("ana", 2, 1, 87), ("cy", 3, 0, 0)]


def test_a_compile_error_is_no_icpc_try_and_costs_no_penalty():
    board = scoreboard([row("ana", "p", "CE", 1), row("ana", "p", "WA", 2), row("ana", "p", "CE", 3),
                        row("ana", "p", "AC", 10), row("bo", "p", "CE", 4)], "icpc")
    by_cell = cells(board)
    assert by_cell["ana", "p"].text() == "2 / 9 *"  # the contest starts at the first submission, minute 1 and by_cell["bo", "p"].state == UNTRIED
    assert [(s.student, s.penalty) for s in board.standings] == [("ana", 29), ("bo", 0)]


def test_an_accepted_submission_after_one_still_being_judged_is_pending_not_solved():
    board = scoreboard([row("ana", "p", None, 1), row("ana", "p", "AC", 2)], "icpc")
    cell = board.cell(board.standings[0], "p")
    assert cell.state == PENDING and board.standings[0].total == 0


def test_the_first_solve_is_the_earliest_accepted_of_each_problem_and_ties_share_it():
    history = [row("ana", "p", "AC", 10), row("bo", "p", "AC", 5), row("cy", "q", "AC", 20), row("dee", "q", "AC", 20),
               row("eve", "q", "AC", 21)]
    for mode in ("icpc", "ioi"):
        states = {key: cell.state for key, cell in cells(scoreboard(history, mode)).items() if cell.state != UNTRIED}
        assert states == {("ana", "p"): SOLVED, ("bo", "p"): FIRST, ("cy", "q"): FIRST, ("dee", "q"): FIRST,
                          ("eve", "q"): SOLVED}, mode


def test_ioi_cells_are_the_best_score_solved_at_the_full_score():
    history = [row("ana", "p", "WA", 0, 40), row("ana", "p", "WA", 3, 70), row("bo", "p", "WA", 4, 20),
               row("bo", "p", "AC", 9, 100), row("cy", "p", "WA", 1, 10), row("cy", "p", None, 11)]
    by_cell = cells(scoreboard(history, "ioi"))
    assert {key[0]: (cell.state, cell.text()) for key, cell in by_cell.items()} == {
        "ana": (FAILED, "70"), "bo": (FIRST, "100 *"), "cy": (PENDING, "10 + 1 ?")}
    assert by_cell["ana", "p"].label() == "not solved: 70 of 100 points in 2 tries"
    assert by_cell["bo", "p"].label() == "solved first (the first to solve it): 100 of 100 points, in 2 tries"
    assert by_cell["cy", "p"].label() == "pending: 1 submission not judged yet, 10 points so far"


def test_after_the_freeze_cells_are_pending_with_the_count_of_tries_and_the_board_says_since_when():
    history = [*CONTEST, row("ana", "q", "AC", 61), row("ana", "q", "WA", 62), row("bo", "q", "AC", 70),
               row("ana", "p", "WA", 80)]
    board = scoreboard(history, "icpc", freeze_at_minutes=60)
    by_cell = cells(board)
    assert (by_cell["ana", "q"].state, by_cell["ana", "q"].text()) == (PENDING, "0 + 2 ?")
    assert by_cell["ana", "q"].label() == "pending: 2 submissions after the freeze"
    assert (by_cell["bo", "q"].state, by_cell["bo", "q"].text()) == (PENDING, "2 + 1 ?")
    assert by_cell["bo", "q"].label() == "pending: 1 submission after the freeze, after 2 rejected tries"
    assert by_cell["ana", "p"].text() == "3 / 47"  # solved before the freeze: what follows does not count
    assert by_cell["cy", "q"].label() == "pending: 1 submission not judged yet, after 1 rejected try"
    assert [(s.student, s.total, s.penalty) for s in board.standings] == [("bo", 1, 30), ("ana", 1, 87), ("cy", 0, 0)]
    assert board.frozen_at == START + 3600
    banner = board.freeze_banner()
    assert banner.startswith("The scoreboard is frozen since ") and "60 minutes after the first submission" in banner
    assert "pending (?)" in banner
    assert scoreboard(history, "icpc").freeze_banner() == ""


def test_the_page_reads_each_cells_state_text_and_label():
    data = standings_json(scoreboard(CONTEST, "icpc"))
    by_student = {entry["student"]: entry["cells"] for entry in data["rows"]}
    assert data["headers"] == ["rank", "student", "p", "q", "solved", "penalty"]
    assert by_student["bo"] == [
        {"state": FIRST, "text": "1 / 30 *", "label": "bo, p: solved first (the first to solve it) at minute 30, in 1 try"},
        {"state": FAILED, "text": "2 / -", "label": "bo, q: not solved: 2 tries rejected"}]
    assert by_student["cy"][1] == {"state": PENDING, "text": "1 + 1 ?",
                                   "label": "cy, q: pending: 1 submission not judged yet, after 1 rejected try"}
    assert not data["frozen"] and data["frozen_since"] == ""
    frozen = standings_json(scoreboard(CONTEST, "icpc", freeze_at_minutes=40))
    assert frozen["frozen"] and frozen["freeze_at_minutes"] == 40 and "frozen since" in frozen["frozen_since"]


def test_an_assignments_board_has_its_problems_at_its_points_even_those_nobody_tried():
    scaled = {**row("ana", "p", "AC", 1), "score": 60, "max_score": 60}  # as assignment_history scales it
    board = scoreboard([scaled], "ioi", points={"p": 60, "q": 40})
    data = standings_json(board)
    assert data["problems"] == ["p", "q"]
    assert data["headers"] == ["rank", "student", "p /60", "q /40", "total /100"]
    assert [cell["state"] for cell in data["rows"][0]["cells"]] == [FIRST, UNTRIED]


# --- the terminal ------------------------------------------------------------------------------

def test_the_terminal_form_colours_each_state_and_reads_the_same_without_colour():
    board = scoreboard(CONTEST, "icpc")
    plain, coloured = render_scoreboard(board), render_scoreboard(board, colour=True)
    assert "\x1b" not in plain
    assert ANSI.sub("", coloured) == plain  # colour changes no character of the layout
    for state, text in ((FIRST, "1 / 30 *"), (SOLVED, "3 / 47"), (FAILED, "2 / -"), (PENDING, "1 + 1 ?")):
        assert f"\x1b[{CELL_STYLES[state]}m{text}\x1b[0m" in coloured, state
    # The legend explains the states in words, with an example cell each (coloured as the cells are).
    assert "3 / 47 *  solved first: the first to solve the problem" in plain
    assert "1 + 2 ?   pending: judged tries + submissions not judged yet or made after the freeze" in plain
    assert f"\x1b[{CELL_STYLES[FAILED]}m3 / -\x1b[0m" in coloured
    frozen = render_scoreboard(scoreboard(CONTEST, "icpc", freeze_at_minutes=20))
    assert frozen.splitlines()[-1].startswith("The scoreboard is frozen since ")


@pytest.fixture(scope="module")
def store_with_one_judging(tmp_path_factory) -> Path:
    """A real results store: ana's stones accepted, ben's WA, and cy's recorded but not judged yet
    (as a running `judge grade` leaves it between its first and last case)."""
    base = tmp_path_factory.mktemp("store")
    problem = load_problem("stones", ROOT)
    store = Store(base / "results.db")
    for student, source, verdict, minutes in (("ana", "accepted/game_dp.py", "AC", 0),
                                              ("ben", "wrong_answer/even_wins.py", "WA", 3)):
        submission, _ = store.submission(student, problem, SOLUTIONS / "stones" / source, "python",
                                         submitted_at=START + minutes * 60)
        store.complete(submission, verdict, 100 if verdict == "AC" else 0, 100, "")
    store.submission("cy", problem, SOLUTIONS / "stones/accepted/parity.c", "c", submitted_at=START + 600)
    store.close()
    return base / "results.db"


def test_the_store_gives_the_submissions_being_judged_as_pending(store_with_one_judging, tmp_path):
    db = store_with_one_judging
    assert [r["student"] for r in read_history(db)] == ["ana", "ben"]
    judging = read_history(db, judging=True)
    assert [(r["student"], r["verdict"]) for r in judging] == [("ana", "AC"), ("ben", "WA"), ("cy", None)]
    cell = scoreboard(judging, "icpc").standings[-1].cells["stones"]
    assert (cell.state, cell.text()) == (PENDING, "0 + 1 ?")
    # An unfinished row of a file that was judged to the end since (the problem changed in between)
    # is a leftover, not a submission waiting.
    copy = tmp_path / "results.db"
    copy.write_bytes(db.read_bytes())
    with sqlite3.connect(copy) as connection:
        connection.execute("INSERT INTO submissions (student, problem, path, language, source_hash, suite_hash, "
                           "judge_version, submitted_at) SELECT student, problem, path, language, source_hash, "
                           "'an older suite', judge_version, submitted_at FROM submissions WHERE student='ana'")
    assert [r["student"] for r in read_history(copy, judging=True)] == ["ana", "ben", "cy"]


def scoreboard_on_a_terminal(db: Path, **environment: str) -> str:
    """`judge scoreboard --mode icpc` with its standard output on a pseudo-terminal; what it printed."""
    leader, follower = pty.openpty()
    env = {name: value for name, value in os.environ.items() if name not in ("NO_COLOR", "TERM")}
    env.update({"COLUMNS": "120", "TERM": "xterm", **environment})
    process = subprocess.Popen([sys.executable, "-m", "judge", "scoreboard", "--db", str(db), "--mode", "icpc"],
                               cwd=ROOT, stdout=follower, stderr=subprocess.PIPE, env=env)
    os.close(follower)
    output = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # the terminal closed: the process is done writing
            break
        if not chunk:
            break
        output += chunk
    os.close(leader)
    assert process.wait(timeout=60) == 0, process.stderr.read()
    return output.decode("utf-8").replace("\r\n", "\n")


def test_the_command_colours_on_a_terminal_only_and_never_with_no_color(store_with_one_judging):
    db = store_with_one_judging
    on_terminal = scoreboard_on_a_terminal(db)
    assert f"\x1b[{CELL_STYLES[FIRST]}m1 / 0 *\x1b[0m" in on_terminal
    assert f"\x1b[{CELL_STYLES[FAILED]}m1 / -\x1b[0m" in on_terminal
    assert f"\x1b[{CELL_STYLES[PENDING]}m0 + 1 ?\x1b[0m" in on_terminal
    assert "\x1b" not in scoreboard_on_a_terminal(db, NO_COLOR="1")
    assert "\x1b" not in scoreboard_on_a_terminal(db, TERM="dumb")
    piped = subprocess.run([sys.executable, "-m", "judge", "scoreboard", "--db", str(db), "--mode", "icpc"],
                           check=False, cwd=ROOT, capture_output=True, text=True, env={**os.environ, "COLUMNS": "120"})
    assert piped.returncode == 0 and "\x1b" not in piped.stdout
    assert ANSI.sub("", on_terminal).strip() == piped.stdout.strip()


# --- the page's colours and policy -------------------------------------------------------------

def relative_luminance(colour: str) -> float:
    """WCAG 2's relative luminance of a #rrggbb colour."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    light, dark = sorted((relative_luminance(one), relative_luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_every_states_colours_meet_the_contrast_for_text():
    css = (ROOT / "judge/renderers/templates/scoreboard.css").read_text()
    found = re.findall(r"^\.state-(\w+) \{ background: (#[0-9a-f]{6}); color: (#[0-9a-f]{6})", css, re.MULTILINE)
    rules = {state: (background, text) for state, background, text in found}
    assert set(rules) == {FIRST, SOLVED, FAILED, PENDING, UNTRIED}
    for state, (background, text) in rules.items():
        assert contrast(background, text) >= 4.5, (state, background, text, contrast(background, text))
    # Each state is told apart from the others by its colour too, not only by its text.
    assert len({background for background, _ in rules.values()}) == len(rules)


def test_the_page_allows_only_its_own_script_and_style_sheet_and_explains_every_state():
    from judge.classroom.assignment import Assignment
    from judge.scoreboard.server import _page

    page = _page("icpc", 60, Assignment("Week 3", {"p": 60, "q": 40}))
    assert_only_its_own_script_and_style(page)
    legend = re.search(r'<section class="legend".*?</section>', page, re.DOTALL).group(0)
    for state in (FIRST, SOLVED, FAILED, PENDING, UNTRIED):
        assert f'data-state="{state}"' in legend and f"state-{state}" in legend
    assert "solved first: the first to solve the problem" in legend
    assert "Scoreboard: Week 3" in page and "frozen 60 minutes after the first submission" in page
