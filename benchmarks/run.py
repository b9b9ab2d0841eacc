"""Benchmarks for the judge's speed, each measured against a baseline taken in the same run on
the same machine, and reported as a ratio. Not part of the test suite (timings on shared
machines are noisy); run it on its own:

    python3 benchmarks/run.py            # everything (a few minutes)
    python3 benchmarks/run.py --students 20 --quick
    python3 benchmarks/run.py --only 6 7 # some items only

1. per-case overhead: `judge run` on a 1,000-case trivial suite vs 1,000 bare `python3 -I -S -c pass`
2. parallel cases: `judge run -j 2` vs `-j 1` on CPU-bound cases
3. stress: `judge stress stones <accepted> --examples 1000`, examples per second (median of 5 runs)
4. start-up: `judge --help` vs `python3 -c pass` (same interpreter), with the judge's bytecode
   cache and without it (a copy of the package with no __pycache__, PYTHONDONTWRITEBYTECODE=1)
5. grading: N students x 5 problems with `judge grade`; total time and cost per case
6. cluster: 10 students x 4 Python problems with `judge grade --cluster local:2` vs `-j 2`: time ratio,
   and start-up (time to the first recorded case)
7. per-case cost of a typical Python and C submission (omok, 45 cases), for sizing a cluster
8. marginal cost of one case per language with `-j 1` (a full suite minus a one-case run) vs a
   plain start of the same program per case outside any sandbox (omok's accepted solution; stones'
   for JavaScript, which omok has none in); also the whole suite vs the whole plain loop
9. one-case judge run vs plain python3 run: `judge run stones game_dp.py --case sample-1` from a
   student's folder, the judge installed in a virtual environment of its own, vs that interpreter
   running the solution on that input (medians of interleaved runs): with the resident judge, each
   command in its own process, and without the judge's bytecode cache; and vs /usr/bin/python3's
   plain run (benchmarks/one_case_run.py)
10. against other tools: `judge test PKG` vs problemtools' `verifyproblem PKG -p submissions` and
   BAPCtools' `bt run` on problemtools' example problems, each cold (median of 3); the peers'
   install and the set-up are in benchmarks/peer_tools.py (`--peers VENV`, `--examples DIR`)
11. CPU time a warm case reports vs a cold run's less the start (a cold run's CPU time of an empty
   program less a warm one's), for CPU-, allocation- and input-heavy Python programs and a C
   program, interleaved, on a quiet machine and with every core kept busy by a spinning process
12. a course's judge (`judge serve`): upload to first row on a warm server vs `judge run`'s first
   row; 50 students submitting at once (submissions/s, p95 to the verdict) vs `judge grade -j 2` on
   the same files (benchmarks/course_server.py)
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tabulate import tabulate

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from judge.formats.catalog import known_problems, load_problem  # noqa: E402 - the judge of this checkout
from judge.runner import executor, prepare  # noqa: E402
from course_server import course_server_rows  # noqa: E402 - benchmarks/course_server.py
from one_case_run import one_case_rows  # noqa: E402 - benchmarks/one_case_run.py
from peer_tools import peer_rows  # noqa: E402 - benchmarks/peer_tools.py, beside this file

ROOT = Path(__file__).resolve().parent.parent
SUBMISSION_PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable
JUDGE = [sys.executable, "-m", "judge"]
# The judge runs as installed on a user's machine: with Python's bytecode cache, which some CI
# machines turn off (PYTHONDONTWRITEBYTECODE); `warm_up` writes the cache before anything is timed.
JUDGE_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def timed(command: list[str], env: dict[str, str] | None = None, **kwargs) -> float:
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, check=False, env={**JUDGE_ENV, **(env or {})}, **kwargs)
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"benchmark command failed: {' '.join(command)}\n{done.stderr.decode()[-2000:]}")
    return elapsed


def make_problem(root: Path, problem_id: str, inputs: list[str], time_limit: float = 1.0) -> None:
    """A minimal problem package: a suite whose expected output is the input, and a reference."""
    (root / "cases").mkdir(parents=True, exist_ok=True)
    (root / "reference").mkdir(exist_ok=True)
    lines = [f"id: {problem_id}", f"title: {problem_id}", "io: stdio",
             f"limits: {{time: {time_limit}, memory: 256, output: 1}}", "cases:"]
    lines += [f'  - {{name: c{index}, input: "{text}\\n"}}' for index, text in enumerate(inputs)]
    (root / "cases" / f"{problem_id}.yaml").write_text("\n".join(lines) + "\n")
    (root / "reference" / f"{problem_id}.py").write_text("def solve(text):\n    return text\n")


def per_case_overhead(work: Path, cases: int) -> list:
    root = work / "echo"
    make_problem(root, "echo", [str(index) for index in range(cases)])
    solution = root / "echo.py"
    solution.write_text("print(input())\n")
    judge = timed(JUDGE + ["run", "echo", str(solution), "--no-record"], cwd=root)
    started = time.perf_counter()
    for _ in range(cases):
        subprocess.run([SUBMISSION_PYTHON, "-I", "-S", "-c", "pass"], check=True)
    baseline = time.perf_counter() - started
    return [f"1. `judge run`, {cases} trivial cases", f"{judge:.2f} s", f"{baseline:.2f} s ({cases} bare starts)",
            judge / baseline, "<= 0.35", judge / baseline <= 0.35]


def parallel_cases(work: Path, cases: int) -> list:
    root = work / "burn"
    make_problem(root, "burn", [str(index) for index in range(cases)], time_limit=5.0)
    solution = root / "burn.py"
    solution.write_text("n = int(input())\nx = 0\nfor i in range(8_000_000):\n    x += i\nprint(n)\n")
    serial = timed(JUDGE + ["run", "burn", str(solution), "-j", "1", "--no-record"], cwd=root)
    parallel = timed(JUDGE + ["run", "burn", str(solution), "-j", "2", "--no-record"], cwd=root)
    return [f"2. `judge run -j 2` vs `-j 1`, {cases} CPU-bound cases", f"{parallel:.2f} s", f"{serial:.2f} s",
            serial / parallel, ">= 1.8 (speed-up)", serial / parallel >= 1.8]


def warm_up() -> None:
    """Run the commands measured below once, so that their modules' bytecode is cached."""
    accepted = str(ROOT / "solutions" / "stones" / "accepted" / "game_dp.py")
    timed(JUDGE + ["stress", "stones", accepted, "--examples", "5"], cwd=ROOT)
    timed(JUDGE + ["run", "stones", accepted, "--no-record"], cwd=ROOT)
    timed(JUDGE + ["run", "stones", accepted, "--case", "sample-1", "--no-record"], cwd=ROOT)
    timed(JUDGE + ["--help"])


