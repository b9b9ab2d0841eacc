"""Which files of a submissions folder are graded, and what is refused: file names as students
write them, symbolic links (never followed), and compiler messages fit for a report."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, run_judge
from test_grading import SOLUTIONS, make_class

from judge.classroom.grading import NoSubmissions, Skipped, discover
from judge.languages.base import COMPILER_MESSAGE_CHARS, COMPILER_MESSAGE_LINES, read_source, trim_message

PROBLEMS = ["footholds", "omok", "sokoban", "stones", "yutnori"]
SECRET = "grader-secret-7f3a9c"


def _touch(folder: Path, *names: str) -> Path:
    for name in names:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("print('SK')\n")
    return folder


# --- file names -------------------------------------------------------------------------------

def test_file_names_as_students_write_them(tmp_path):
    folder = _touch(tmp_path, "ana/Stones.PY", "ben/Omok.java", "cy/stones (1).py", "dee/OMOK.cpp")
    found = discover(folder, PROBLEMS)
    assert {(entry.student, entry.problem, entry.path.name) for entry in found.entries} == {
        ("ana", "stones", "Stones.PY"), ("ben", "omok", "Omok.java"), ("cy", "stones", "stones (1).py"),
        ("dee", "omok", "OMOK.cpp")}
    assert found.skipped == []
    assert found.notes == ["cy/stones (1).py: graded as stones (the name of a browser's second download of stones.py)"]


def test_near_misses_are_skipped_with_the_nearest_problem_named(tmp_path):
    folder = _touch(tmp_path, "ana/stone.py", "ben/sokobn.cpp", "cy/Main.java", "dee/chess.py")
    reasons = {item.path: item.reason for item in discover(folder, PROBLEMS).skipped}
    assert "did you mean stones?" in reasons["ana/stone.py"]
    assert "did you mean sokoban?" in reasons["ben/sokobn.cpp"]
    assert "name a Java file after the problem it solves" in reasons["cy/Main.java"]
    assert "not after its class" in reasons["cy/Main.java"]
    assert "no problem called 'chess'" in reasons["dee/chess.py"] and "did you mean" not in reasons["dee/chess.py"]


def test_archive_and_system_litter_is_ignored(tmp_path):
    folder = _touch(tmp_path, "ana/stones.py", "ana/.DS_Store", "ana/._stones.py", "__MACOSX/ana/._stones.py",
                    ".git/config", ".DS_Store", "ana/Thumbs.db")
    found = discover(folder, PROBLEMS)
    assert found.students == ["ana"]
    assert [entry.path.name for entry in found.entries] == ["stones.py"]
    assert found.skipped == [] and found.notes == []


def test_a_file_skipped_for_a_reason_says_which_problem_it_was_for(tmp_path):
    folder = _touch(tmp_path, "ana/stones.rb", "ben/stones.py", "ben/Stones.c")
    found = discover(folder, PROBLEMS)
    assert Skipped("ana/stones.rb", "unsupported file type .rb; skipped", "ana", "stones") in found.skipped
    twice = [item for item in found.skipped if item.student == "ben"]
    assert len(twice) == 1 and twice[0].problem == "stones" and "none graded, keep one" in twice[0].reason


def test_an_empty_submissions_folder_is_an_error(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "loose").mkdir()
    _touch(tmp_path / "loose", "stones.py", "__MACOSX/x")
    with pytest.raises(NoSubmissions, match="holds no student folders"):
        discover(tmp_path / "empty", PROBLEMS)
    with pytest.raises(NoSubmissions, match=r"stones\.py lie in it directly"):
        discover(tmp_path / "loose", PROBLEMS)
    done = run_judge("grade", str(tmp_path / "empty"), "--db", str(tmp_path / "r.db"))
    assert done.returncode == 2 and "holds no student folders" in done.stderr and "Traceback" not in done.stderr


def test_grading_uses_names_as_students_write_them(tmp_path):
    folder = make_class(tmp_path / "subs", {
        "ana/Stones.PY": SOLUTIONS / "stones/accepted/game_dp.py",
        "ana/Omok.java": SOLUTIONS / "omok/accepted/Omok.java",
        "ben/stones (1).c": SOLUTIONS / "stones/accepted/parity.c",
        "cy/stone.py": SOLUTIONS / "stones/accepted/game_dp.py",
        "__MACOSX/ana/._Stones.PY": "junk",
    })
    done = run_judge("grade", str(folder), "--db", str(tmp_path / "r.db"), "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    totals = {student["student"]: student["total"] for student in report["students"]}
    assert totals == {"ana": 200, "ben": 100, "cy": 0}
    issues = "\n".join(report["issues"])
    assert "cy/stone.py: no problem called 'stone'" in issues and "did you mean stones?" in issues
    assert "ben/stones (1).c: graded as stones" in issues
    assert "__MACOSX" not in issues


# --- symbolic links ---------------------------------------------------------------------------

@pytest.fixture
def linked_class(tmp_path: Path) -> Path:
    """A class where eve's submissions are links to the grader's environment and hidden suite,
    and mallory's folder is a link to the example solutions."""
    folder = make_class(tmp_path / "subs", {"ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py"})
    (folder / "eve").mkdir()
    os.symlink("/proc/self/environ", folder / "eve" / "stones.c")
    os.symlink(ROOT / "cases" / "stones.yaml", folder / "eve" / "omok.py")
    os.symlink(SOLUTIONS / "stones" / "accepted", folder / "mallory")
    return folder


