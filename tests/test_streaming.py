"""Results as they come: `judge run` and `judge test` print each row when it is decided (in case
order), say how far they got when stopped by a signal, and `judge run -x`/`--samples` run less."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import threading
import time

import pytest
from conftest import ROOT, judge_json, project_with, run_judge

SLOW = ROOT / "solutions/stones/time_limit_exceeded/plain_recursion.py"  # AC on small n, TLE from mid-even (hidden 7) on
WRONG = ROOT / "solutions/stones/wrong_answer/even_wins.py"  # WA from sample-1 on
RUN = [sys.executable, "-m", "judge", "run", "stones", str(SLOW), "--no-record", "--no-explain"]


def started(command: list[str]) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env)


def read_until(process: subprocess.Popen, wanted: str, timeout: float = 120) -> list[str]:
    """Lines of the process's output up to and including the first that starts with ``wanted``."""
    lines = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        assert line, f"output ended before {wanted!r}: {lines}"
        lines.append(line.rstrip("\n"))
        if line.startswith(wanted):
            return lines
    raise AssertionError(f"no {wanted!r} in {timeout} s: {lines}")


def rest_of(process: subprocess.Popen, timeout: float) -> tuple[str, str]:
    """The rest of the output and the whole error output, once the process has ended. Read
    through the same buffered files as read_until: communicate() reads the pipes themselves, and
    would lose the lines read_until's readline had already taken from the pipe into its buffer
    (rows that came in one burst with the one it waited for)."""
    taken: dict[str, str] = {}
    readers = [threading.Thread(target=lambda name=name, stream=stream: taken.__setitem__(name, stream.read()),
                                daemon=True) for name, stream in (("out", process.stdout), ("err", process.stderr))]
    for reader in readers:
        reader.start()
    process.wait(timeout=timeout)
    for reader in readers:
        reader.join(timeout)
    return taken["out"], taken["err"]


def row_verdicts(lines: list[str]) -> list[tuple[str, str]]:
    """(case, verdict) of each table row among ``lines`` (a hidden case's name is "hidden N")."""
    rows = []
    for line in lines:
        cells = line.split()
        if cells[:1] == ["hidden"]:
            cells = [" ".join(cells[:2]), *cells[2:]]
        if len(cells) >= 2 and not cells[0].endswith(":") and cells[1] in ("AC", "WA", "TLE", "RE", "MLE", "OLE", "CE", "IE"):
            rows.append((cells[0], cells[1]))
    return rows


@pytest.mark.slow
def test_rows_are_printed_while_the_run_goes_on_and_are_the_final_table():
    process = started([*RUN, "-j", "1"])
    first = read_until(process, "sample-1")
    # The run has eight more TLE cases of a second each to go: this row came as it was decided.
    assert process.poll() is None, "the first row came only when the run had ended"
    rest, _ = rest_of(process, timeout=300)
    streamed = row_verdicts(first + rest.splitlines())
    judged = judge_json("run", "stones", str(SLOW), "--no-record", "--no-explain")
    assert streamed == [(case["name"], case["verdict"]) for case in judged["cases"]]
    assert rest.rstrip().endswith("(stones, python)")
    assert process.returncode == 1


@pytest.mark.slow
def test_parallel_workers_still_print_rows_in_case_order():
    done = run_judge("run", "stones", str(SLOW), "--no-record", "--no-explain", "-j", "2")
    names = [name for name, _ in row_verdicts(done.stdout.splitlines())]
    judged = judge_json("run", "stones", str(SLOW), "--no-record", "--no-explain", "-j", "1")
    assert names == [case["name"] for case in judged["cases"]]


def test_sigterm_half_way_prints_the_rows_decided_so_far():
    process = started([*RUN, "-j", "1"])
    before = read_until(process, "hidden 7")  # mid-even, the first TLE: a dozen cases to go, a second each
    process.send_signal(signal.SIGTERM)
    rest, stderr = rest_of(process, timeout=60)
    assert process.returncode == 128 + signal.SIGTERM
    rows = row_verdicts(before + rest.splitlines())
    assert rows[:8] == [("sample-1", "AC"), *((f"hidden {number}", "AC") for number in range(1, 7)), ("hidden 7", "TLE")]
    assert len(rows) < 22 and len({name for name, _ in rows}) == len(rows)
    assert f"stopped by SIGTERM: {len(rows)} of 22 cases decided" in rest
    assert "judge: stopped by SIGTERM" in stderr and "Traceback" not in stderr