def stress_speed(examples: int, repeats: int) -> list:
    """The median of a few runs: one run's time swings by a quarter on a shared machine."""
    solution = ROOT / "solutions" / "stones" / "accepted" / "game_dp.py"
    command = JUDGE + ["stress", "stones", str(solution), "--examples", str(examples)]
    times = sorted(timed(command, cwd=ROOT) for _ in range(repeats))
    elapsed = statistics.median(times)
    rate = examples / elapsed
    return [f"3. `judge stress stones`, {examples} examples (median of {repeats})", f"{elapsed:.2f} s",
            f"runs {times[0]:.2f}-{times[-1]:.2f} s", rate, ">= 300 examples/s", rate >= 300]


def without_bytecode(work: Path) -> tuple[Path, dict[str, str]]:
    """A copy of the judge's package with no bytecode cache, and the environment that runs it
    without writing one (a read-only install, or a CI image that sets PYTHONDONTWRITEBYTECODE):
    every module of the judge is compiled from source at each start. (Its dependencies and the
    standard library keep their caches, as a regular install has them.)"""
    copy = work / "no-bytecode"
    if not copy.exists():
        shutil.copytree(ROOT / "judge", copy / "judge", ignore=shutil.ignore_patterns("__pycache__"))
    return copy, {"PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}


def start_up(work: Path, repeats: int) -> list:
    """`judge --help` against a bare start of the same interpreter, with the judge's bytecode
    cache and without it; interleaved."""
    copy, no_cache = without_bytecode(work)
    judged, uncached, bare = [], [], []
    for _ in range(repeats):
        judged.append(timed(JUDGE + ["--help"]))
        uncached.append(timed(JUDGE + ["--help"], env=no_cache, cwd=copy))
        bare.append(timed([sys.executable, "-c", "pass"]))
    judge, cold, baseline = (statistics.median(times) for times in (judged, uncached, bare))
    return [["4. `judge --help` start-up (median)", f"{judge * 1000:.0f} ms", f"{baseline * 1000:.0f} ms (python3 -c pass)",
             judge / baseline, "<= 1.5", judge / baseline <= 1.5],
            ["4. `judge --help` start-up, no bytecode cache of the judge (median)", f"{cold * 1000:.0f} ms",
             f"{baseline * 1000:.0f} ms (python3 -c pass)", f"{cold / baseline:.2f}", "(shown)", "info"]]


def grading(work: Path, students: int) -> list:
    folder = work / "class"
    accepted = {problem: next(p for p in sorted((ROOT / "solutions" / problem / "accepted").glob("*.py")))
                for problem in known_problems(ROOT)}
    for index in range(students):
        student = folder / f"student{index:03d}"
        student.mkdir(parents=True)
        for problem, source in accepted.items():
            # A comment makes each file distinct, as real submissions are.
            (student / f"{problem}.py").write_text(f"# student {index}\n" + source.read_text())
    elapsed = timed(JUDGE + ["grade", str(folder), "--db", str(work / "grade.db"), "--format", "json"], cwd=ROOT)
    cases = students * sum(_case_count(problem) for problem in accepted)
    return [f"5. `judge grade`, {students} students x {len(accepted)} problems", f"{elapsed:.1f} s", f"{cases} cases",
            elapsed / cases * 1000, "(ms per case; report only)", True]


COMMENT = {".py": "#", ".c": "//", ".cpp": "//", ".java": "//", ".js": "//"}


def make_mixed_class(folder: Path, students: int, problems: dict[str, list[str]]) -> int:
    """``students`` students, each with one file per problem, the languages taking turns; returns
    the number of cases the class has."""
    for index in range(students):
        for problem, names in problems.items():
            source = ROOT / "solutions" / problem / "accepted" / names[index % len(names)]
            target = folder / f"student{index:03d}" / f"{problem}{source.suffix}"
            target.parent.mkdir(parents=True, exist_ok=True)
            # A comment makes each file distinct, so each is compiled, as real submissions are.
            target.write_text(f"{COMMENT[source.suffix]} student {index}\n" + source.read_text())
    return students * sum(_case_count(problem) for problem in problems)


# A small Python class for item 6: one accepted solution per problem.
PYTHON_CLASS = {"stones": ["game_dp.py"], "omok": ["count_both_ways.py"], "footholds": ["minimax.py"],
                "yutnori": ["paths.py"]}


def timed_to_first_result(command: list[str], db: Path, env: dict[str, str]) -> tuple[float, float]:
    """(seconds until the results store holds a first case result, seconds in all)."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               env={**JUDGE_ENV, **env}, cwd=ROOT)
    first = None
    while process.poll() is None:
        if first is None and db.exists():
            try:
                with sqlite3.connect(db) as connection:
                    if connection.execute("SELECT count(*) FROM case_results").fetchone()[0]:
                        first = time.perf_counter() - started
            except sqlite3.OperationalError:  # the grader is still making its tables
                pass
        time.sleep(0.02)
    elapsed = time.perf_counter() - started
    if process.returncode not in (0, 1):
        raise SystemExit(f"benchmark command failed: {' '.join(command)}\n{process.stderr.read().decode()[-2000:]}")
    return first if first is not None else elapsed, elapsed


def cluster_throughput(work: Path, students: int, repeats: int) -> list:
    """`--cluster local:2` (two Dask worker processes, started by the command) against `-j 2` on
    a Python class, alternating; the medians. Start-up is the time until the store holds a first
    case result, against the same for `-j 2`."""
    from judge.sandbox import sandbox_tier

    folder = work / "python-class"
    cases = make_mixed_class(folder, students, PYTHON_CLASS)
    runs: dict[str, list[tuple[float, float]]] = {"local": [], "cluster": []}
    reports = {}
    for round_ in range(repeats):
        for kind, extra in (("local", ["-j", "2"]),
                            ("cluster", ["--cluster", "local:2", "--min-sandbox", sandbox_tier()])):
            run = work / f"{kind}-{round_}"
            run.mkdir(parents=True)
            out, db = run / "report.json", run / "grade.db"
            runs[kind].append(timed_to_first_result(
                JUDGE + ["grade", str(folder), "--db", str(db), "--format", "json", "--out", str(out), *extra],
                db, {"JUDGE_CACHE": str(run / "cache")}))
            reports[kind] = out.read_text()
    if reports["local"] != reports["cluster"]:
        raise SystemExit("benchmark 6: the cluster's report differs from the local one")
    verdicts = {result["verdict"] for student in json.loads(reports["local"])["students"]
                for result in student["problems"].values()}
    if verdicts != {"AC"}:  # a class of accepted solutions: anything else means the set-up is broken
        raise SystemExit(f"benchmark 6: accepted solutions got {sorted(verdicts)}")
    (local_first, local_total), (cluster_first, cluster_total) = (
        (statistics.median(first for first, _ in runs[kind]), statistics.median(total for _, total in runs[kind]))
        for kind in ("local", "cluster"))
    ratio = cluster_total / local_total
    return [[(f"6. `judge grade --cluster local:2` vs `-j 2`, {students} students x {len(PYTHON_CLASS)} Python "
              f"problems (median of {repeats})"), f"{cluster_total:.1f} s", f"{local_total:.1f} s ({cases} cases)",
             ratio, "<= 1.2 (time)", ratio <= 1.2],
            ["6. start-up: first case recorded, `--cluster local:2` vs `-j 2`", f"{cluster_first:.2f} s",
             f"{local_first:.2f} s", cluster_first / local_first, "<= 2 s (cluster)", cluster_first <= 2.0]]


def per_case_cost(work: Path, students: int) -> list:
    """Each of ``students`` distinct submissions judged on omok's 45 cases, one at a time (-j 1,
    so about one core busy): wall time per case, compilation included."""
    costs = {}
    for name in ("count_both_ways.py", "omok.c"):
        run = work / f"cost-{Path(name).stem}"
        folder, report = run / "class", run / "report.json"
        cases = make_mixed_class(folder, students, {"omok": [name]})
        elapsed = timed(JUDGE + ["grade", str(folder), "--db", str(run / "grade.db"), "-j", "1", "--format", "json",
                                 "--out", str(report)], env={"JUDGE_CACHE": str(run / "cache")}, cwd=ROOT)
        if any(student["total"] != 100 for student in json.loads(report.read_text())["students"]):
            raise SystemExit(f"benchmark 7: an accepted {name} was not accepted; see {report}")
        costs[name] = elapsed / cases * 1000
    python, c = costs.values()
    return [f"7. cost per case, omok, {students} submissions, -j 1", f"Python {python:.1f} ms",
            f"C {c:.1f} ms", python / c, "(Python / C; report only)", True]


# (problem, accepted solution, target ratio of the marginal case cost to a plain start)
MARGINAL_SOLUTIONS = {
    "python": ("omok", "count_both_ways.py", 0.2),
    "c": ("omok", "omok.c", 2.5),
    "cpp": ("omok", "omok.cpp", 2.5),
    "java": ("omok", "Omok.java", 0.8),
    "javascript": ("stones", "game_dp.js", 0.9),
}


def plain_command(work: Path, source: Path) -> list[str]:
    """How the solution starts outside any sandbox: built and run with the judge's options, but
    Java as a student starts it (its start-up is what the judge's Java options shorten)."""
    built = work / f"plain-{source.stem}"
    built.mkdir(exist_ok=True)
    if source.suffix in (".c", ".cpp"):
        compiler, standard = ("gcc", "-std=c17") if source.suffix == ".c" else ("g++", "-std=c++17")
        subprocess.run([compiler, "-O2", standard, "-o", str(built / "program"), str(source), "-lm"], check=True)
        return [str(built / "program")]
    if source.suffix == ".java":
        # As a student starts it: the JVM's own defaults, none of the judge's start-up options.
        subprocess.run(["javac", "-encoding", "UTF-8", "-d", str(built), str(source)], check=True)
        return ["java", "-cp", str(built), source.stem]
    if source.suffix == ".js":
        return ["node", "--stack-size=32000", str(source)]
    return [SUBMISSION_PYTHON, "-I", "-S", str(source)]


def marginal_case_cost(work: Path, repeats: int, languages: list[str]) -> list:
    """Per language: (the suite with -j 1 minus one case of it) / (cases - 1), the median of
    ``repeats``, against the median per-case time of a plain loop over the same inputs."""
    rows = []
    for language in languages:
        problem_id, name, target = MARGINAL_SOLUTIONS[language]
        problem = load_problem(problem_id, ROOT)
        source = ROOT / "solutions" / problem_id / "accepted" / name
        run = JUDGE + ["run", problem_id, str(source), "-j", "1", "--no-record"]
        timed(run + ["--case", problem.cases[0].name], cwd=ROOT)  # compiled and cached before timing
        full = statistics.median(timed(run, cwd=ROOT) for _ in range(repeats))
        one = statistics.median(timed(run + ["--case", problem.cases[0].name], cwd=ROOT) for _ in range(repeats))
        command = plain_command(work, source)
        inputs = [case.input.encode() for case in problem.cases]
        loops = []
        for _ in range(repeats):
            started = time.perf_counter()
            for stdin in inputs:
                subprocess.run(command, input=stdin, capture_output=True, check=True)
            loops.append(time.perf_counter() - started)
        plain = statistics.median(loops)
        marginal, per_start = (full - one) / (len(inputs) - 1), plain / len(inputs)
        ratio = marginal / per_start
        label = (f"8. {language}: one more case, -j 1 ({problem_id}/{name}; suite {full:.2f} s vs plain loop"
                 f" {plain:.2f} s, {len(inputs)} cases)")
        rows.append([label, f"{marginal * 1000:.2f} ms",
                     f"{per_start * 1000:.2f} ms (plain start)", ratio, f"<= {target}", ratio <= target])
    return rows


# Item 11: (file name, source, input), each about a third of a second of CPU time. The allocation-heavy
# program holds its objects to the end, where the interpreter collects and frees them; the
# input-heavy one reads and parses 7 MB of numbers.
CPU_PROGRAMS = [
    ("cpu.py", "n = int(input())\nx = 0\nfor i in range(n):\n    x += i * i % 7\nprint(x)\n", b"3000000\n"),
    ("allocation.py", ("n = int(input())\n"
                       "rows = [{'id': i, 'pair': (i, str(i)), 'items': [i, i + 1]} for i in range(n)]\n"
                       "print(sum(row['pair'][0] + len(row['items']) for row in rows))\n"), b"150000\n"),
    ("input.py", ("import sys\ndata = sys.stdin.buffer.read().split()\nn = int(data[0])\n"
                  "print(sum(map(int, data[1:n + 1])))\n"),
     b"700000\n" + b" ".join(str(index * 7919 % 1_000_000_007).encode() for index in range(700_000)) + b"\n"),
    ("memory.c", ("#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n    long n, sum = 0;\n"
                  "    if (scanf(\"%ld\", &n) != 1) return 1;\n    long *a = calloc(n, sizeof *a);\n"
                  "    for (long r = 0; r < 8; r++)\n"
                  "        for (long i = 0; i < n; i++) { a[i] = a[i] * 31 + i + r; sum += a[i] & 7; }\n"
                  "    printf(\"%ld\\n\", sum);\n    return 0;\n}\n"), b"20000000\n"),
]
EMPTY = {".py": "pass\n", ".c": "int main(void) { return 0; }\n"}


@contextlib.contextmanager
def every_core_busy():
    """A spinning process per core for the duration, stopped afterwards."""
    spinners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(os.cpu_count() or 1)]
    try:
        time.sleep(0.5)  # under way before anything is measured
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
        for spinner in spinners:
            spinner.wait()


