"""Benchmark item 9: a student's quickest check, `judge run stones game_dp.py --case sample-1` from
the student's folder, against running the solution on that case's input with the same interpreter.

The judge is measured as a user installs it: a virtual environment of its own holding a regular
install of this checkout (pip compiles its bytecode), not this machine's Python with whatever its
site-packages run at every start ($JUDGE_BENCH_USER_VENV reuses such an environment). It is timed
with the resident judge serving the commands (as at a terminal, after a first command), with each
command in its own process, and in its own process without the judge's bytecode cache (a read-only
install or PYTHONDONTWRITEBYTECODE); each interleaved with plain runs, so that the machine's load
weighs on both alike.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from judge.formats.catalog import load_problem

ROOT = Path(__file__).resolve().parent.parent
USER_VENV_ENV = "JUDGE_BENCH_USER_VENV"
SYSTEM_PYTHON = "/usr/bin/python3"


def user_install(work: Path) -> Path:
    """A virtual environment with a regular install of this checkout ($JUDGE_BENCH_USER_VENV if set)."""
    chosen = os.environ.get(USER_VENV_ENV)
    venv = Path(chosen) if chosen else work / "user-install"
    if not (venv / "bin" / "judge").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(ROOT)], check=True)
    elif chosen:  # the checkout as it is now
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "--no-deps", "--force-reinstall", str(ROOT)],
                       check=True)
    return venv


def one_case_rows(work: Path, repeats: int) -> list:
    venv = user_install(work)
    student = work / "student"
    student.mkdir(exist_ok=True)
    solution = student / "game_dp.py"
    shutil.copy(ROOT / "solutions" / "stones" / "accepted" / "game_dp.py", solution)
    stdin = load_problem("stones", ROOT).case("sample-1").input.encode()
    command = [str(venv / "bin" / "judge"), "run", "stones", solution.name, "--case", "sample-1", "--no-record"]
    base = {**os.environ, "JUDGE_CACHE": str(_folder(work / "one-case-cache"))}
    base.pop("PYTHONDONTWRITEBYTECODE", None)  # a user's machine writes and reads the bytecode cache
    resident = {**base, "JUDGE_RESIDENT": "1", "JUDGE_RESIDENT_DIR": str(work / "resident")}
    alone = {**base, "JUDGE_RESIDENT": "0"}
    uncached = {**alone, "PYTHONPATH": str(_without_bytecode(venv, work)), "PYTHONDONTWRITEBYTECODE": "1"}
    for env in (alone, uncached, resident):  # probes cached, the resident started
        _timed(command, env, student)
    _await_resident(work / "resident")
    plain = [str(venv / "bin" / "python"), solution.name]
    # Two interleaved loops: the resident's quick runs paired with plain runs, then the
    # commands in their own processes with theirs (a run right after one that compiles every
    # module it imports finds the machine busier: the pairs keep like with like).
    times: dict[str, list[float]] = {"resident": [], "plain": [], "alone": [], "uncached": [], "plain alone": [],
                                     "system": []}
    try:
        for _ in range(repeats):
            times["resident"].append(_timed(command, resident, student))
            times["plain"].append(_timed(plain, base, student, stdin))
            times["system"].append(_timed([SYSTEM_PYTHON, solution.name], base, student, stdin))
    finally:
        subprocess.run([str(venv / "bin" / "judge"), "resident", "--stop"], env=resident, capture_output=True,
                       check=False)
    for _ in range(repeats):
        times["alone"].append(_timed(command, alone, student))
        times["uncached"].append(_timed(command, uncached, student))
        times["plain alone"].append(_timed(plain, base, student, stdin))
    median = {name: statistics.median(values) for name, values in times.items()}
    label = f"9. one-case `judge run` (median of {repeats})"
    baseline, baseline_alone = (f"{median[name] * 1000:.0f} ms (python3 sol.py < in)" for name in ("plain", "plain alone"))
    return [[f"{label}, resident judge", _ms(median["resident"]), baseline, median["resident"] / median["plain"],
             "<= 8", median["resident"] / median["plain"] <= 8],
            [f"{label}, each command in its own process", _ms(median["alone"]), baseline_alone,
             f"{median['alone'] / median['plain alone']:.2f}", "(shown)", "info"],
            [f"{label}, own process, no bytecode cache of the judge", _ms(median["uncached"]), baseline_alone,
             f"{median['uncached'] / median['plain alone']:.2f}", "(shown)", "info"],
            [f"{label}, resident judge vs {SYSTEM_PYTHON}", _ms(median["resident"]),
             f"{median['system'] * 1000:.0f} ms ({SYSTEM_PYTHON} sol.py < in)",
             f"{median['resident'] / median['system']:.2f}", "(shown)", "info"]]


def _timed(command: list[str], env: dict[str, str], cwd: Path, stdin: bytes = b"") -> float:
    started = time.perf_counter()
    done = subprocess.run(command, input=stdin, capture_output=True, env=env, cwd=cwd, check=False)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"benchmark 9: {' '.join(command)} failed:\n{done.stderr.decode()[-2000:]}")
    return elapsed


def _await_resident(folder: Path, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not list(folder.glob("*.sock")):
        if time.monotonic() > deadline:
            raise SystemExit(f"benchmark 9: no resident judge started in {folder}")
        time.sleep(0.05)
    time.sleep(0.5)  # its imports done


def _without_bytecode(venv: Path, work: Path) -> Path:
    """A copy of the installed package with no bytecode, first on the path."""
    installed = next((venv / "lib").glob("python3*/site-packages/judge"))
    copy = work / "user-no-bytecode"
    if not copy.exists():
        shutil.copytree(installed, copy / "judge", ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def _folder(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o755)  # the sandbox's uid must reach it
    return path


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"
