"""Control characters and bidirectional overrides from submissions, student names and programs
are shown as visible escapes in every report meant for people, and each format stays valid
(JUnit's XML well-formed, JSON with the true strings). The CLI tests run the real `judge`."""

from __future__ import annotations

import json
import os
import shutil
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest
from conftest import ROOT, run_judge

from judge.text.output_diff import Difference, excerpt
from judge.text.visible_text import visible

ESC_NAME, CONTROL_NAME, REVERSED_NAME = "esc\x1b]0;pwned\x07", "one\x01", "rtl\u202etxt.exe"
ACTING = ("\x1b", "\x01", "\x07", "\u202e")
# Prints screen-clearing and title-setting sequences and a right-to-left override, then fails.
LOUD_OUTPUT = 'print("\\x1b[2J\\x1b]0;title\\x07SK\\u202e")\n'
LOUD_ERROR = 'import sys\nsys.stderr.write("boom \\x1b[31m\\u202e\\n")\nraise SystemExit(3)\n'


def test_controls_and_bidirectional_formatting_become_escapes():
    assert visible("a\x1b[2Jb\x00\x7f\x85\u202e\u2066\u200f") == "a\\x1b[2Jb\\x00\\x7f\\x85\\u202e\\u2066\\u200f"
    assert visible("two\tcolumns\nand lines\r") == "two\tcolumns\nand lines\\x0d"
    assert visible("two\tcolumns\n", one_line=True) == "two\\x09columns\\x0a"
    assert visible("bad\udcff name") == "bad\\xff name"  # a byte of a file name that is not UTF-8
    assert visible("plain, ünïcödé, 😀, back\\slash") == "plain, ünïcödé, 😀, back\\slash"
    assert visible(visible("\x1b\u202e")) == visible("\x1b\u202e")


def test_the_caret_stays_under_the_difference_after_escapes():
    shown = excerpt("\x1b\x1bSK\n", Difference(0, 2), width=80)
    assert shown[0].endswith("| \\x1b\\x1bSK")
    assert shown[1].index("^") == shown[0].index("S")


def assert_shown_visibly(text: str, *escaped: str) -> None:
    assert not any(char in text for char in ACTING), text
    for form in escaped:
        assert form in text, text


@pytest.fixture(scope="module")
def loud_class(tmp_path_factory) -> tuple[Path, Path]:
    """A class folder whose student names hold ESC, U+0001 and U+202E; one student's output and
    another's stderr hold terminal sequences; one file name holds ESC. Returns (folder, store)."""
    folder = tmp_path_factory.mktemp("class")
    accepted = ROOT / "solutions" / "stones" / "accepted" / "game_dp.py"
    for name in (ESC_NAME, CONTROL_NAME, REVERSED_NAME):
        (folder / name).mkdir()
    shutil.copy(accepted, folder / ESC_NAME / "stones.py")
    (folder / CONTROL_NAME / "stones.py").write_text(LOUD_OUTPUT)
    (folder / REVERSED_NAME / "stones.py").write_text(LOUD_ERROR)
    shutil.copy(accepted, folder / REVERSED_NAME / "sto\x1bnes.py")
    return folder, folder.parent / "results.db"


def grade(loud_class, *options: str):
    folder, db = loud_class
    done = run_judge("grade", str(folder), "--db", str(db), *options)
    assert done.returncode == 0, done.stderr
    return done


# Markdown writes a backslash as \\, which it renders as one.
@pytest.mark.parametrize("format_name, backslash", [("table", "\\"), ("markdown", "\\\\")])
def test_grade_tables_show_names_visibly(loud_class, format_name, backslash):
    done = grade(loud_class, "--format", format_name)
    forms = ["esc\\x1b]0;pwned\\x07", "one\\x01", "rtl\\u202etxt.exe", "sto\\x1bnes.py"]
    assert_shown_visibly(done.stdout + done.stderr, *[form.replace("\\", backslash) for form in forms])


def test_the_scoreboard_shows_names_visibly(loud_class):
    grade(loud_class)
    done = run_judge("scoreboard", "--db", str(loud_class[1]))
    assert_shown_visibly(done.stdout + done.stderr, "esc\\x1b]0;pwned\\x07", "one\\x01", "rtl\\u202etxt.exe")


def test_the_junit_report_is_well_formed_whatever_the_names(loud_class):
    done = grade(loud_class, "--format", "junit")
    assert_shown_visibly(done.stdout + done.stderr)
    suites = [suite.get("name") for suite in ET.fromstring(done.stdout.encode())]
    assert suites[:3] == ["esc\\x1b]0;pwned\\x07.stones", "one\\x01.stones", "rtl\\u202etxt.exe.stones"]
    assert "not graded" in suites


