"""Warm Python starts must never change a verdict: every Python file under solutions/ and
tests/hostile/ gets the same per-case verdicts warm and cold."""

import dataclasses
import functools
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from conftest import ROOT, built_in_problems, example_solutions, forcing_tier

from judge.formats.catalog import load_problem
from judge.harness import HARNESS_DIR
from judge.languages import warm
from judge.languages.program import python_interpreter
from judge.runner import base_limits, executor, judge_submission, prepare
from judge.sandbox import probe_tier, run_sandboxed

SOLUTIONS = [(problem, path) for problem in built_in_problems() for path, _ in example_solutions(problem)
             if path.suffix == ".py"]
HOSTILE = sorted((ROOT / "tests" / "hostile").glob("*.py"))
HOSTILE = [path for path in HOSTILE if not path.name.startswith(("test_", "__"))]
SELF_SIGNALLING = {"signal_self.py", "abort_self.py", "stop_self.py"}


def verdicts(problem, path: Path, cold: bool, cases=None) -> list[tuple[str, str]]:
    result = judge_submission(problem, path, cases=cases, cold=cold, stop_on_failure=cases is None)
    return [(case.name, case.verdict) for case in result.cases]


@pytest.mark.slow
@pytest.mark.parametrize("problem_id, path", SOLUTIONS, ids=[f"{p}/{path.parent.name}/{path.name}" for p, path in SOLUTIONS])
def test_solutions_get_the_same_verdicts_warm_and_cold(problem_id, path):
    problem = load_problem(problem_id)
    assert verdicts(problem, path, cold=False) == verdicts(problem, path, cold=True)


@functools.cache
def cold_runs_are_pid_1() -> bool:
    """Whether a cold run is the init of its PID namespace (the kernel spares an init the
    signals it sends itself; a warm case is an ordinary process)."""
    outcome = run_sandboxed([python_interpreter(), "-I", "-S", "-c", "import os; print(os.getpid())"], stdin=b"",
                            limits=base_limits(load_problem("stones")))
    return outcome.stdout.strip() == b"1"


@pytest.mark.parametrize("path", HOSTILE, ids=[path.name for path in HOSTILE])
def test_hostile_programs_get_the_same_verdicts_warm_and_cold(path):
    stones = load_problem("stones")
    cases = [stones.case("smallest")]
    warm_verdicts, cold_verdicts = (verdicts(stones, path, cold=cold, cases=cases) for cold in (False, True))
    if warm_verdicts != cold_verdicts and any(verdict == "TLE" for _, verdict in warm_verdicts + cold_verdicts):
        # These programs take milliseconds: a TLE on one side is a machine stalled by its load
        # (seen once under -n 2 beside other work), which a second look tells from a difference.
        warm_verdicts, cold_verdicts = (verdicts(stones, path, cold=cold, cases=cases) for cold in (False, True))
    if warm_verdicts != cold_verdicts and path.name in SELF_SIGNALLING and cold_runs_are_pid_1():
        pytest.xfail("cold runs are PID 1 of their namespace (bwrap --as-pid-1), which ignores the signals "
                     "it sends itself; a warm case is an ordinary process, as a cold run under an init would be")
    assert warm_verdicts == cold_verdicts


def test_a_warm_run_leaves_nothing_between_cases(write_program):
    """A case cannot see files or processes another case of the same submission left, even a
    daemon that double-forked and left its session."""
    marker = f"{31337 + os.getpid() % 1000}.{time.monotonic_ns() % 1000}"
    text = ("import os, sys\n"
            "leftover = os.listdir('.')\n"
            "for pid in filter(str.isdigit, os.listdir('/proc')):\n"
            "    try:\n"
            "        if b'MARKER' in open(f'/proc/{pid}/cmdline', 'rb').read():\n"
            "            leftover.append('process ' + pid)\n"
            "    except OSError:\n"
            "        pass\n"
            "open('mark.txt', 'w').write('x')\n"
            "if os.fork() == 0:\n"
            "    os.setsid()\n"
            "    if os.fork() == 0:\n"
            "        os.execv('/bin/sleep', ['sleep', 'MARKER'])\n"
            "    os._exit(0)\n"
            "os.wait()\n"
            "print('SK' if not leftover else 'LEFTOVER ' + ' '.join(leftover))\n").replace("MARKER", marker)
    stones = load_problem("stones")
    path = write_program("leaves.py", text)
    result = judge_submission(stones, path, cases=[stones.case("smallest"), stones.case("takes-all-three"), stones.case("small-odd")])
    assert [case.verdict for case in result.cases] == ["AC", "AC", "AC"], [case.output for case in result.cases]


