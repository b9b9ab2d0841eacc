"""What a new user meets in the first hour: authoring mistakes that must not pass silently,
clear errors from the pytest plugin, honest summaries."""

from __future__ import annotations

import shutil

import pytest
import yaml  # noqa: F401 - imported before any in-process pytester run (see test_pytest_plugin.py)
from conftest import ROOT, judge_json, project_with, run_judge


def test_a_broken_suite_is_listed_as_broken_and_the_rest_still_are(tmp_path):
    project = project_with(tmp_path, "stones")
    project_with(tmp_path, "omok")
    (project / "cases/omok.yaml").write_text("id: omok\ntitle: Omok\nlimit: {time: 1}\ncases: [{name: a, input: x}]\n")
    listing = run_judge("list", "--problems", str(project))
    assert listing.returncode == 1
    omok = next(line for line in listing.stdout.splitlines() if line.startswith("omok"))
    assert "BROKEN" in omok and "did you mean 'limits'" in omok
    assert any(line.startswith("stones") and "Stone Game" in line for line in listing.stdout.splitlines())


def test_judge_test_checks_the_stress_strategies(tmp_path):
    project = project_with(tmp_path, "stones")
    (project / "strategies/stones.py").write_text(
        "from hypothesis import strategies as st\n\ndef inputs():\n    return st.just('0\\n')\n")
    done = run_judge("test", "stones", "--problems", str(project))
    assert done.returncode == 1 and "strategies" in done.stdout and "validator rejects" in done.stdout
    (project / "strategies/stones.py").unlink()
    done = run_judge("test", "stones", "--problems", str(project))
    assert done.returncode == 1 and "strategies/stones.py is missing" in done.stdout


@pytest.mark.parametrize("generated, status, stream, says", [
    ("0\\n", 2, "stderr", "validator rejects"),  # not a valid input
    ("2\\n", 1, "stdout", "already has this input as case"),  # the suite's case smallest-even
])
def test_stress_save_refuses_invalid_and_duplicate_inputs(tmp_path, generated, status, stream, says):
    project = project_with(tmp_path, "stones")
    (project / "strategies/stones.py").write_text(
        f"from hypothesis import strategies as st\n\ndef inputs():\n    return st.just('{generated}')\n")
    wrong = ROOT / "solutions/stones/wrong_answer/even_wins.py"
    before = (project / "cases/stones.yaml").read_text()
    done = run_judge("stress", "stones", str(wrong), "--save", "--examples", "5", "--problems", str(project))
    assert done.returncode == status and says in getattr(done, stream), done.stdout + done.stderr
    assert (project / "cases/stones.yaml").read_text() == before


def test_a_run_of_some_cases_gives_no_score(tmp_path):
    done = run_judge("run", "stones", str(ROOT / "solutions/stones/accepted/game_dp.py"), "--case", "smallest")
    assert "1/1 cases passed, no score" in done.stdout and "100/100" not in done.stdout


def test_the_store_says_where_it_is_made(tmp_path):
    solution = ROOT / "solutions/stones/accepted/game_dp.py"
    first = run_judge("run", "stones", str(solution), cwd=tmp_path)
    assert "new store .judge/results.db" in first.stderr
    second = run_judge("run", "stones", str(solution), cwd=tmp_path)
    assert "new store" not in second.stderr


def test_a_function_in_an_es_module(tmp_path):
    source = (ROOT / "solutions/footholds/accepted/minimax.js").read_text()
    module = tmp_path / "minimax.mjs"
    module.write_text("import { strict } from 'assert';\n" + source.replace("function solution", "export function solution"))
    done = run_judge("run", "footholds", str(module), "--no-record")
    assert done.returncode == 0 and "46/46 cases passed" in done.stdout, done.stdout + done.stderr


def test_plugin_missing_solution_is_one_clear_error(project):
    result = project.runpytest("cases/stones.yaml", "--solution", "stones=nowhere.py")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--solution stones=nowhere.py: no such file*"])


def test_plugin_solution_for_a_problem_not_collected(project):
    accepted = ROOT / "solutions/omok/accepted/count_both_ways.py"
    result = project.runpytest("cases/stones.yaml", "--solution", f"omok={accepted}")
    assert result.ret != pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["*no --solution for stones (omok=... name other problems)*"])


def test_plugin_misspelt_problem_names_the_one_meant_and_lists_few(project):
    for number in range(20):  # many suites collected: the message names the near one, not all
        shutil.copy(project.path / "cases/stones.yaml", project.path / f"cases/copy{number:02d}.yaml")
    accepted = ROOT / "solutions/omok/accepted/count_both_ways.py"
    result = project.runpytest("cases", "--solution", f"omk={accepted}")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*names problem 'omk'*did you mean 'omok'?*and 13 more)*"])


