"""Interactive problems: whether the validator rejected on what the submission wrote (its WA
wins over the submission's failure) or on the submission's end (the failure wins) does not depend
on which of the two the kernel reported first: the judge gives the validator the submission's end
only once the validator waits for more input (judge/sandbox/exit_order.py).

The judge runs in this test process, next to a thread that spins pure Python code (it holds the
GIL most of the time, as other case threads do when grading with -j 2) and beside processes that
keep both cores busy, so that the two programs' endings come in any order."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from conftest import ROOT

from judge.formats.icpc.loading import load_package
from judge.runner import prepare, run_case
from judge.sandbox.exit_order import HeldEnd

PACKAGES = ROOT / "tests" / "packages"
REPEATS = 8

# Each answers the first number wrongly; the validator rejects it and exits 43 at once; the
# submission's next read finds the pipe closed and it crashes at once.
CRASH_ON_HANG_UP = {
    "crash_on_eof.py": "while True:\n    print(int(input()) + 1, flush=True)\n",
    "crash_on_eof.c": """#include <stdio.h>
#include <stdlib.h>
int main(void) {
    long long x;
    for (;;) {
        if (scanf("%lld", &x) != 1) abort();
        printf("%lld\\n", x + 1);
        fflush(stdout);
    }
}
""",
}


@contextmanager
def gil_held_by_a_busy_thread() -> Iterator[None]:
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            total = 0
            for number in range(20000):
                total += number * number

    spinner = threading.Thread(target=spin, daemon=True)
    spinner.start()
    try:
        yield
    finally:
        stop.set()
        spinner.join()


@contextmanager
def both_cores_busy() -> Iterator[None]:
    """Two processes that spin until the block ends (killed by their own handles)."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        yield
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()


def verdicts_of(source, repeats: int = REPEATS) -> list[str]:
    """The verdicts of ``source`` on the doubler's first case, run ``repeats`` times in this
    process while another thread holds the GIL and other processes keep the cores busy."""
    problem = load_package(PACKAGES / "doubler")
    case = next(case for case in problem.cases if case.name == "secret/01")
    prepared = prepare(problem, source)
    fds_before = open_fds()
    with gil_held_by_a_busy_thread(), both_cores_busy():
        verdicts = [str(run_case(problem, prepared, case).verdict.value) for _ in range(repeats)]
    assert open_fds() == fds_before
    return verdicts


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.parametrize("name", sorted(CRASH_ON_HANG_UP))
def test_a_crash_on_the_validators_hang_up_is_the_wrong_answer_before_it(tmp_path, name):
    source = tmp_path / name
    source.write_text(CRASH_ON_HANG_UP[name])
    assert verdicts_of(source) == ["WA"] * REPEATS


def test_a_crash_right_after_a_wrong_answer_is_the_wrong_answer_every_time():
    # It does not wait for the validator: which of the two ends first is the scheduler's choice,
    # and problemtools and DOMjudge give WA or RTE by it. The validator rejects on the answer.
    source = PACKAGES / "doubler/submissions/wrong_answer/crashes_after_a_wrong_answer.c"
    assert verdicts_of(source, repeats=12) == ["WA"] * 12


def test_a_submission_that_crashes_before_the_validator_decides_is_a_crash():
    # It reads the first number and exits 3 without answering; the validator then finds no
    # answer and rejects, on the submission's end.
    source = PACKAGES / "doubler/submissions/run_time_error/crashes.py"
    assert verdicts_of(source, repeats=5) == ["RE"] * 5


def test_a_submission_out_of_time_while_the_validator_waits_is_a_time_out():
    # The judge stops it at the time limit; the validator then finds no answer and rejects.
    source = PACKAGES / "doubler/submissions/time_limit_exceeded/never_answers.py"
    assert verdicts_of(source, repeats=2) == ["TLE"] * 2


# ---------------------------------------------------------------------------------------------
# The held end on plain processes standing for the validator.

class Reader:
    """A program reading a pipe whose write end the test holds (as the submission's sandbox would,
    here already closed: the submission has ended) through a HeldEnd."""

    def __init__(self, script: str, written: bytes = b"") -> None:
        read_end, write_end = os.pipe2(os.O_CLOEXEC)
        out_read, out_write = os.pipe2(os.O_CLOEXEC)
        self.process = subprocess.Popen([sys.executable, "-c", script], stdin=read_end, stdout=out_write)
        os.write(write_end, written)
        self.held = HeldEnd(os.dup(write_end), input_read=os.dup(read_end), output_read=out_read)
        self.held.validator_started(os.pidfd_open(self.process.pid))
        for fd in (read_end, write_end, out_write):  # what the submission's end closed
            os.close(fd)

    def give(self) -> bool:
        return self.held.give(lambda: self.process.poll() is None)


@pytest.fixture
def readers():
    made: list[Reader] = []
    fds_before = open_fds()
    yield lambda *args: made.append(Reader(*args)) or made[-1]
    for reader in made:
        reader.process.kill()
        reader.process.wait()
        reader.held.close()
    assert open_fds() == fds_before


def test_a_validator_that_ends_on_what_was_written_ended_first(readers):
    reader = readers("import sys; sys.exit(43 if sys.stdin.readline() == 'wrong\\n' else 1)", b"wrong\n")
    assert reader.give() is True
    assert reader.process.wait() == 43


def test_a_validator_waiting_for_more_is_given_the_end_and_ends_after(readers):
    reader = readers("import sys; sys.stdin.readline(); sys.exit(43 if sys.stdin.read() == '' else 1)", b"half\n")
    assert reader.give() is False
    assert reader.process.wait() == 43  # it read the end of its input


def test_a_validator_still_working_is_not_given_the_end(readers):
    # It works on what it read for a while, then looks whether the end of its input has come
    # without waiting for it: given the end while it works, it would exit 3.
    script = ("import select, sys, time\nsys.stdin.readline()\nstop = time.process_time() + 0.3\n"
              "while time.process_time() < stop: pass\n"
              "sys.exit(3 if select.select([sys.stdin], [], [], 0)[0] else 43)")
    reader = readers(script, b"answer\n")
    assert reader.give() is True
    assert reader.process.wait() == 43


def test_a_validator_with_unread_input_is_not_given_the_end(readers):
    # It sleeps before reading: the unread answer shows it has more to do.
    script = ("import select, sys, time\ntime.sleep(0.3)\nsys.stdin.readline()\n"
              "sys.exit(3 if select.select([sys.stdin], [], [], 0)[0] else 43)")
    reader = readers(script, b"answer\n")
    assert reader.give() is True
    assert reader.process.wait() == 43
