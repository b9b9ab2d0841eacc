"""What a report students read carries of a hidden case (judge/model/feedback.py): nothing the program
can steer. Each program here encodes its input — N of 1, 2, 3 on the three hidden cases — in one
measured column (peak memory, CPU time, wall time, its output, exit code, signal, exception), and
gets the same verdict on every hidden case (over a limit, too: its message then names the limit,
not the measure); judged for real, each student-facing format must show
the three hidden cases alike but for their numbers, and never name them (their names hold N). The
teacher's formats keep every number and name."""

from __future__ import annotations

import json
import re

import pytest
from conftest import judge_json, make_class, run_judge

SUITE = """id: echoes
title: Echoes
io: stdio
limits: {time: 1.0, memory: 64, output: 1}
cases:
  - {name: sample-1, visibility: sample, input: "1\\n", output: "ok\\n"}
  - {name: n-1, input: "1\\n", output: "ok\\n"}
  - {name: n-2, input: "2\\n", output: "ok\\n"}
  - {name: n-3, input: "3\\n", output: "ok\\n"}
"""
HIDDEN_NAMES = ("n-1", "n-2", "n-3")

# channel -> a program whose measure in that column depends on N (and whose verdict does not)
CHANNELS = {
    "memory": "n = int(input())\nkept = b'x' * (n * 12 << 20)\nprint('no')\n",
    "memory_over": "n = int(input())\nkept = b'x' * ((64 + n * 24) << 20)\nprint('ok')\n",
    "cpu": "import time\nn = int(input())\nwhile time.process_time() < n * 0.15:\n    pass\nprint('no')\n",
    "wall": "import time\nn = int(input())\ntime.sleep(n * 0.15)\nprint('no')\n",
    "output": "n = int(input())\nprint('x' * n)\n",
    "exit_code": "import sys\nsys.exit(int(input()) + 2)\n",
    "signal": "import os, signal\nn = int(input())\nos.kill(os.getpid(), [signal.SIGABRT, signal.SIGFPE, signal.SIGSEGV][n - 1])\n",
    "exception": "n = int(input())\nraise type(f'Leak{n}Error', (Exception,), {})()\n",
    "output_over": "import sys\nn = int(input())\nsys.stdout.write('x' * ((n + 1) << 20))\n",
    "time_over": "import time\nn = int(input())\ntime.sleep(n * 0.1)\nwhile True:\n    pass\n",
}


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("channels")
    (root / "cases").mkdir()
    (root / "cases" / "echoes.yaml").write_text(SUITE)
    programs = root / "programs"
    programs.mkdir()
    for channel, code in CHANNELS.items():
        (programs / f"{channel}.py").write_text(code)
    return root


def alike(rows: list, channel: str, where: str) -> None:
    """The three hidden cases' rows, their numbers taken out, are one and the same."""
    assert len(rows) == 3, (channel, where, rows)
    assert len(set(map(str, rows))) == 1, (channel, where, rows)


def unnamed(text: str, channel: str, where: str) -> None:
    assert not any(name in text for name in HIDDEN_NAMES), (channel, where, text)


@pytest.mark.slow
@pytest.mark.parametrize("channel", sorted(CHANNELS))
def test_judge_run_shows_no_hidden_measure_in_its_table_nor_its_json(project, channel):
    program = str(project / "programs" / f"{channel}.py")
    common = ("run", "echoes", program, "--problems", str(project), "--no-record", "--no-explain")
    table = run_judge(*common, env={"COLUMNS": "200"}).stdout
    rows = [line.split(None, 2)[2] for line in table.splitlines() if line.startswith("hidden ")]
    alike(rows, channel, "table")
    unnamed(table, channel, "table")
    assert re.search(r"^sample-1 +\S+ +\d+ +\d+ ", table, re.MULTILINE), table  # a sample's measures stay
    result = judge_json(*common)
    cases = [{key: value for key, value in case.items() if key != "name"}
             for case in result["cases"] if case["name"].startswith("hidden ")]
    alike(cases, channel, "json")
    assert cases[0]["cpu_time"] is None and cases[0]["memory_kb"] is None
    unnamed(json.dumps(result), channel, "json")


def test_the_limit_a_hidden_case_went_over_is_said_as_the_limit(project):
    result = judge_json("run", "echoes", str(project / "programs" / "memory_over.py"), "--problems", str(project),
                        "--no-record", "--no-explain")
    hidden = [case for case in result["cases"] if case["name"].startswith("hidden ")]
    assert {case["verdict"] for case in hidden} == {"MLE"}
    assert {case["message"] for case in hidden} == {"over the 64 MiB memory limit"}
    lowest = judge_json("run", "echoes", str(project / "programs" / "memory_over.py"), "--problems", str(project),
                        "--no-record", "--no-explain", "--feedback", "verdict")
    assert [case["message"] for case in lowest["cases"] if case["name"] == "hidden 2"] == ["over the 64 MiB memory limit"]