def warm_and_cold_cpu(source: Path, stdin: bytes, rounds: int) -> tuple[list[float], list[float]]:
    """CPU seconds of ``rounds`` warm and as many cold runs of ``source`` on ``stdin``, taking turns.

    Each round's warm case runs on a server of its own (after an untimed case): a Python server's
    cases share its string hash seed, which a cold run draws afresh, and the seed alone moves
    the CPU time of some programs by a sixth (see docs/explanation/warm-runs.md). A server per
    round compares the two over as many seeds."""
    problem = load_problem("stones", ROOT)  # any stdio problem: its limits are raised below
    prepared = prepare(problem, source)
    program = getattr(prepared, "program", None)
    if program is None:
        raise SystemExit(f"benchmark 11: {source.name} did not build: {prepared}")
    limits = dataclasses.replace(prepared.limits, cpu_time=30.0, wall_time=120.0, memory=1 << 30)

    def cpu_time(execute) -> float:
        outcome = execute(list(program.command), stdin, limits, program.directory)
        if outcome.exit_code != 0:
            raise SystemExit(f"benchmark 11: {source.name} failed: {outcome}")
        return outcome.cpu_time

    runs: tuple[list[float], list[float]] = ([], [])
    with executor(prepared.language, program, problem.io, limits, cold=True) as cold:
        for _ in range(rounds):
            with executor(prepared.language, program, problem.io, limits) as warm:
                cpu_time(warm)  # the server up and its first case done before timing
                runs[0].append(cpu_time(warm))
            runs[1].append(cpu_time(cold))
    return runs


