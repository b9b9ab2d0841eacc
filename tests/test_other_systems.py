"""The judge on Windows and macOS, simulated on Linux (tests/simulated_host.py says what the
simulation covers and what it does not): it imports, judges with limits only in the none tier,
says so with the fix for that system, and refuses grading as on Linux."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

pytestmark = pytest.mark.linux_only(reason="simulates Windows and macOS on Linux (test_this_system.py runs on them)")

SIMULATOR = Path(__file__).resolve().parent / "simulated_host.py"
ACCEPTED = ROOT / "solutions/stones/accepted/game_dp.py"
FIX = {"win32": "WSL", "darwin": "Linux container or virtual machine"}
SYSTEMS = sorted(FIX)


def simulated(system: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``judge ARGS`` run in a subprocess as if on ``system``."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("JUDGE_SANDBOX", "JUDGE_ALLOW_WEAK_SANDBOX", "JUDGE_PROBLEMS")}
    env.update(PYTHONPATH=str(ROOT), JUDGE_EXPLAIN_SECONDS="0")
    return subprocess.run([sys.executable, str(SIMULATOR), system, "-m", "judge", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=600, check=False)


@pytest.mark.parametrize("system", SYSTEMS)
def test_the_simulation_takes_away_what_the_system_lacks(system, tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text("import importlib.util, os, sys\n"
                     "print(sys.platform, hasattr(os, 'pidfd_open'), hasattr(os, 'geteuid'))\n"
                     "for name in ('resource', 'fcntl'):\n"
                     "    try:\n"
                     "        __import__(name)\n"
                     "        print(name, 'imported')\n"
                     "    except ImportError:\n"
                     "        print(name, 'missing')\n")
    done = subprocess.run([sys.executable, str(SIMULATOR), system, str(probe)], capture_output=True, text=True,
                          check=False, timeout=60)
    lines = done.stdout.splitlines()
    assert lines[0] == f"{system} False {system == 'darwin'}", done.stderr
    expected = "imported" if system == "darwin" else "missing"
    assert lines[1:] == [f"resource {expected}", f"fcntl {expected}"]


@pytest.mark.parametrize("system", SYSTEMS)
def test_judge_run_works_with_limits_only_and_names_the_fix(system, tmp_path):
    done = simulated(system, "run", "stones", str(ACCEPTED), "--no-record", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "AC  22/22 cases passed" in done.stdout
    assert "Traceback" not in done.stderr
    assert "no namespace isolation is available" in done.stderr and FIX[system] in done.stderr


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize(("source", "verdict"), [
    ("while True:\n    pass\n", "TLE"),
    ("x = bytearray(400 << 20)\nimport time\ntime.sleep(5)\n", "MLE"),
    ("import sys\nwhile True:\n    sys.stdout.write('x' * 65536)\n", "OLE"),
])
def test_the_limits_hold_without_a_sandbox(system, source, verdict, tmp_path):
    program = tmp_path / "limits.py"
    program.write_text(source)
    done = simulated(system, "run", "stones", str(program), "--no-record", "--fail-fast", "--case", "smallest",
                     cwd=tmp_path)
    assert f"{verdict}  0/1 cases passed" in done.stdout, done.stdout + done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("system", SYSTEMS)
@pytest.mark.parametrize("solution", sorted(path.name for path in (ROOT / "solutions/stones/accepted").iterdir()))
def test_every_language_is_found_by_the_systems_names(system, solution, tmp_path, cache):
    # On Windows the simulation offers the toolchains as g++.EXE, javac.EXE, node.EXE... only.
    done = simulated(system, "run", "stones", str(ROOT / "solutions/stones/accepted" / solution), "--no-record",
                     cwd=tmp_path)
    assert "AC  22/22 cases passed" in done.stdout, done.stdout + done.stderr


def test_grading_is_refused_with_wsl_named_as_the_fix(tmp_path):
    student = tmp_path / "subs" / "ada"
    student.mkdir(parents=True)
    (student / "stones.py").write_bytes(ACCEPTED.read_bytes())
    done = simulated("win32", "grade", str(tmp_path / "subs"), "--db", str(tmp_path / "r.db"), cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "refusing grading" in done.stderr and "WSL" in done.stderr and "--allow-weak-sandbox" in done.stderr
    assert "bubblewrap" not in done.stderr.splitlines()[-1]
    allowed = simulated("win32", "grade", str(tmp_path / "subs"), "--db", str(tmp_path / "r.db"),
                        "--allow-weak-sandbox", cwd=tmp_path)
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr
    assert "ada" in allowed.stdout and "100" in allowed.stdout


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_packages_batch_problem_is_judged_and_an_interactive_one_refused_with_the_fix(system, tmp_path):
    packages = ROOT / "tests/packages"
    accepted = min((packages / "addition/submissions/accepted").iterdir())
    batch = simulated(system, "run", str(packages / "addition"), str(accepted), "--no-record", cwd=tmp_path)
    assert "AC  6/6 cases passed" in batch.stdout, batch.stdout + batch.stderr
    interactive = simulated(system, "run", str(packages / "doubler"),
                            str(packages / "doubler/submissions/accepted/doubles.py"), "--no-record", cwd=tmp_path)
    assert interactive.returncode == 2 and "Traceback" not in interactive.stderr, interactive.stderr
    assert "interactive problems are judged on Linux only" in interactive.stderr and FIX[system] in interactive.stderr
