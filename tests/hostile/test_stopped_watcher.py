"""A case cannot take the wall clock away from the judge. One that tries to stop or kill the
process watching it (its parent, its parent's process group, PID 1, every process it can reach)
and sleeps is TLE within the wall-time limit and a second, warm and cold, in every tier, and the
next case runs normally. A warm server that falls silent in the middle of a case all the same
(stopped or killed here from outside the sandbox) costs that case no more: stopped, it is killed
at the wall limit and the case is TLE; killed, the case runs cold; the next case gets a new server."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from judge.formats.catalog import load_problem
from judge.harness.proc_usage import descendants
from judge.languages import warm
from judge.model.results import Prepared
from judge.runner import judge_submission, prepare

HERE = Path(__file__).resolve().parent
STONES = load_problem("stones")
PROGRAMS = ["suspend_parent.c", "suspend_parent.py"]
# Input 1 stops the watcher, input 2 kills it; both then sleep for 100 s. takes-all-three is answered at once.
ATTACKS = {"stop": "smallest", "kill": "smallest-even"}
SLACK = 5.0  # seconds on top of the wall limit for starting servers and sandboxes on a shared machine


def prepared(name: str) -> Prepared:
    built = prepare(STONES, HERE / name)  # built (and cached) before the clock starts
    assert isinstance(built, Prepared), built
    return built


@pytest.mark.parametrize("cold", [False, True], ids=["warm", "cold"])
@pytest.mark.parametrize("attack", ATTACKS)
@pytest.mark.parametrize("name", PROGRAMS)
def test_a_case_that_tries_to_stop_or_kill_its_watcher_is_tle_within_the_wall_limit(tier, name, attack, cold):
    wall_limit = prepared(name).limits.wall_time
    cases = [STONES.case(ATTACKS[attack]), STONES.case("takes-all-three")]
    started = time.monotonic()
    result = judge_submission(STONES, HERE / name, cases=cases, cold=cold, jobs=1)
    elapsed = time.monotonic() - started
    verdicts = [(case.verdict, case.message) for case in result.cases]
    assert [verdict for verdict, _ in verdicts] == ["TLE", "AC"], verdicts
    assert result.cases[0].wall_time <= wall_limit + 1.5, verdicts
    assert elapsed < wall_limit + SLACK, f"judging took {elapsed:.1f} s for a wall limit of {wall_limit:g} s"


@pytest.mark.parametrize("name", ["stop_parent.c", "stop_parent_routes.c", "stop_parent.py", "kill_parent.c",
                                  "kill_parent.py"])
def test_a_warm_case_cannot_stop_or_kill_its_watcher(tier, name, monkeypatch):
    """The attempts fail (the server's signal guard): the case answers, through its server,
    which answers the next case too. A stopped server would make it TLE, a killed one a cold run."""
    def no_cold_run(*args, **kwargs):
        raise AssertionError("a case ran cold: its server died")

    monkeypatch.setattr(warm, "run_sandboxed", no_cold_run)
    cases = [STONES.case("smallest"), STONES.case("takes-all-three")]
    result = judge_submission(STONES, HERE / name, cases=cases, jobs=1)
    assert [(case.verdict, case.message) for case in result.cases] == [("AC", "")] * 2


def signal_later(pid: int, signum: int, delay: float) -> threading.Thread:
    """After ``delay`` seconds, send ``signum`` to ``pid`` and every process below it."""
    def send():
        time.sleep(delay)
        for target in (pid, *descendants(pid)):
            try:
                os.kill(target, signum)
            except ProcessLookupError:
                pass

    thread = threading.Thread(target=send)
    thread.start()
    return thread


@pytest.mark.parametrize("signum", [signal.SIGSTOP, signal.SIGKILL], ids=["stopped", "killed"])
@pytest.mark.parametrize("name", PROGRAMS)
def test_a_server_silent_in_the_middle_of_a_case_costs_it_no_more_than_its_wall_limit(tier, name, signum):
    built = prepared(name)
    limits = built.limits
    pool = built.language.warm_pool(built.program, STONES.io, limits)
    command = built.program.argv(limits)

    def run(stdin: bytes):
        return pool.execute(command, stdin, limits, built.program.directory)

    pool.start(1)
    try:
        assert run(b"3\n").stdout == b"SK\n"  # the server is up and answers
        server = pool.all[0]
        sender = signal_later(server.pid, signum, delay=1.0)  # while the case sleeps
        started = time.monotonic()
        outcome = run(b"1\n")
        elapsed = time.monotonic() - started
        sender.join()
        assert outcome.wall_timed_out, outcome
        assert elapsed < limits.wall_time + SLACK, f"{elapsed:.1f} s for a wall limit of {limits.wall_time:g} s"
        assert server not in pool.all and not os.path.exists(f"/proc/{server.pid}")
        assert run(b"3\n").stdout == b"SK\n"
        assert pool.all and pool.all[0] is not server
    finally:
        pool.close()