def warm_cold_cpu_time(work: Path, rounds: int) -> list:
    """Per program, quiet and with every core busy: the CPU time a warm case reports against a
    cold run's less the start (the medians of an empty program's cold and warm runs, apart). The
    ratio is the median of each round's, whose two runs follow each other: the machine's load
    weighs on both alike, where it drifts between rounds."""
    folder = work / "cpu-time"
    folder.mkdir()
    rows = []
    for condition in ("quiet", "every core busy"):
        with every_core_busy() if condition != "quiet" else contextlib.nullcontext():
            starts = {}
            for suffix, source in EMPTY.items():
                path = folder / f"empty{suffix}"
                path.write_text(source)
                warm, cold = warm_and_cold_cpu(path, b"", rounds)
                starts[suffix] = statistics.median(cold) - statistics.median(warm)
            for name, source, stdin in CPU_PROGRAMS:
                path = folder / name
                path.write_text(source)
                warm_runs, cold_runs = warm_and_cold_cpu(path, stdin, rounds)
                start = starts[path.suffix]
                ratio = statistics.median(warm / (cold - start) for warm, cold in zip(warm_runs, cold_runs))
                warm, cold = statistics.median(warm_runs), statistics.median(cold_runs)
                baseline = f"{(cold - start) * 1000:.0f} ms (cold {cold * 1000:.0f} ms, start {start * 1000:.1f} ms)"
                rows.append([f"11. {name}, {condition}: warm case vs cold run less the start (median of {rounds})",
                             f"{warm * 1000:.0f} ms", baseline, ratio, "0.95-1.05", 0.95 <= ratio <= 1.05])
    return rows