def test_plugin_that_collects_nothing_says_how_to_name_the_suite(pytester):
    accepted = ROOT / "solutions/stones/accepted/game_dp.py"
    result = pytester.runpytest("--solution", str(accepted))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*no case suite*was collected*cases/stones.yaml --solution*"])


def test_plugin_compile_error_message_is_shown_once(project):
    # -rN: no short summary, which would repeat every failure's message once more.
    result = project.runpytest("cases/stones.yaml", "-rN", "--solution",
                               str(ROOT / "solutions/stones/compile_error/missing_semicolon.c"))
    result.assert_outcomes(failed=22)
    assert result.stdout.str().count("int main(void)") == 1  # the compiler's quoted line: once
    assert result.stdout.str().count("the full message is shown on the first case") == 21


DEV_STDIN = {
    "dev.py": "n = int(open('/dev/stdin').read())\nopen('/dev/stdout', 'w').write('SK\\n' if n % 2 else 'CY\\n')\n",
    "dev.js": ("const n = Number(require('fs').readFileSync('/dev/stdin', 'utf8').trim());\n"
               "require('fs').writeFileSync('/dev/stdout', (n % 2 ? 'SK' : 'CY') + '\\n');\n"),
    "dev.c": ('#include <stdio.h>\nint main(void) { FILE *in = fopen("/dev/stdin", "r"); long n;\n'
              '  if (!in || fscanf(in, "%ld", &n) != 1) return 1;\n'
              '  FILE *out = fopen("/dev/stdout", "w"); fprintf(out, "%s\\n", n % 2 ? "SK" : "CY"); return 0; }\n'),
    "Dev.java": ("import java.io.*; import java.util.*;\npublic class Dev { public static void main(String[] a) throws Exception {\n"
                 "  long n = new Scanner(new File(\"/dev/stdin\")).nextLong();\n"
                 "  System.out.println(n % 2 == 1 ? \"SK\" : \"CY\"); } }\n"),
}


@pytest.mark.parametrize("name", DEV_STDIN)
@pytest.mark.parametrize("cold", [True, False], ids=["cold", "warm"])
def test_reading_dev_stdin_as_online_judges_allow(name, cold, write_program):
    """Baekjoon's JavaScript idiom (and C's, Java's) opens /dev/stdin by name."""
    from judge.formats.catalog import load_problem
    from judge.runner import judge_submission

    stones = load_problem("stones")
    result = judge_submission(stones, write_program(name, DEV_STDIN[name]), cases=list(stones.cases[:3]), cold=cold)
    assert result.verdict == "AC", [case.message for case in result.cases]


def test_a_huge_list_refused_at_once_is_mle_without_a_peak_below_the_limit(write_program):
    """`[0] * 10**9` raises MemoryError before using any memory: "peak 7 MiB" would contradict MLE."""
    result = judge_json("run", "stones", str(write_program("big.py", "a = [0] * 10**9\nprint(len(a))\n")),
                        "--case", "sample-1", "--no-record")
    case = result["cases"][0]
    assert case["verdict"] == "MLE", case
    assert case["message"] == ("memory limit 128 MiB exceeded: the program asked for more memory than the "
                               "limit allows; MemoryError (line 1)")


def test_stress_says_why_it_ran_fewer_examples_than_asked_for(tmp_path):
    """Hypothesis may give an input twice; a repeat is not run again, and the count says so."""
    project = project_with(tmp_path, "stones")
    (project / "strategies/stones.py").write_text(
        "from hypothesis import strategies as st\n\ndef inputs():\n    return st.sampled_from(['1\\n', '2\\n'])\n")
    accepted = ROOT / "solutions/stones/accepted/game_dp.py"
    done = run_judge("stress", "stones", str(accepted), "--examples", "10", "--problems", str(project))
    assert done.returncode == 0, done.stderr
    assert "No difference found in 2 examples" in done.stdout
    assert "the other 8 of the 10 asked for would repeat inputs already run" in done.stdout


@pytest.mark.parametrize("command, says", [
    ("stress", "the solution's source file"),
    ("show", "problem name (see `judge list`)"),
    ("grade", "submissions a folder of student folders"),
])
def test_every_argument_in_help_says_what_it_is(command, says):
    done = run_judge(command, "--help")
    assert done.returncode == 0 and says in " ".join(done.stdout.split())