def test_symbolic_links_are_never_followed_and_say_why(linked_class):
    found = discover(linked_class, PROBLEMS)
    assert found.students == ["ana", "eve"]
    assert [(entry.student, entry.problem) for entry in found.entries] == [("ana", "stones")]
    by_path = {item.path: item for item in found.skipped}
    assert by_path["eve/stones.c"].problem == "stones" and "symbolic link" in by_path["eve/stones.c"].reason
    assert by_path["eve/omok.py"].problem == "omok" and "symbolic link" in by_path["eve/omok.py"].reason
    assert "symbolic link" in by_path["mallory"].reason


def test_a_linked_submission_leaks_nothing_into_any_report(linked_class, tmp_path):
    env = {"JUDGE_TEST_SECRET": SECRET}
    out = tmp_path / "gradescope"
    done = run_judge("grade", str(linked_class), "--db", str(tmp_path / "r.db"), "--format", "gradescope",
                     "--out", str(out), env=env)
    assert done.returncode == 0, done.stderr
    written = "".join(path.read_text() for path in out.rglob("results.json"))
    assert SECRET not in written and "visibility: hidden" not in written
    for report_format in ("json", "junit", "markdown", "table"):
        text = run_judge("grade", str(linked_class), "--db", str(tmp_path / "r.db"), "--format", report_format,
                         env=env).stdout
        assert SECRET not in text and "PATH=" not in text
        if report_format != "junit":  # the JUnit report lists graded files only
            assert "eve/stones.c: a symbolic link, not followed" in text


def test_sources_are_read_without_following_links(tmp_path):
    target = tmp_path / "real.py"
    target.write_text("print('SK')\n")
    link = tmp_path / "link.py"
    os.symlink(target, link)
    assert read_source(target) == b"print('SK')\n"
    with pytest.raises(OSError):
        read_source(link)


def test_judge_run_follows_ones_own_link_but_not_a_students(tmp_path):
    link = tmp_path / "mine.py"
    os.symlink(SOLUTIONS / "stones/accepted/game_dp.py", link)
    own = run_judge("run", "stones", str(link), "--case", "smallest")
    assert own.returncode == 0, own.stderr
    student = run_judge("run", "stones", str(link), "--student", "eve", "--db", str(tmp_path / "r.db"))
    assert student.returncode == 2 and "symbolic link" in student.stderr


# --- compiler messages ------------------------------------------------------------------------

def test_a_compiler_message_is_bounded_and_carries_no_judge_paths(tmp_path):
    broken = "".join(f"int f{index}(void) {{ return {'x' * 400}{index}; }}\n" for index in range(400))
    folder = make_class(tmp_path / "subs", {"ana/stones.c": broken})
    done = run_judge("grade", str(folder), "--db", str(tmp_path / "r.db"), "--format", "junit")
    assert done.returncode == 0, done.stderr
    message = re.search(r"<failure[^>]*>(.*?)</failure>", done.stdout, re.DOTALL).group(1)
    assert len(message) <= COMPILER_MESSAGE_CHARS * 1.2  # XML escapes lengthen it a little
    assert len(message.splitlines()) <= COMPILER_MESSAGE_LINES + 1
    assert "error" in message and "stones.c" in message
    assert "judge-cache" not in message and "/sandbox/" not in message and "judge-run" not in message


def test_control_characters_and_judge_paths_are_removed_from_messages():
    text = ("/tmp/judge-cache-0/3f2a.k1/main.c:3:5: \x1b[01;31merror\x1b[m: expected ';'\n"
            "/tmp/judge-run-412-abc/work/Main.java:1: error: \x07bell\x00\n"
            "/sandbox/solution.js:1\n\n\n"
            "    3 | #include \"/usr/include/stdio.h\"\n")
    assert trim_message(text) == ("main.c:3:5: error: expected ';'\n"
                                  "Main.java:1: error: bell\n"
                                  "solution.js:1\n"
                                  "    3 | #include \"/usr/include/stdio.h\"")
    flood = "\n".join("e" * 1000 for _ in range(100))
    trimmed = trim_message(flood)
    assert len(trimmed) <= COMPILER_MESSAGE_CHARS
    assert len(trimmed.splitlines()) <= COMPILER_MESSAGE_LINES + 1


def test_files_for_a_problem_that_cannot_be_loaded_are_listed_with_the_reason(tmp_path):
    problems = tmp_path / "problems"
    for folder in ("cases", "reference", "validators", "strategies"):
        shutil.copytree(ROOT / folder, problems / folder)
    (problems / "cases" / "omok.yaml").write_text("id: omok\ntitle: [unclosed\n")
    folder = make_class(tmp_path / "subs", {"ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py",
                                            "ana/omok.py": SOLUTIONS / "omok/accepted/count_both_ways.py"})
    done = run_judge("grade", str(folder), "--db", str(tmp_path / "r.db"), "--problems", str(problems))
    assert done.returncode == 0, done.stderr
    assert "ana/omok.py" in done.stdout and "omok cannot be loaded" in done.stdout