def _case_count(problem: str) -> int:
    return len(load_problem(problem, ROOT).cases)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=100)
    parser.add_argument("--quick", action="store_true", help="smaller runs, for a rough look")
    parser.add_argument("--only", type=int, nargs="+", metavar="N", help="run only these items (numbers above)")
    parser.add_argument("--languages", nargs="+", choices=sorted(MARGINAL_SOLUTIONS), default=sorted(MARGINAL_SOLUTIONS),
                        metavar="LANGUAGE", help="item 8 for these languages only")
    parser.add_argument("--peers", metavar="VENV", help="item 10: the virtual environment holding problemtools and "
                        "BAPCtools (default: $JUDGE_BENCH_PEERS, else verifyproblem and bt on PATH)")
    parser.add_argument("--examples", metavar="DIR", help="item 10: problemtools' examples/ folder (default: the "
                        "installed problemtools', else its downloaded sdist's)")
    args = parser.parse_args()
    items = {
        1: lambda: per_case_overhead(work, 200 if args.quick else 1000),
        2: lambda: parallel_cases(work, 8 if args.quick else 20),
        3: lambda: stress_speed(200 if args.quick else 1000, 1 if args.quick else 5),
        4: lambda: start_up(work, 5 if args.quick else 15),
        5: lambda: grading(work, args.students),
        6: lambda: cluster_throughput(work, 10, 1 if args.quick else 3),
        7: lambda: per_case_cost(work, 3 if args.quick else 10),
        8: lambda: marginal_case_cost(work, 3 if args.quick else 5, args.languages),
        9: lambda: one_case_rows(work, 5 if args.quick else 15),
        10: lambda: peer_rows(args.peers, args.examples, work, JUDGE, JUDGE_ENV, 1 if args.quick else 3),
        11: lambda: warm_cold_cpu_time(work, 3 if args.quick else 15),
        12: lambda: course_server_rows(work, JUDGE, JUDGE_ENV, 3 if args.quick else 9),
    }
    unknown = set(args.only or ()) - set(items)
    if unknown:
        parser.error(f"no benchmark item {', '.join(map(str, sorted(unknown)))}; items are 1 to {len(items)}")
    work = Path(tempfile.mkdtemp(prefix="judge-bench-"))
    work.chmod(0o755)  # items 6 and 7 keep compile caches in it, which the sandbox's uid must reach
    try:
        warm_up()
        rows = []
        for number in sorted(args.only or items):
            row = items[number]()
            rows += row if isinstance(row[0], list) else [row]  # an item may report several rows
    finally:
        shutil.rmtree(work, ignore_errors=True)
    # An item comparing with several baselines gives its ratios as text, and "skipped" for met
    # when it could not run.
    table = [[name, measured, baseline, ratio if isinstance(ratio, str) else f"{ratio:.2f}", target,
              met if isinstance(met, str) else "met" if met else "NOT met"]
             for name, measured, baseline, ratio, target, met in rows]
    print(tabulate(table, headers=["benchmark", "judge", "baseline", "ratio", "target", ""], tablefmt="github"))


if __name__ == "__main__":
    main()
