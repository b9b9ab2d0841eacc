"""Interactive problems: which of submission and validator ended first decides between the
validator's WA and the submission's own failure, and that order is the kernel's, not the order in
which the judge's threads happened to notice the two endings.

The judge runs in this test process (not in a subprocess), next to a thread that spins pure
Python code: it holds the GIL most of the time, as other case threads do when grading with -j 2,
so that threads woken by a process's end get to run in an order of the interpreter's choosing."""

from __future__ import annotations

import os
import select
import subprocess
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager

import pytest
from conftest import ROOT

from judge.formats.icpc.loading import load_package
from judge.runner import prepare, run_case
from judge.sandbox.exit_order import TIE, ExitReferee

PACKAGES = ROOT / "tests" / "packages"
# Without the referee about a third of these runs went wrong; with it, about one run in a few
# hundred on a loaded machine still finds the submission's end first (a cause not found yet).
REPEATS = 10

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


def verdicts_of(source, repeats: int = REPEATS) -> list[str]:
    """The verdicts of ``source`` on the doubler's first case, run ``repeats`` times in this
    process while another thread holds the GIL."""
    problem = load_package(PACKAGES / "doubler")
    case = next(case for case in problem.cases if case.name == "secret/01")
    prepared = prepare(problem, source)
    fds_before = open_fds()
    with gil_held_by_a_busy_thread():
        verdicts = [str(run_case(problem, prepared, case).verdict.value) for _ in range(repeats)]
    assert open_fds() == fds_before and not referee_threads()
    return verdicts


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def referee_threads() -> list[threading.Thread]:
    return [thread for thread in threading.enumerate() if thread.name == "exit referee"]


@pytest.mark.parametrize("name", sorted(CRASH_ON_HANG_UP))
def test_a_crash_on_the_validators_hang_up_is_the_wrong_answer_before_it(tmp_path, name):
    source = tmp_path / name
    source.write_text(CRASH_ON_HANG_UP[name])
    verdicts = verdicts_of(source)
    # One run in a few hundred on a loaded machine still has the submission's end first (see
    # REPEATS): one such run is allowed; before the referee, about a third of them were.
    assert verdicts.count("WA") >= REPEATS - 1 and set(verdicts) <= {"WA", "RE"}, verdicts


def test_a_submission_that_crashes_before_the_validator_decides_is_a_crash():
    # It reads the first number and exits 3 without answering; the validator then finds no
    # answer and rejects, after the submission's end.
    source = PACKAGES / "doubler/submissions/run_time_error/crashes.py"
    assert verdicts_of(source, repeats=5) == ["RE"] * 5


def test_a_submission_out_of_time_while_the_validator_waits_is_a_time_out():
    # The judge stops it at the time limit; the validator then finds no answer and rejects.
    source = PACKAGES / "doubler/submissions/time_limit_exceeded/never_answers.py"
    assert verdicts_of(source, repeats=2) == ["TLE"] * 2


# ---------------------------------------------------------------------------------------------
# The referee on plain processes, each ended by the test closing its input: no sleeps.

class Cat:
    """A program (``cat`` unless told) reading the test's pipe and writing to a pipe of its own:
    it ends when the test closes its input."""

    def __init__(self, command: tuple[str, ...] = ("cat",)) -> None:
        self.out_read, out_write = os.pipe2(os.O_CLOEXEC)
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=out_write)
        os.close(out_write)
        self.pidfd = os.pidfd_open(self.process.pid)

    def end(self) -> None:
        self.process.stdin.close()
        self.process.wait()

    def wait_for_output(self, events: int) -> None:
        """Until its output pipe shows ``events`` (0: the hang-up)."""
        watch = select.poll()
        watch.register(self.out_read, events)
        assert watch.poll(60_000)

    def close(self) -> None:
        self.process.kill()
        self.process.wait()
        os.close(self.out_read)


@pytest.fixture
def cats():
    made: list[Cat] = []

    def make(*command: str) -> Cat:
        made.append(Cat(command or ("cat",)))
        return made[-1]
    fds_before = open_fds()
    yield make
    for cat in made:
        cat.close()
    assert open_fds() == fds_before and not referee_threads()


def referee_of(first: Cat, second: Cat, watch_first_output: bool = False) -> ExitReferee:
    """A referee handed both pidfds (and, if told, the pipe ``first`` writes to)."""
    hang_ups = {"first": os.dup(first.out_read)} if watch_first_output else {}
    referee = ExitReferee("first", "second", hang_ups=hang_ups)
    referee.on_start("first")(first.pidfd)
    referee.on_start("second")(second.pidfd)
    return referee


def test_the_referee_names_the_process_that_ended_first(cats):
    first, second = cats(), cats()
    with closing(referee_of(first, second)) as referee:
        second.end()
        first.end()
        assert referee.finish() == "second"


def test_processes_both_ended_before_the_referee_could_look_are_a_tie(cats):
    first, second = cats(), cats()
    first.end()
    second.end()
    with closing(referee_of(first, second)) as referee:
        assert referee.finish() == TIE


def test_a_process_that_ended_before_the_other_was_handed_over_is_first(cats):
    first, second = cats(), cats()
    with closing(ExitReferee("first", "second")) as referee:
        referee.on_start("first")(first.pidfd)
        first.end()
        referee.on_start("second")(second.pidfd)
        second.end()
        assert referee.finish() == "first"


def test_a_side_has_ended_when_the_pipe_it_writes_to_hangs_up(cats):
    # It closes its output on its first line, and ends only after the other process.
    hangs_up, other = cats("sh", "-c", "read line; exec >&-; cat >/dev/null"), cats()
    with closing(referee_of(hangs_up, other, watch_first_output=True)) as referee:
        hangs_up.process.stdin.write(b"line\n")
        hangs_up.process.stdin.flush()
        hangs_up.wait_for_output(0)
        other.end()
        hangs_up.end()
        assert referee.finish() == "first"


def test_data_waiting_in_the_watched_pipe_is_no_end(cats):
    writes, other = cats("sh", "-c", "echo unread; cat >/dev/null"), cats()
    with closing(referee_of(writes, other, watch_first_output=True)) as referee:
        writes.wait_for_output(select.POLLIN)
        other.end()
        writes.end()
        assert referee.finish() == "second"


def test_a_referee_whose_second_process_never_started_knows_no_order_and_leaves_nothing(cats):
    only = cats()
    referee = ExitReferee("only", "never")
    referee.on_start("only")(only.pidfd)
    only.end()
    assert referee.finish() is None
    referee.on_start("never")(os.pidfd_open(os.getpid()))  # too late: closed at once
    referee.close()
