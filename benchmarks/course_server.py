"""Benchmark item 12, the course's judge (`judge serve`): the time from an upload to its first
row on a warm server, against `judge run`'s time to its first row on the same file; and 50
students submitting at once (submissions judged per second, p95 time from upload to verdict),
against `judge grade -j 2` on the same 50 files. Both judge with two workers."""

from __future__ import annotations

import shutil
import signal
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from judge.course_server.client import Client

PROBLEM = "stones"
STUDENTS = 50


def _sources(work: Path) -> list[Path]:
    """One distinct file per student (a comment apart), from the problem's accepted solution."""
    accepted = min((ROOT / "solutions" / PROBLEM / "accepted").glob("*.py")).read_text()
    folder = work / "sources"
    folder.mkdir()
    paths = []
    for index in range(STUDENTS):
        path = folder / f"s{index:02}.py"
        path.write_text(f"# student {index}\n{accepted}")
        paths.append(path)
    return paths


def _start(judge: list[str], env: dict, db: Path) -> tuple[subprocess.Popen, str]:
    server = subprocess.Popen(judge + ["serve", "--problems", str(ROOT), "--db", str(db), "--port", "0",
                                       "--workers", "2", "--min-interval", "0", "--max-queued", "100"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT)
    return server, server.stdout.readline().strip().rstrip("/")


def _tokens(judge: list[str], env: dict, db: Path, work: Path) -> list[str]:
    roster = work / "roster.csv"
    roster.write_text("student\n" + "".join(f"s{index:02}\n" for index in range(STUDENTS + 1)))
    issued = subprocess.run(judge + ["roster", "issue", str(roster), "--db", str(db)], capture_output=True,
                            text=True, env=env, check=True)
    return [line.split(",")[1] for line in issued.stdout.split()]


def _to_first_row(client: Client, source: Path) -> float:
    started = time.perf_counter()
    sent = client.submit(PROBLEM, source)
    lines = 0
    for event in client.rows(sent["rows"]):
        lines += "line" in event
        if lines == 3:  # the header, its rule, then the first case's row
            return time.perf_counter() - started
    raise RuntimeError("the submission ended before its first row")


def _run_to_first_row(judge: list[str], env: dict, source: Path) -> float:
    started = time.perf_counter()
    run = subprocess.Popen(judge + ["run", PROBLEM, str(source), "--problems", str(ROOT), "--no-record"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env, cwd=ROOT)
    for _ in range(3):
        run.stdout.readline()
    elapsed = time.perf_counter() - started
    run.communicate()
    return elapsed


def _to_verdict(client: Client, source: Path) -> float:
    started = time.perf_counter()
    sent = client.submit(PROBLEM, source)
    for event in client.rows(sent["rows"]):
        if event.get("done"):
            return time.perf_counter() - started
    raise RuntimeError("the rows stream ended without a verdict")


def course_server_rows(work: Path, judge: list[str], env: dict, repeats: int) -> list:
    work = work / "course"
    work.mkdir()
    sources = _sources(work)
    env = {**env, "PYTHONPATH": str(ROOT)}
    db = work / "course.db"
    tokens = _tokens(judge, env, db, work)
    server, url = _start(judge, env, db)
    try:
        warm = Client(url, tokens[-1])
        _to_verdict(warm, sources[0])  # the problem loaded and the pools warm
        first_rows = [_to_first_row(warm, sources[index % STUDENTS]) for index in range(repeats)]
        run_first_rows = [_run_to_first_row(judge, env, sources[index % STUDENTS]) for index in range(repeats)]
        started = time.perf_counter()
        with ThreadPoolExecutor(STUDENTS) as pool:
            times = list(pool.map(lambda pair: _to_verdict(Client(url, pair[0]), pair[1]), zip(tokens, sources)))
        class_seconds = time.perf_counter() - started
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait()
    folder = work / "class"
    for index, source in enumerate(sources):
        (folder / f"s{index:02}").mkdir(parents=True)
        shutil.copy(source, folder / f"s{index:02}" / f"{PROBLEM}.py")
    started = time.perf_counter()
    subprocess.run(judge + ["grade", str(folder), "--problems", str(ROOT), "--db", str(work / "grade.db"), "-j", "2",
                            "--format", "json"], capture_output=True, env=env, cwd=ROOT, check=True)
    grade_seconds = time.perf_counter() - started
    first_row, run_first_row = statistics.median(first_rows), statistics.median(run_first_rows)
    p95 = statistics.quantiles(times, n=20)[-1]
    return [
        ["12. `judge serve`: upload to first row, warm server (median)", f"{first_row * 1000:.0f} ms",
         f"{run_first_row * 1000:.0f} ms (`judge run`)", first_row / run_first_row, "< 1", first_row < run_first_row],
        [f"12. `judge serve`: {STUDENTS} students at once", (f"{STUDENTS / class_seconds:.1f} submissions/s, "
         f"p95 {p95:.1f} s"), f"{STUDENTS / grade_seconds:.1f} submissions/s (`judge grade -j 2`)",
         grade_seconds / class_seconds, "(report only)", True],
    ]
