"""Real runs of small programs in the sandbox, one per verdict."""

import pytest

from judge.formats.catalog import load_problem
from judge.runner import judge_submission

STONES = load_problem("stones")


def judge_one(path, case="smallest"):
    result = judge_submission(STONES, path, cases=[STONES.case(case)])
    return result.cases[0]


@pytest.mark.parametrize("name, text, verdict, message", [
    ("ac.py", "n = int(input())\nprint('SK' if n % 2 else 'CY')\n", "AC", ""),
    ("wa.py", "print('CY')\n", "WA", "got 'CY'"),
    ("busy.py", "while True:\n    pass\n", "TLE", "CPU time"),
    ("sleepy.py", "import time\ntime.sleep(60)\n", "TLE", "wall time"),
    ("hog.py", "blocks = []\nwhile True:\n    blocks.append(bytearray(1 << 20))\n", "MLE", "memory limit"),
    ("huge.py", "x = [0] * (10 ** 10)\n", "MLE", "memory limit"),
    ("flood.py", "while True:\n    print('x' * 1000)\n", "OLE", "output"),
    ("raises.py", "raise ValueError('boom')\n", "RE", "ValueError: boom"),
    ("exits.py", "import sys\nsys.exit(3)\n", "RE", "exit code 3"),
    ("segfault.py", "import ctypes\nctypes.string_at(0)\n", "RE", "SIGSEGV"),
    ("syntax.py", "print('SK'\n", "CE", "SyntaxError"),
])
def test_python_verdicts(write_program, name, text, verdict, message):
    result = judge_one(write_program(name, text), case="sample-1")
    assert result.verdict == verdict, result.message
    assert message in result.message


def test_a_hidden_case_message_carries_no_stderr(write_program):
    """A program can print a hidden case's input to stderr: only the verdict and what happened show."""
    path = write_program("leaks.py", "import sys\nsys.exit('input was ' + input())\n")
    assert judge_one(path, case="sample-1").message == "exit code 1: input was 5"
    assert judge_one(path, case="smallest").message == "exit code 1"


def test_a_hidden_crash_names_its_exception_class_not_its_message(write_program):
    """An lru_cache recursion too deep on a hidden case says RecursionError; a raised message
    that quotes the input shows on a sample case only."""
    deep = write_program("deep.py", "import sys\nfrom functools import lru_cache\n\n@lru_cache(None)\n"
                                    "def f(n):\n    return n and f(n - 1)\n\nprint(f(int(input()) * 10000))\n")
    assert judge_one(deep, case="mid-even").message == "exit code 1: RecursionError"
    quoting = write_program("quotes.py", "n = input()\nraise IndexError('bad n ' + n)\n")
    assert judge_one(quoting, case="smallest").message == "exit code 1: IndexError"
    assert judge_one(quoting, case="sample-1").message.startswith("exit code 1: IndexError: bad n 5")


@pytest.mark.parametrize("stderr, name", [
    ("Traceback (most recent call last):\n  File \"/x/solution.py\", line 3, in <module>\n"
     "RecursionError: maximum recursion depth exceeded", "RecursionError"),
    ("Exception in thread \"main\" java.lang.ArrayIndexOutOfBoundsException: Index 7 out of bounds for length 5\n"
     "\tat Main.main(Main.java:9)", "java.lang.ArrayIndexOutOfBoundsException"),
    ("/box/solution.js:3\n  x.y.z\n    ^\n\nTypeError: Cannot read properties of undefined (reading 'z')\n"
     "    at Object.<anonymous> (/box/solution.js:3:5)\n\nNode.js v18.19.0", "TypeError"),
    ("the input was 12 34 error here", ""),
])
def test_exception_class_keeps_only_the_class(stderr, name):
    from judge.runner import exception_class, shown_error

    assert exception_class(stderr.encode()) == name
    assert shown_error(stderr.encode(), "hidden") == name


def test_the_time_limit_stops_a_busy_program_promptly(write_program):
    result = judge_one(write_program("busy.py", "while True:\n    pass\n"))
    assert result.verdict == "TLE"
    assert result.cpu_time < STONES.time_limit + 0.5  # stopped by the judge, not the rlimit backstop