@pytest.fixture(scope="module")
def graded(project, tmp_path_factory):
    """The class (a student per channel) judged once; each format is then rendered from the store."""
    root = tmp_path_factory.mktemp("class")
    folder = make_class(root / "subs", {f"{channel}/echoes.py": project / "programs" / f"{channel}.py"
                                        for channel in CHANNELS})
    db = root / "results.db"

    def grade(*extra: str):
        done = run_judge("grade", str(folder), "--problems", str(project), "--db", str(db), "--no-explain", *extra,
                         env={"COLUMNS": "200"})
        assert done.returncode == 0, done.stderr
        return done
    return root, grade


@pytest.mark.slow
def test_gradescope_shows_students_no_hidden_measure_nor_name(graded):
    root, grade = graded
    grade("--format", "gradescope", "--out", str(root / "gs"))
    for channel in CHANNELS:
        output = json.loads((root / "gs" / channel / "results.json").read_text())["tests"][0]["output"]
        rows = [line.split(":", 1)[1] for line in output.splitlines() if line.startswith("hidden ")]
        alike(rows, channel, "gradescope")
        unnamed(output, channel, "gradescope")


def test_html_below_full_shows_no_hidden_measure_nor_name(graded):
    root, grade = graded
    grade("--format", "html", "--feedback", "counterexamples", "--out", str(root / "report.html"))
    page = (root / "report.html").read_text()
    unnamed(page, "every channel", "html")
    for channel in CHANNELS:
        student = page.split(f'<span class="who">{channel}</span>', 1)[1].split('<span class="who">', 1)[0]
        rows = re.findall(r'<th scope="row">hidden \d+</th>(.*?)</tr>', student, re.DOTALL)
        alike(rows, channel, "html")


def test_json_table_and_junit_below_full_name_no_hidden_case_and_time_none(graded):
    _, grade = graded
    report = grade("--format", "json", "--feedback", "hints").stdout
    assert [rate["case"] for rate in json.loads(report)["cases"]["echoes"] if rate["case"].startswith("hidden")]
    unnamed(report, "every channel", "json")
    unnamed(grade("--format", "table", "--cases", "--feedback", "verdict").stdout, "every channel", "table")
    junit = grade("--format", "junit", "--feedback", "counterexamples").stdout
    unnamed(junit, "every channel", "junit")
    for channel in CHANNELS:
        suite = junit.split(f'name="{channel}.echoes"', 1)[1].split("</testsuite>", 1)[0]
        rows = [re.sub(r'name="hidden \d+"', "", row) for row in re.findall(r'<testcase [^>]*name="hidden \d+".*?(?:/>|</testcase>)',
                                                                             suite, re.DOTALL)]
        alike(rows, channel, "junit")


def test_the_teachers_formats_keep_every_name_and_number(graded):
    root, grade = graded
    report = json.loads(grade("--format", "json").stdout)
    assert {rate["case"] for rate in report["cases"]["echoes"]} >= set(HIDDEN_NAMES)
    grade("--format", "html", "--out", str(root / "teacher.html"))
    page = (root / "teacher.html").read_text()
    memory = page.split('<span class="who">memory</span>', 1)[1].split('<span class="who">', 1)[0]
    peaks = re.findall(r'<th scope="row">n-\d</th>.*?([\d.]+ MiB)</td>', memory, re.DOTALL)
    assert len(peaks) == 3 and len(set(peaks)) == 3, peaks  # the peaks grow with N, and the teacher sees them


def test_every_field_of_a_case_result_is_either_shown_or_steerable():
    """A field added to CaseResult must be placed: shown below full, or one a program steers."""
    import dataclasses

    from judge.model.feedback import HIDDEN_CASE_FIELDS, STEERABLE
    from judge.model.results import CaseResult

    fields = {field.name for field in dataclasses.fields(CaseResult)}
    assert HIDDEN_CASE_FIELDS["full"] == fields
    authors = {"hint", "description"}  # the author's words, from hints on
    for level in ("verdict", "hints", "counterexamples"):
        assert HIDDEN_CASE_FIELDS[level] | set(STEERABLE) | authors == fields, level
        assert not HIDDEN_CASE_FIELDS[level] & set(STEERABLE), level
    assert not HIDDEN_CASE_FIELDS["verdict"] & authors and authors <= HIDDEN_CASE_FIELDS["hints"]