def test_sigterm_with_json_prints_the_decided_cases_as_json():
    process = started([*RUN, "-j", "1", "--format", "json"])
    time.sleep(4)  # into the TLE cases; even on a slow machine the samples are long decided
    process.send_signal(signal.SIGTERM)
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 128 + signal.SIGTERM
    stopped = json.loads(out)
    assert stopped["stopped_by"] == "SIGTERM" and stopped["partial"] is True
    assert 0 < len(stopped["cases"]) < 22
    assert stopped["cases"][0]["name"] == "sample-1" and stopped["cases"][0]["verdict"] == "AC"


def test_fail_fast_stops_at_the_first_failing_case():
    done = run_judge("run", "stones", str(WRONG), "--no-record", "-x")
    assert done.returncode == 1
    assert row_verdicts(done.stdout.splitlines()) == [("sample-1", "WA")]
    assert "no score: only some cases ran" in done.stdout
    judged = judge_json("run", "stones", str(SLOW), "--no-record", "--fail-fast")
    assert [case["verdict"] for case in judged["cases"]][-1] == "TLE"
    assert all(case["verdict"] == "AC" for case in judged["cases"][:-1])


def test_samples_runs_the_sample_cases_only():
    judged = judge_json("run", "sokoban", str(ROOT / "solutions/sokoban/accepted/grid.py"), "--samples", "--no-record")
    from judge.formats.catalog import load_problem
    samples = [case.name for case in load_problem("sokoban", ROOT).cases if case.visibility == "sample"]
    assert [case["name"] for case in judged["cases"]] == samples and judged["verdict"] == "AC"


def test_samples_of_a_problem_without_any_is_a_clear_error(tmp_path):
    project = project_with(tmp_path, "stones")
    suite = project / "cases/stones.yaml"
    suite.write_text(suite.read_text().replace("visibility: sample", "visibility: hidden"))
    done = run_judge("run", "stones", str(WRONG), "--samples", "--problems", str(project))
    assert done.returncode == 2 and "has no sample cases" in done.stderr and "Traceback" not in done.stderr


def test_a_terminal_gets_a_status_line_and_the_same_rows():
    """Under a terminal, a status line on stderr says how far the run is; it is cleared before
    each row, so the rows read as a table."""
    leader, follower = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "120"}
    process = subprocess.Popen([sys.executable, "-m", "judge", "run", "stones", str(SLOW),
                                "--no-record", "-j", "1", "--case", "sample-1", "--case", "mid-even"],
                               stdin=follower, stdout=follower, stderr=follower, cwd=ROOT, env=env)
    os.close(follower)
    seen = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 120)
        if not ready:
            break
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal's other end closed: the judge has ended
            break
        if not chunk:
            break
        seen += chunk
    process.wait(timeout=60)
    os.close(leader)
    text = seen.decode("utf-8", errors="replace")
    assert "cases decided" in text and "running hidden 7" in text and "mid-even" not in text
    shown = [line.rsplit("\x1b[K", 1)[-1] for line in text.replace("\r\n", "\n").split("\n")]
    assert row_verdicts(shown) == [("sample-1", "AC"), ("hidden 7", "TLE")]


@pytest.mark.slow
def test_judge_test_prints_each_check_as_it_is_made():
    process = started([sys.executable, "-m", "judge", "test", "stones"])
    first = read_until(process, "stones  loads  ok")
    assert process.poll() is None, "the first check came only when judge test had ended"
    rest, _ = rest_of(process, timeout=600)
    assert process.returncode == 0
    assert "solution stones/accepted/game_dp.py  ok  got AC" in rest and rest.rstrip().endswith("0 failed")
    assert first[-1].startswith("stones  loads  ok  22 cases")


def test_judge_test_stopped_says_how_far_it_got():
    process = started([sys.executable, "-m", "judge", "test", "stones"])
    read_until(process, "stones  reference  ok")
    process.send_signal(signal.SIGTERM)
    rest, stderr = rest_of(process, timeout=60)
    assert process.returncode == 128 + signal.SIGTERM
    assert "stopped by SIGTERM after" in rest and "Traceback" not in stderr


def test_a_reader_that_stops_early_sees_no_traceback():
    # `judge run | head -2`: the rows after the pipe closed go nowhere, and nothing is reported
    # as a failure of the judge's own (the status is the run's, as without the pipe).
    done = subprocess.run(f"{sys.executable} -m judge run stones {WRONG} --no-record --no-explain | head -2",
                          shell=True, capture_output=True, text=True, cwd=ROOT, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.stdout.splitlines()[0].startswith("case") and len(done.stdout.splitlines()) == 2
    assert "Traceback" not in done.stderr and "Error" not in done.stderr, done.stderr