def test_the_random_module_is_reseeded_per_case(write_program):
    stones = load_problem("stones")
    path = write_program("rand.py", "import random\nprint(random.random())\n")
    result = judge_submission(stones, path, cases=[stones.case("smallest"), stones.case("takes-all-three")])
    outputs = [case.output for case in result.cases]
    assert outputs[0] != outputs[1]


def test_output_through_the_original_stdout_is_kept_warm_as_cold(write_program):
    """sys.__stdout__ is the stream the submission starts with, and it is flushed at the end."""
    stones = load_problem("stones")
    path = write_program("dunder.py", "import sys\nsys.__stdout__.write('SK\\n')\n")
    case = [stones.case("smallest")]
    assert verdicts(stones, path, cold=False, cases=case) == verdicts(stones, path, cold=True, cases=case) == [("smallest", "AC")]


def test_a_script_whose_first_import_is_genericpath_runs_warm_as_cold(write_program):
    """A plain run has imported os (through site) before the script starts; with -S nothing has,
    and genericpath imported first imports itself half-made through os (an editor's auto-import
    `from genericpath import exists` was RE cold and AC warm)."""
    stones = load_problem("stones")
    path = write_program("auto_import.py", "from genericpath import exists\nprint('SK')\n")
    case = [stones.case("smallest")]
    assert verdicts(stones, path, cold=False, cases=case) == verdicts(stones, path, cold=True, cases=case) == [("smallest", "AC")]


def test_closing_stdout_ends_a_run_as_it_does_cold(write_program):
    """Python skips closed streams when it flushes at exit."""
    stones = load_problem("stones")
    path = write_program("closes.py", "import sys\nprint('SK')\nsys.stdout.close()\n")
    case = [stones.case("smallest")]
    assert verdicts(stones, path, cold=False, cases=case) == verdicts(stones, path, cold=True, cases=case) == [("smallest", "AC")]


def test_what_the_submission_defines_is_found_in_its_main_module(write_program):
    """pickle finds a class by its module, __main__: the submission's, not the warm server's."""
    stones = load_problem("stones")
    path = write_program("pickles.py", "import pickle\nclass Answer:\n    text = 'SK'\n"
                                       "print(pickle.loads(pickle.dumps(Answer())).text)\n")
    assert verdicts(stones, path, cold=False, cases=[stones.case("smallest")]) == [("smallest", "AC")]


def run_warm_and_cold(path: Path, stdin: bytes) -> list:
    """(exit code, stdout, stderr) of one run of the program, warm then cold."""
    stones = load_problem("stones")
    prepared = prepare(stones, path)
    language, program, limits = prepared.language, prepared.program, prepared.limits
    reports = []
    for cold in (False, True):
        with executor(language, program, stones.io, limits, cold=cold) as execute:
            outcome = execute(list(program.command), stdin, limits, program.directory)
        reports.append((outcome.exit_code, outcome.stdout, outcome.stderr))
    return reports


def test_an_uncaught_exception_prints_the_same_traceback_warm_and_cold(write_program):
    """Only the submission's frames, as Python prints them itself."""
    path = write_program("raises.py", "def f():\n    return 1 / 0\nprint('SK')\nf()\n")
    warm_run, cold_run = run_warm_and_cold(path, b"1\n")
    assert warm_run == cold_run
    assert warm_run[2].decode().splitlines()[1].strip().startswith('File "/')


def test_recursion_goes_as_deep_warm_as_cold(write_program):
    """The warm server's own frames do not count against the submission's recursion limit."""
    path = write_program("deep.py", "def down(n):\n    return 0 if n == 0 else 1 + down(n - 1)\n"
                                    "for depth in range(980, 1010):\n    try:\n        down(depth)\n"
                                    "    except RecursionError:\n        break\nprint(depth)\n")
    warm_run, cold_run = run_warm_and_cold(path, b"")
    assert warm_run == cold_run and warm_run[0] == 0


