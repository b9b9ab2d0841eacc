"""The `judge` command as a user types it: exit codes, output formats, errors without tracebacks."""

import json
import re

from conftest import ROOT, built_in_problems, judge_json, run_judge

ACCEPTED = str(ROOT / "solutions/stones/accepted/game_dp.py")
WRONG = str(ROOT / "solutions/stones/wrong_answer/even_wins.py")


def test_run_accepted_prints_a_table_and_exits_0():
    done = run_judge("run", "stones", ACCEPTED)
    assert done.returncode == 0, done.stderr
    assert "verdict" in done.stdout and "CPU ms" in done.stdout
    assert "AC  22/22 cases passed, score 100/100" in done.stdout


def test_run_wrong_exits_1():
    done = run_judge("run", "stones", WRONG)
    assert done.returncode == 1
    assert "WA" in done.stdout


def test_json_has_the_documented_shape():
    data = judge_json("run", "stones", WRONG)
    assert set(data) >= {"problem", "submission", "language", "verdict", "score", "max_score",
                         "passed", "total", "cases"}
    assert data["problem"] == "stones" and data["language"] == "python" and data["verdict"] == "WA"
    assert data["max_score"] == 100 and data["total"] == 22 and 0 <= data["passed"] < 22
    case = data["cases"][0]
    assert set(case) == {"name", "group", "verdict", "cpu_time", "wall_time", "memory_kb", "message", "hint",
                         "description"}
    assert data["feedback"] == "counterexamples"
    assert isinstance(case["cpu_time"], float) and case["cpu_time"] < 5


def test_json_is_one_object_even_for_compile_errors():
    data = judge_json("run", "stones", str(ROOT / "solutions/stones/compile_error/missing_semicolon.c"))
    assert data["verdict"] == "CE" and all(case["verdict"] == "CE" for case in data["cases"])
    assert "error: expected ‘;’ before ‘puts’" in data["cases"][0]["message"]
    assert "missing_semicolon.c:2:" in data["compile_message"] and "main.c" not in data["compile_message"]


def test_one_case_only():
    data = judge_json("run", "stones", ACCEPTED, "--case", "smallest", "--case", "sample-1")
    assert [case["name"] for case in data["cases"]] == ["hidden 1", "sample-1"]  # hidden cases: by number
    again = judge_json("run", "stones", ACCEPTED, "--case", "hidden 1", "--case", "sample-1")  # as reports number it
    assert [case["name"] for case in again["cases"]] == ["hidden 1", "sample-1"]


def test_usage_errors_exit_2_with_one_clear_line(tmp_path):
    unknown = run_judge("run", "chess", ACCEPTED)
    assert unknown.returncode == 2 and "known problems: footholds, omok, sokoban, stones, yutnori" in unknown.stderr
    missing = run_judge("run", "stones", "no/such/file.py")
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    odd = tmp_path / "solution.rb"
    odd.write_text("puts 1")
    language = run_judge("run", "stones", str(odd))
    assert language.returncode == 2 and "cannot tell the language" in language.stderr and "--lang" in language.stderr
    case = run_judge("run", "stones", ACCEPTED, "--case", "nope")
    assert case.returncode == 2 and "no case 'nope'" in case.stderr
    for done in (unknown, missing, language, case):
        assert "Traceback" not in done.stderr


def test_a_program_given_to_a_function_style_problem_is_told_the_declaration():
    done = run_judge("run", "footholds", str(ROOT / "solutions/stones/accepted/parity.c"))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "remove `main` from the file" in done.stdout and "int solution(int** board, size_t board_rows" in done.stdout


def test_lang_overrides_the_extension(tmp_path):
    source = tmp_path / "solution.txt"
    source.write_text("n = int(input())\nprint('SK' if n % 2 else 'CY')\n")
    assert run_judge("run", "stones", str(source), "--lang", "python").returncode == 0


def test_list_and_show():
    listing = run_judge("list")
    assert listing.returncode == 0
    for problem_id in built_in_problems():
        assert problem_id in listing.stdout
    assert "function" in listing.stdout
    show = run_judge("show", "sokoban")
    assert show.returncode == 0 and "Game 2: complete" in show.stdout
    assert show.stdout.splitlines()[0].startswith("# sokoban") and show.stdout.count("Sokoban (BOJ 4577)") == 1
    footholds = run_judge("show", "footholds")
    assert "solution([[1]], [0, 0], [0, 0]) == 0" in footholds.stdout


