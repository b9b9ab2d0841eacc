"""The resident judge (judge/resident/): a command it runs is the command's own, in what it
prints, its status, its folder and environment and the signals it gets; it starts at a
terminal (or when asked), and ends when idle, when stopped, or when a file it imported changed.
Real processes throughout: the resident, its children, the commands' processes."""

from __future__ import annotations

import os
import pty
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from conftest import ROOT, run_judge

from judge.harness.proc_usage import descendants, is_zombie, parent_of
from test_extension import copy_problem
from test_streaming import SLOW, read_until, rest_of, row_verdicts

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="the resident judge is Linux's")

ACCEPTED = ROOT / "solutions/stones/accepted/game_dp.py"
WRONG = ROOT / "solutions/stones/wrong_answer/even_wins.py"


def resident_env(tmp_path: Path, **more: str) -> dict[str, str]:
    """Commands served by residents of the test's own (which end soon after it, if it leaves one)."""
    return {"JUDGE_RESIDENT": "1", "JUDGE_RESIDENT_DIR": str(tmp_path / "resident"), "JUDGE_RESIDENT_IDLE": "30",
            "COLUMNS": "120", **more}


def resident_pid(env: dict[str, str], timeout: float = 60) -> int:
    """The pid of the resident serving commands in ``env``, once its socket is there."""
    folder = Path(env["JUDGE_RESIDENT_DIR"])
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for lock in folder.glob("*.sock.lock"):
            text = lock.read_text().strip()
            if text.isdigit() and lock.with_suffix("").exists() and alive(int(text)):
                return int(text)
        time.sleep(0.05)
    raise AssertionError(f"no resident in {folder} after {timeout} s")


def alive(pid: int) -> bool:
    return parent_of(pid) is not None and not is_zombie(pid)


def children_of(pid: int) -> list[int]:
    return [below for below in descendants(pid) if parent_of(below) == pid]


def wait_until(condition, timeout: float = 30, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"not within {timeout} s: {what}")


@pytest.fixture
def resident(tmp_path):
    """The environment of commands served by a resident judge of their own (started by a first
    command), stopped at the end."""
    env = resident_env(tmp_path)
    run_judge("list", env=env)
    resident_pid(env)
    yield env
    run_judge("resident", "--stop", env=env)


def measured(text: str) -> str:
    """``text`` with its measurements (CPU and wall time, memory) left out, and the columns'
    padding that their widths decide: they vary by run."""
    return re.sub(r" +", " ", re.sub(r"\d+(\.\d+)?( [KMG]iB)?", "#", text))


def started(arguments: list[str], env: dict[str, str], cwd: Path) -> subprocess.Popen:
    full = {**os.environ, **env, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "judge", *arguments], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=cwd, env=full)


def test_a_command_the_resident_runs_prints_and_ends_as_its_own_process(resident, tmp_path):
    folder = tmp_path / "student"
    folder.mkdir()
    shutil.copy(ACCEPTED, folder / "mine.py")
    commands = [("run", "stones", "mine.py", "--case", "sample-1", "--no-record"),  # a path from its folder
                ("run", "stones", str(WRONG), "--no-record", "--no-explain"),  # status 1, the table
                ("run", "stonez", "mine.py"),  # status 2, the error on stderr
                ("run", "stones"),  # argparse's usage error
                ("--help",), ("resident",)]
    copy_problem("stones", "pebbles", tmp_path / "problems")
    commands.append(("run", "pebbles", "mine.py", "--no-record"))  # found through the command's environment
    for command in commands:
        env = {**resident, "JUDGE_PROBLEMS": str(tmp_path / "problems")} if "pebbles" in command else resident
        served = run_judge(*command, env=env, cwd=folder)
        alone = run_judge(*command, env={**env, "JUDGE_RESIDENT": "0"}, cwd=folder)
        if command == ("resident",):
            assert "is running" in served.stdout and "$JUDGE_RESIDENT=0" in alone.stdout
            continue
        assert (served.returncode, measured(served.stdout), served.stderr) == \
            (alone.returncode, measured(alone.stdout), alone.stderr), command
    assert alive(resident_pid(resident))