def test_the_interpreter_is_set_up_as_for_a_cold_run(write_program):
    """Flags, arguments and the import path (-I keeps the program's directory off it)."""
    path = write_program("setup.py", "import sys\nprint(sys.path, sys.argv, sys.flags)\n")
    warm_run, cold_run = run_warm_and_cold(path, b"")
    assert warm_run == cold_run and warm_run[0] == 0


def test_the_run_ends_as_python_ends_it(write_program):
    """Python waits for the threads the program started (the deep-recursion idiom runs `main` in
    a thread with a big stack) and calls its atexit functions (a fast-output idiom writes its
    buffer from one) before it exits."""
    stones = load_problem("stones")
    threaded = write_program("threaded.py", "import sys, threading, time\nthreading.stack_size(1 << 26)\n"
                                            "def main():\n    time.sleep(0.05)\n    print('SK')\n"
                                            "threading.Thread(target=main).start()\n")
    buffered = write_program("buffered.py", "import atexit, io, sys\nbuffer = io.StringIO()\nsys.stdout = buffer\n"
                                            "atexit.register(lambda: sys.__stdout__.write(buffer.getvalue()))\n"
                                            "print('SK')\n")
    case = [stones.case("smallest")]
    for path in (threaded, buffered):
        warm_verdicts = verdicts(stones, path, cold=False, cases=case)
        assert warm_verdicts == verdicts(stones, path, cold=True, cases=case) == [("smallest", "AC")], path.name


def test_the_standard_streams_are_made_as_python_makes_them(write_program):
    """No newline translation, the locale's error handler (bytes that are not UTF-8 come through),
    the same names, modes and buffering."""
    path = write_program("streams.py", "import sys\nline = sys.stdin.readline()\nprint(repr(line))\nprint(line)\n"
                                       "for s in (sys.stdin, sys.stdout, sys.stderr):\n"
                                       "    print(s, s.errors, s.line_buffering, type(s.buffer).__name__)\n")
    warm_run, cold_run = run_warm_and_cold(path, b"a\xff\r\nb\n")
    assert warm_run == cold_run
    assert b"'a\\udcff\\r\\n'" in warm_run[1]


def test_the_server_and_cold_runs_start_from_bytecode_compiled_by_their_interpreter():
    """So that they do not compile their source: that costs a cold run time, and leaves memory
    behind in the server for every case to copy."""
    stones = load_problem("stones")
    program = prepare(stones, ROOT / "solutions/stones/accepted/game_dp.py").program
    check = subprocess.run([program.command[0], "-I", "-S", "-c",
                            "import sys, importlib.util; sys.stdout.buffer.write(importlib.util.MAGIC_NUMBER)"],
                           capture_output=True, check=True)
    for name in ("server.pyc", "start.pyc"):
        assert (program.directory / name).read_bytes()[:4] == check.stdout, name
    assert "{prog}/server.pyc" in warm.server_command(program, "stdio")
    assert "{prog}/start.pyc" in program.command


def test_a_server_that_cannot_start_is_not_started_for_every_case(monkeypatch):
    """The cases run cold, with the right verdicts, after two servers died without answering."""
    started = []

    def broken_server(program, style):
        started.append(style)
        return [program.command[0], "-I", "-S", "-c", "raise SystemExit(3)"]

    monkeypatch.setattr(warm, "server_command", broken_server)
    stones = load_problem("stones")
    cases = [stones.case(name) for name in ("smallest", "smallest-even", "takes-all-three", "first-losing", "small-even")]
    result = judge_submission(stones, ROOT / "solutions/stones/accepted/game_dp.py", cases=cases, jobs=1)
    assert [case.verdict for case in result.cases] == ["AC"] * 5
    assert len(started) == warm.SILENT_DEATHS


def test_a_warm_case_sees_the_same_environment_as_a_cold_one():
    stones = load_problem("stones")
    path = ROOT / "tests" / "hostile" / "read_environment.py"
    names = []
    for cold in (False, True):
        result = judge_submission(stones, path, cases=[stones.case("smallest")], cold=cold)
        names.append(sorted(line.split("=", 1)[0] for line in result.cases[0].output.splitlines()))
    assert names[0] == names[1]