def test_megabytes_of_stderr_are_drained_and_truncated(write_program):
    text = ("import sys\nsys.stderr.write('e' * (8 << 20))\n"
            "n = int(input())\nprint('SK' if n % 2 else 'CY')\n")
    result = judge_one(write_program("chatty.py", text))
    assert result.verdict == "AC"


def test_a_program_that_never_reads_its_large_stdin(write_program, tmp_path):
    path = write_program("ignores.py", "print('SK')\n")
    huge = STONES.case("smallest").__class__(name="big", input="1\n" + "9" * (16 << 20))
    result = judge_submission(STONES, path, cases=[huge])
    assert result.cases[0].verdict in {"AC", "WA"}  # finished and judged, no deadlock


def test_invalid_utf8_output_is_judged_not_crashed(write_program):
    result = judge_one(write_program("bytes.py", "import sys\nsys.stdout.buffer.write(b'\\xff\\xfe SK\\n')\n"))
    assert result.verdict == "WA"


def test_closed_stdout_is_a_wrong_answer_not_a_crash(write_program):
    result = judge_one(write_program("closed.py", "import os\nos.close(1)\n"))
    assert result.verdict == "WA"


def test_the_working_directory_is_empty_and_writable(write_program):
    text = ("import os\nassert os.listdir('.') == [], os.listdir('.')\n"
            "open('scratch.txt', 'w').write('x')\nprint('SK')\n")
    assert judge_one(write_program("cwd.py", text)).verdict == "AC"


def test_the_environment_is_minimal(write_program, monkeypatch):
    monkeypatch.setenv("JUDGE_TEST_SECRET", "hunter2")
    text = "import os\nassert 'JUDGE_TEST_SECRET' not in os.environ, 'leaked'\nprint('SK')\n"
    assert judge_one(write_program("env.py", text)).verdict == "AC"


def test_scores_and_counts(write_program):
    path = write_program("even.py", "print('CY' if int(input()) % 2 == 0 else 'CY')\n")
    result = judge_submission(STONES, path)
    assert result.verdict == "WA"
    assert 0 < result.score < 100 and result.passed < result.total == len(STONES.cases)


# A program that answers right, but only once its wall time is past the limit (1 s) and its
# overshoot (1 s): DOMjudge's test-suspend-ppid.c, which sleeps past hello's limit, in short.
LATE = "import time\ntime.sleep(2.6)\nprint('SK')\n"
# One that computes for 0.4 s of CPU, then waits until 2.6 s have passed: at the wall clock's
# 2 s it had 20% of its time on a CPU (10% at least, on a machine busy enough to give it no
# more), which is what a busy machine leaves a computing program.
COMPUTING_THEN_LATE = ("import time\nstarted = time.monotonic()\nwhile time.process_time() < 0.4:\n    pass\n"
                       "time.sleep(max(0.0, 2.6 - (time.monotonic() - started)))\nprint('SK')\n")


def test_a_program_still_running_past_the_limit_and_its_overshoot_is_too_slow(write_program):
    """Its CPU time is well under the limit, but a contestant's program whose wall time passes
    the limit is too slow, by DOMjudge's judging as by a contestant's reading."""
    result = judge_one(write_program("late.py", LATE), case="sample-1")
    assert result.verdict == "TLE", result.message
    assert "still running after 2 s of wall time" in result.message and "sleeping or waiting?" in result.message


def test_a_program_the_wall_clock_stopped_while_it_computed_is_run_again_with_room(write_program):
    """Stopped at 2 s with 20% of its wall time on a CPU, short of its CPU limit: a loaded
    machine looks like this, so the case runs once more with the wall clock at 3 x 1 + 1 s,
    and that run, which ends by itself, decides."""
    result = judge_one(write_program("computing.py", COMPUTING_THEN_LATE), case="sample-1")
    assert result.verdict == "AC", result.message
    assert result.wall_time > 2.0