def test_the_command_runs_in_the_resident_in_its_folder(resident, tmp_path):
    # The command's own process has no child of its own (its runs are the resident child's),
    # and the resident's child works in the command's folder.
    folder = tmp_path / "student"
    folder.mkdir()
    process = started(["run", "stones", str(SLOW), "--no-record", "--no-explain", "-j", "1"], resident, folder)
    read_until(process, "sample-1")
    commands = children_of(resident_pid(resident))
    assert len(commands) == 1 and children_of(process.pid) == []
    assert os.readlink(f"/proc/{commands[0]}/cwd") == str(folder)
    process.send_signal(signal.SIGTERM)
    rest_of(process, timeout=60)


def test_a_signal_to_the_command_stops_it_as_it_stops_its_own_process(resident):
    process = started(["run", "stones", str(SLOW), "--no-record", "--no-explain", "-j", "1"], resident, ROOT)
    before = read_until(process, "hidden 7")  # the first TLE: a dozen cases to go, a second each
    process.send_signal(signal.SIGTERM)
    rest, stderr = rest_of(process, timeout=60)
    assert process.returncode == 128 + signal.SIGTERM
    rows = row_verdicts(before + rest.splitlines())
    assert len(rows) < 22 and f"stopped by SIGTERM: {len(rows)} of 22 cases decided" in rest
    assert "judge: stopped by SIGTERM" in stderr and "Traceback" not in stderr
    wait_until(lambda: not children_of(resident_pid(resident)), what="the command's child ended")


def test_a_command_killed_outright_stops_its_runs(resident):
    pid = resident_pid(resident)
    process = started(["run", "stones", str(SLOW), "--no-record", "--no-explain", "-j", "1"], resident, ROOT)
    read_until(process, "hidden 7")
    (command,) = children_of(pid)
    process.kill()
    process.wait(timeout=10)
    wait_until(lambda: not alive(command), what="the killed command's child ended its runs and itself")
    assert alive(pid)


def test_a_changed_file_of_the_judge_ends_its_resident(tmp_path):
    # A judge run from a copy of the package, as an edited checkout or an upgrade changes it.
    copy = tmp_path / "checkout"
    shutil.copytree(ROOT / "judge", copy / "judge", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**resident_env(tmp_path), "PYTHONPATH": str(copy), "JUDGE_PROBLEMS": str(ROOT)}
    command = [sys.executable, "-m", "judge", "run", "stones", str(ACCEPTED), "--case", "sample-1", "--no-record"]

    def run() -> subprocess.CompletedProcess:
        return subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=300,
                              env={**os.environ, **env})

    assert run().returncode == 0
    first = resident_pid(env)
    module = copy / "judge" / "model" / "verdict.py"
    os.utime(module, ns=(module.stat().st_atime_ns, module.stat().st_mtime_ns + 10**9))
    again = run()
    assert again.returncode == 0 and "AC  1/1 cases passed" in again.stdout, again.stderr
    wait_until(lambda: not alive(first), what="the stale resident ended")
    second = resident_pid(env)
    assert second != first  # the command that ran in its own process left a new one
    os.kill(second, signal.SIGTERM)


def test_a_stopped_resident_lets_a_new_one_serve_while_its_last_command_runs(resident):
    first = resident_pid(resident)
    process = started(["run", "stones", str(SLOW), "--no-record", "--no-explain", "-j", "1"], resident, ROOT)
    read_until(process, "sample-1")
    run_judge("resident", "--stop", env=resident)
    assert run_judge("list", env=resident).returncode == 0  # in its own process: it starts a new resident
    second = resident_pid(resident)
    assert second != first and alive(first)  # the first still runs the slow command
    process.send_signal(signal.SIGTERM)
    rest_of(process, timeout=60)
    wait_until(lambda: not alive(first), what="the stopped resident ended after its last command")