@pytest.mark.parametrize("tier", [tier for tier in ("root", "bwrap", "unshare", "none") if probe_tier(tier) is None])
def test_warm_servers_leave_no_files_in_the_hosts_temporary_directory(tier):
    """Nothing of this judge's is left in /tmp: its scratch directories (named after its pid;
    other tests' judges may be running meanwhile) nor the servers' own files."""
    temporary = Path(tempfile.gettempdir())
    before = set(temporary.iterdir())
    judge = subprocess.Popen([sys.executable, "-m", "judge", "run", "stones",
                              str(ROOT / "solutions/stones/accepted/game_dp.py"), "--no-record"],
                             cwd=ROOT, env={**os.environ, "JUDGE_SANDBOX": tier},
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, stderr = judge.communicate(timeout=300)
    assert judge.returncode == 0, stderr
    left = {path.name for path in set(temporary.iterdir()) - before}
    assert not {name for name in left
                if name.startswith(("io-", f"judge-run-{judge.pid}-", f"judge-server-{judge.pid}-"))}


# --- a case that attacks the server's processes or escapes its accounting ----------------------

def finishes_within(seconds: float, function):
    """``function()``'s result; fails the test if it has not returned after ``seconds``."""
    results = []
    worker = threading.Thread(target=lambda: results.append(function()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert results, f"still running after {seconds} s"
    return results[0]


@pytest.fixture(params=[tier for tier in ("root", "bwrap", "none") if probe_tier(tier) is None])
def forced_tier(request, monkeypatch):
    """Runs the test under bwrap (run by root, and in a user namespace), where the server is out of a
    case's reach, and (as root) in the `none` tier, where a case can kill it too."""
    yield from forcing_tier(request.param, monkeypatch)


def prepared_with_wall_time(problem, path: Path, wall_time: float) -> tuple:
    """(language, program, limits) of a submission, with a wall-time limit of ``wall_time``."""
    prepared = prepare(problem, path)
    return prepared.language, prepared.program, dataclasses.replace(prepared.limits, wall_time=wall_time)


def test_a_case_that_kills_its_parent_and_every_process_it_can_costs_no_more_than_a_cold_run(forced_tier):
    """It kills the zygote (or, in the `none` tier, the server too): the server must notice at
    once and the case be run cold, not wait out the wall-time limit (a long one here)."""
    stones = load_problem("stones")
    language, program, limits = prepared_with_wall_time(stones, ROOT / "tests" / "hostile" / "kill_parent.py", 120.0)

    def run_twice(cold):
        with executor(language, program, stones.io, limits, cold=cold) as execute:
            outcomes = [execute(list(program.command), b"1\n", limits, program.directory) for _ in range(2)]
        return [(outcome.exit_code, outcome.stdout) for outcome in outcomes]

    warm_runs = finishes_within(60, lambda: run_twice(cold=False))
    assert warm_runs == run_twice(cold=True) == [(0, b"SK\n")] * 2


def cpu_time_of_thread_forked_workers(cold: bool) -> tuple[float, float]:
    """(CPU seconds measured, the limit) for a case whose thread forks two workers that burn a
    second each and are left as zombies when it ends: the limit is one second."""
    stones = load_problem("stones")
    language, program, limits = prepared_with_wall_time(stones, ROOT / "tests" / "hostile" / "thread_fork_cpu.py", 120.0)
    with executor(language, program, stones.io, limits, cold=cold) as execute:
        return execute(list(program.command), b"1\n", limits, program.directory).cpu_time, limits.cpu_time


def test_cpu_time_of_processes_a_thread_forked_counts_warm(forced_tier):
    cpu, limit = cpu_time_of_thread_forked_workers(cold=False)
    assert cpu > limit


def test_cpu_time_of_processes_a_thread_forked_counts_cold(forced_tier):
    cpu, limit = cpu_time_of_thread_forked_workers(cold=True)
    if cpu <= limit and forced_tier not in ("root", "bwrap"):
        pytest.xfail(f"a cold run in the {forced_tier} tier does not count the CPU of workers re-parented to the "
                     "judge and reaped there")
    assert cpu > limit


# --- exit() and quit(), as `site` defines them --------------------------------------------------

EXITS = {
    "exit": "print('SK')\nexit()\nprint('not reached')\n",
    "quit": "print('SK', end='')\nquit()\n",
    "exit-0": "exit(0)\n",
    "exit-3": "print('SK')\nexit(3)\n",
    "sys-exit": "import sys\nsys.exit(4)\n",
    "exit-message": "exit('bye')\n",
    "exit-in-function": "def main():\n    print('SK')\n    exit(5)\nmain()\n",
}


@pytest.mark.parametrize("name", EXITS)
def test_exit_and_quit_end_the_run_as_with_site(name, write_program):
    """The same exit status and output warm and cold as an interpreter that loads `site` gives."""
    path = write_program("exits.py", EXITS[name])
    with_site = subprocess.run([python_interpreter(), "-I", "-B", str(path)], capture_output=True, check=False)
    expected = (with_site.returncode, with_site.stdout, with_site.stderr)
    warm_run, cold_run = run_warm_and_cold(path, b"1\n")
    assert warm_run == cold_run == expected


def test_exit_after_the_answer_is_accepted_and_a_nonzero_status_is_a_runtime_error(write_program):
    stones = load_problem("stones")
    case = [stones.case("smallest")]
    for text, verdict in (("print('SK')\nexit()\n", "AC"), ("print('SK')\nquit()\n", "AC"),
                          ("print('SK')\nexit(3)\n", "RE")):
        path = write_program("exits.py", text)
        for cold in (False, True):
            assert verdicts(stones, path, cold=cold, cases=case) == [("smallest", verdict)], (text, cold)


def test_a_function_submission_that_calls_exit_gets_the_same_report_warm_and_cold(write_program):
    footholds = load_problem("footholds")
    path = write_program("exits.py", "def solution(board, aloc, bloc):\n    exit(3)\n")
    case = [footholds.cases[0]]
    warm_result, cold_result = (judge_submission(footholds, path, cases=case, cold=cold).cases[0] for cold in (False, True))
    assert (warm_result.verdict, warm_result.message) == (cold_result.verdict, cold_result.message)
    assert warm_result.verdict == "RE" and "exit(3)" in warm_result.message, warm_result.message


# --- start.py runs a script as the interpreter does ---------------------------------------------

SCRIPTS = {
    "traceback": b"def f():\n    return 1 / 0\nprint('SK')\nf()\n",
    # The modules loaded but those site loads in a plain run, which start.py loads too: _sitebuiltins,
    # and os with what it imports.
    "globals": b"import sys\nprint(sorted(globals()), __file__, __name__, type(__loader__).__name__, __spec__, sys.argv)\n"
               b"print(sorted(set(sys.modules) - {'_sitebuiltins', 'os', 'os.path', 'posixpath', 'genericpath', "
               b"'stat', '_stat', '_collections_abc'}))\n",
    "recursion": b"def down(n):\n    return 0 if n == 0 else 1 + down(n - 1)\nfor depth in range(980, 1010):\n"
                 b"    try:\n        down(depth)\n    except RecursionError:\n        break\nprint(depth)\n",
    "latin-1-comment": b"# caf\xe9\nprint('SK')\n",
    "latin-1-comment-line-2": b"print('SK')\n# caf\xe9\n",
    "truncated-sequence": b"print('SK')\n# \xe2\x82x\n",
    "surrogate": b"print('SK')\n# \xed\xa0\x80\n",
    "carriage-returns": b"print('SK')\r# ok\r# caf\xe9\r",
    "declared": b"# -*- coding: latin-1 -*-\n# caf\xe9\nprint('SK')\n",
    "declared-on-line-2": b"#!/usr/bin/python3\n# vim: set fileencoding=latin-1 :\n# caf\xe9\nprint('SK')\n",
    "declared-too-late": b"print('SK')\n# coding: latin-1\n# caf\xe9\n",
    "declared-after-the-bad-line": b"# caf\xe9\n# coding: latin-1\nprint('SK')\n",
    "declared-utf-8": b"# coding: utf-8\n# caf\xe9\nprint('SK')\n",
    "byte-order-mark": b"\xef\xbb\xbfprint('SK')\n# caf\xe9\n",
}


@pytest.mark.parametrize("name", SCRIPTS)
def test_start_runs_a_script_as_the_interpreter_does(name, tmp_path):
    """Same exit status, output and errors (tracebacks, undeclared non-UTF-8 source, recursion
    depth, globals) as `python3 -I -S -B script.py`."""
    path = tmp_path / "script.py"
    path.write_bytes(SCRIPTS[name])
    runs = []
    for launcher in ([], [str(HARNESS_DIR / "python_start.py")]):
        done = subprocess.run([python_interpreter(), "-I", "-S", "-B", *launcher, str(path)], capture_output=True,
                              check=False, cwd=tmp_path)
        runs.append((done.returncode, done.stdout, done.stderr))
    assert runs[0] == runs[1]


# --- each case sees a world of its own ---------------------------------------------------------

def test_a_case_that_fills_tmp_leaves_the_next_case_a_fresh_one():
    """Each warm case has an empty /tmp and /dev/shm, as each cold run has, and its output is
    kept while /tmp is full."""
    stones = load_problem("stones")
    cases = [stones.case(name) for name in ("smallest", "takes-all-three", "small-odd")]
    result = judge_submission(stones, ROOT / "tests" / "hostile" / "fill_tmp.py", cases=cases)
    assert [case.verdict for case in result.cases] == ["AC"] * 3, [case.output for case in result.cases]


# --- a case ends as a program ends, and its CPU time counts as a cold run's ---------------------

def test_objects_left_at_the_end_are_collected_and_freed_warm_as_cold(write_program):
    """At exit the interpreter collects garbage and tears down the program's modules: a cycle's
    __del__ and a global's __del__ run, and may still print."""
    path = write_program("goodbye.py", "print('SK')\n"
                                       "class Node:\n    def __init__(self):\n        self.me = self\n"
                                       "    def __del__(self):\n        print('cycle freed')\n"
                                       "def make():\n    Node()\nmake()\n"
                                       "class Goodbye:\n    def __del__(self):\n"
                                       "        print('bye', type(Node).__name__)\n"
                                       "kept = Goodbye()\n")
    warm_run, cold_run = run_warm_and_cold(path, b"")
    assert warm_run == cold_run == (0, b"SK\ncycle freed\nbye type\n", b"")


def test_what_the_interpreter_does_at_exit_counts_against_the_cpu_limit_warm_as_cold(write_program):
    """A cold run's CPU time includes the interpreter's work after the program's last line (for a
    program holding many objects, collecting and freeing them): a warm case's does too."""
    stones = load_problem("stones")
    path = write_program("slow_exit.py", "import time\nclass Slow:\n    def __del__(self):\n"
                                         "        while time.process_time() < 5:\n            pass\n"
                                         "kept = Slow()\nprint('SK')\n")
    case = [stones.case("smallest")]  # a CPU limit of 1 s
    assert verdicts(stones, path, cold=False, cases=case) == verdicts(stones, path, cold=True, cases=case) \
        == [("smallest", "TLE")]


def test_a_case_has_the_garbage_collector_of_a_fresh_interpreter(write_program):
    """Enabled, with the interpreter's thresholds (what the zygote holds is frozen out of its
    collections, which are left the program's objects, as a fresh interpreter's are)."""
    path = write_program("collector.py", "import gc\nprint(gc.isenabled(), gc.get_threshold())\n")
    warm_run, cold_run = run_warm_and_cold(path, b"")
    assert warm_run == cold_run and warm_run[0] == 0


def test_an_input_larger_than_the_output_limit_runs_warm(write_program, monkeypatch):
    """The server writes each case's input to a file: its own file size limit is not the output
    limit, which each case sets on itself."""
    stdin = b"7\n" * (1 << 20)  # 2 MiB, twice stones' output limit
    path = write_program("reads_all.py", "import sys\nprint(len(sys.stdin.buffer.read()))\n")
    cold_runs = []
    cold = warm.run_sandboxed

    def counted(*args, **kwargs):
        cold_runs.append(args)
        return cold(*args, **kwargs)

    monkeypatch.setattr(warm, "run_sandboxed", counted)
    warm_run, cold_run = run_warm_and_cold(path, stdin)
    assert warm_run == cold_run == (0, b"2097152\n", b"")
    assert not cold_runs, "the warm case fell back to a cold run"