def test_a_malformed_suite_is_a_clear_error(tmp_path):
    (tmp_path / "cases").mkdir()
    (tmp_path / "cases" / "broken.yaml").write_text("id: broken\ntitle: B\ncases: [{name: a}]\n")
    done = run_judge("run", "broken", ACCEPTED, cwd=tmp_path)
    assert done.returncode == 2
    assert "broken.yaml: case #1 (a): missing field 'input'" in done.stderr
    assert "Traceback" not in done.stderr


def test_help_and_version():
    assert run_judge("--help").returncode == 0
    assert "judge" in run_judge("--version").stdout
    assert run_judge().returncode == 2


def test_doctor_lists_languages_and_sandbox():
    done = run_judge("doctor")
    for name in ("python", "c", "cpp", "java", "javascript"):
        assert name in done.stdout
    assert "sandbox tier:" in done.stdout


def test_json_output_parses_for_a_function_problem():
    data = json.loads(run_judge("run", "footholds", str(ROOT / "solutions/footholds/accepted/minimax.py"),
                                "--format", "json").stdout)
    assert data["verdict"] == "AC" and data["total"] == 46


def _lines_wider_than(text: str, width: int) -> list[str]:
    return [line for line in text.splitlines() if len(line) > width]


def test_the_run_table_fits_80_columns_and_shows_the_failed_sample(tmp_path):
    done = run_judge("run", "stones", WRONG, "--no-record", env={"COLUMNS": "80"})
    assert done.returncode == 1
    assert _lines_wider_than(done.stdout, 80) == []
    rows = [line.replace("hidden ", "hidden-").split() for line in done.stdout.splitlines()
            if line.startswith(("sample-", "hidden ")) and not line.startswith("sample-1:")]
    assert len(rows) == 22 and all(row[1] == "WA" for row in rows)  # case name and verdict never cut
    assert "…" in done.stdout  # the messages are
    block = done.stdout[done.stdout.index("sample-1: WA"):]
    assert block.splitlines()[:9] == [
        "sample-1: WA - line 1, token 1: expected 'SK', got 'CY'",
        "input:", "  1 | 5",
        "expected:", "> 1 | SK", "      ^",
        "got:", "> 1 | CY", "      ^"]
    assert "--show sample-1" in block


def test_the_difference_is_found_deep_in_a_long_output(tmp_path):
    solution = tmp_path / "sok.py"
    # Sokoban's first sample, printed right but for one letter of its last game's board.
    from judge.formats.catalog import load_problem
    from judge.problem_code.reference import expected_output
    problem = load_problem("sokoban")
    sample = next(case for case in problem.cases if case.visibility == "sample")
    expected = str(expected_output(problem, sample))
    lines = expected.splitlines()
    wrong = lines[:-2] + [lines[-2][:-1] + "?", lines[-1]]
    solution.write_text(f"import sys\nsys.stdin.read()\nprint({chr(10).join(wrong)!r})\n")
    done = run_judge("run", "sokoban", str(solution), "--no-record", "--case", sample.name, env={"COLUMNS": "70"})
    assert _lines_wider_than(done.stdout, 70) == []
    number = len(lines) - 1
    assert f"> {number} | {lines[-2]}" in done.stdout and f"> {number} | {wrong[-2]}" in done.stdout
    assert f"({len(lines) - 3} lines before)" in done.stdout


def test_show_prints_one_sample_case_in_full_and_keeps_hidden_ones_hidden():
    done = run_judge("run", "stones", WRONG, "--show", "sample-1")
    assert done.returncode == 1
    assert done.stdout.split("\n\n")[1:4] == ["input:\n5", "expected:\nSK", "got:\nCY"]
    assert "first difference: line 1, column 1" in done.stdout
    hidden = run_judge("run", "stones", WRONG, "--show", "smallest-even")
    assert hidden.returncode == 2 and hidden.stdout == ""
    assert hidden.stderr.strip() == ("judge: error: case smallest-even of stones is hidden; only sample cases can be "
                                     "shown (samples: sample-1)")


def test_a_compile_error_is_printed_once():
    done = run_judge("run", "stones", str(ROOT / "solutions/stones/compile_error/missing_semicolon.c"),
                     env={"COLUMNS": "200"})
    assert done.returncode == 1
    assert done.stdout.count("expected ‘;’ before ‘puts’") == 1
    # One row for the 22 cases, none of which ran; the compiler names the student's own file.
    assert done.stdout.count("see the compiler message below") == 1
    assert re.search(r"^all 22 +CE +0 +0 +- +see the compiler message below$", done.stdout, re.MULTILINE), done.stdout
    assert "missing_semicolon.c:2:" in done.stdout and "main.c" not in done.stdout