def test_an_idle_resident_ends_and_removes_its_socket(tmp_path):
    env = resident_env(tmp_path, JUDGE_RESIDENT_IDLE="1")
    assert run_judge("list", env=env).returncode == 0
    pid = resident_pid(env)
    wait_until(lambda: not alive(pid), what="the idle resident ended")
    assert not list((tmp_path / "resident").glob("*.sock"))


def test_judge_resident_stop_ends_it(resident):
    pid = resident_pid(resident)
    stopped = run_judge("resident", "--stop", env=resident)
    assert f"stopped the resident judge (process {pid})" in stopped.stdout
    wait_until(lambda: not alive(pid), what="the stopped resident ended")
    assert "no resident judge is running" in run_judge("resident", env={**resident, "JUDGE_RESIDENT": ""}).stdout


def test_a_resident_starts_at_a_terminal_and_not_from_a_script(tmp_path):
    env = {**resident_env(tmp_path), "JUDGE_RESIDENT": ""}
    assert run_judge("list", env=env).returncode == 0
    time.sleep(1)
    assert not list((tmp_path / "resident").glob("*.sock"))
    controller, terminal = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "judge", "list"], stdin=terminal, stdout=terminal,
                              stderr=terminal, cwd=tmp_path, timeout=300,
                              env={**os.environ, **env, "PYTHONPATH": str(ROOT)})
    finally:
        os.close(terminal)
        os.close(controller)
    assert done.returncode == 0
    pid = resident_pid(env)
    run_judge("resident", "--stop", env=env)
    wait_until(lambda: not alive(pid), what="the stopped resident ended")


def test_a_folder_others_may_enter_is_not_used(tmp_path):
    folder = tmp_path / "resident"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    env = resident_env(tmp_path)
    assert run_judge("list", env=env).returncode == 0
    time.sleep(1)
    assert list(folder.iterdir()) == []
    assert run_judge("run", "stones", str(ACCEPTED), "--case", "sample-1", "--no-record", env=env).returncode == 0


def test_a_command_without_its_standard_output_runs_in_its_own_process(resident):
    # Its socket would otherwise take the closed stream's number, and be passed as that stream.
    command = (f"exec {sys.executable} -m judge run stones {ACCEPTED} --case sample-1 --no-record "
               f"< /dev/null >&-")
    done = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=300, cwd=ROOT,
                          env={**os.environ, **resident, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0 and "SIGHUP" not in done.stderr, done.stderr
    assert alive(resident_pid(resident))


@pytest.mark.skipif(os.geteuid() != 0, reason="connecting as another user needs root to become one")
def test_a_connection_from_another_user_is_closed_unserved(tmp_path):
    # Behind the private folder and the socket's own mode (both opened up here), the resident
    # asks the kernel who connected, and serves its own user alone.
    public = Path(tempfile.mkdtemp(prefix="judge-test-resident-", dir="/tmp"))
    try:
        public.chmod(0o711)
        env = {**resident_env(tmp_path), "JUDGE_RESIDENT_DIR": str(public / "resident")}
        run_judge("list", env=env)
        pid = resident_pid(env)
        folder = public / "resident"
        (socket_file,) = folder.glob("*.sock")
        folder.chmod(0o711)
        socket_file.chmod(0o666)
        probe = ("import socket, sys\ns = socket.socket(socket.AF_UNIX)\ns.connect(sys.argv[1])\n"
                 "s.settimeout(20)\ntry:\n    s.sendall(b'x' * 64)\n    answer = s.recv(1)\n"
                 "except (BrokenPipeError, ConnectionResetError):\n    answer = b''\n"
                 "print('closed' if answer == b'' else 'answered')")
        done = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--",
                               sys.executable, "-I", "-c", probe, str(socket_file)], capture_output=True, text=True,
                              timeout=60)
        assert done.stdout.strip() == "closed", done.stderr
        assert children_of(pid) == [] and alive(pid)
        os.kill(pid, signal.SIGTERM)
    finally:
        shutil.rmtree(public, ignore_errors=True)