def test_the_json_report_keeps_the_true_names(loud_class):
    report = json.loads(grade(loud_class, "--format", "json").stdout)
    assert {student["student"] for student in report["students"]} == {ESC_NAME, CONTROL_NAME, REVERSED_NAME}
    assert report["not_graded"][0]["file"] == "sto\x1bnes.py"


class Texts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def handle_data(self, data: str) -> None:
        self.texts.append(data)


def test_the_html_report_shows_names_and_output_visibly(loud_class, tmp_path):
    page = tmp_path / "report.html"
    grade(loud_class, "--format", "html", "--out", str(page))
    text = page.read_text(encoding="utf-8")
    assert_shown_visibly(text)
    parser = Texts()
    parser.feed(text)
    parser.close()
    shown = "".join(parser.texts)
    for form in ("esc\\x1b]0;pwned\\x07", "rtl\\u202etxt.exe", "\\x1b[2J\\x1b]0;title\\x07SK\\u202e"):
        assert form in shown


def test_run_shows_output_and_errors_visibly(tmp_path):
    source = tmp_path / "loud.py"
    source.write_text(LOUD_OUTPUT)
    db = str(tmp_path / "results.db")
    done = run_judge("run", "stones", str(source), "--db", db)
    assert_shown_visibly(done.stdout + done.stderr, "got:\n> 1 | \\x1b[2J\\x1b]0;title\\x07SK\\u202e")
    shown = run_judge("run", "stones", str(source), "--db", db, "--show", "sample-1")
    assert_shown_visibly(shown.stdout + shown.stderr, "got:\n\\x1b[2J\\x1b]0;title\\x07SK\\u202e")
    source.write_text(LOUD_ERROR)
    failed = run_judge("run", "stones", str(source), "--db", db)
    assert_shown_visibly(failed.stdout + failed.stderr, "boom \\x1b[31m\\u202e")


def test_a_validator_message_quoting_the_output_is_shown_visibly(tmp_path):
    source = tmp_path / "loud.py"  # the doubler package's validator says "sent N, got <the line>"
    source.write_text('print("\\x1b[2J\\x1b]0;title\\x07\\u202e", flush=True)\n')
    package = tmp_path / "doubler"  # its first secret case made a sample, whose message a student's report shows
    shutil.copytree(ROOT / "tests" / "packages" / "doubler", package, symlinks=True)
    for ending in (".in", ".ans"):
        (package / "data" / "secret" / f"01{ending}").rename(package / "data" / "sample" / f"01{ending}")
    # Wide enough that the table does not cut the message short.
    done = run_judge("run", str(package), str(source), "--db", str(tmp_path / "r.db"), env={"COLUMNS": "200"})
    assert_shown_visibly(done.stdout + done.stderr, "sent 3, got \\x1b[2J\\x1b]0;title\\x07\\u202e")


def test_stress_shows_the_counterexamples_output_visibly(tmp_path):
    source = tmp_path / "loud.py"
    source.write_text(LOUD_OUTPUT)
    done = run_judge("stress", "stones", str(source), "--examples", "5")
    assert done.returncode == 1, done.stderr
    assert_shown_visibly(done.stdout + done.stderr, "got:\n\\x1b[2J\\x1b]0;title\\x07SK\\u202e")


def test_an_error_naming_a_file_shows_it_visibly(tmp_path):
    done = run_judge("run", "stones", str(tmp_path / "gone\x1b]0;x\x07.py"))
    assert done.returncode == 2
    assert_shown_visibly(done.stderr, "gone\\x1b]0;x\\x07.py")


def test_names_that_are_not_utf8_are_not_graded_and_every_format_still_works(tmp_path):
    folder = tmp_path / "class"
    (folder / "ana").mkdir(parents=True)
    accepted = ROOT / "solutions" / "stones" / "accepted" / "game_dp.py"
    shutil.copy(accepted, folder / "ana" / "stones.py")
    bytes_folder = bytes(folder)
    os.mkdir(bytes_folder + b"/bad\xff")
    shutil.copy(accepted, bytes_folder + b"/bad\xff/stones.py")
    shutil.copy(accepted, bytes_folder + b"/ana/st\xfeones.py")
    db = str(tmp_path / "results.db")
    table = run_judge("grade", str(folder), "--db", db)
    assert table.returncode == 0, table.stderr
    assert "bad\\xff: its name is not UTF-8 (rename it); skipped" in table.stdout
    assert "ana/st\\xfeones.py: its name is not UTF-8" in table.stdout
    report = json.loads(run_judge("grade", str(folder), "--db", db, "--format", "json").stdout)
    assert [student["student"] for student in report["students"]] == ["ana"]
    assert {entry["student"] for entry in report["not_graded"]} == {"ana", "bad\\xff"}
    ET.fromstring(run_judge("grade", str(folder), "--db", db, "--format", "junit").stdout.encode())
