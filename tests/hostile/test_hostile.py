"""Hostile submissions: each program attacks the judge one way; each test asserts the verdict
and the property that must hold (no process left, no secret visible, no connection, files intact).

The property tests run in every isolation tier this machine offers; what a weaker tier cannot
promise (the file system view, the network) is asserted only where the tier promises it.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from judge.languages import language_for
from judge.formats.catalog import load_problem
from judge.runner import base_limits, judge_submission
from judge.sandbox import hides_file_system, probe_tier, run_sandboxed

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
STONES = load_problem("stones")
TIERS = [tier for tier in ("root", "bwrap", "unshare", "none") if probe_tier(tier) is None]


def verdict_of(name: str, case: str = "smallest") -> tuple[str, str]:
    result = judge_submission(STONES, HERE / name, cases=[STONES.case(case)])
    return result.cases[0].verdict, result.cases[0].message


def program_marker(name: str) -> str:
    """The program's cache directory: it appears on the command line of everything its runs
    start, and only theirs (other tests may be running sandboxes at the same time)."""
    source = HERE / name
    return language_for(source).prepare(source, "stdio").directory.name


def run_raw(name: str, tier: str, stdin: bytes = b""):
    """Run a hostile program in a given tier with the stones limits; return the Outcome."""
    source = HERE / name
    program = language_for(source).prepare(source, "stdio")
    return run_sandboxed(list(program.command), stdin=stdin, limits=base_limits(STONES),
                         program_dir=program.directory, tier=tier)


def leftover_processes(marker: str) -> list[str]:
    """Processes whose command line holds ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marker in cmdline:
            found.append(f"{entry.name}: {cmdline}")
    return found


def zombie_children() -> list[str]:
    me = str(os.getpid())
    zombies = []
    for entry in Path("/proc").iterdir():
        try:
            stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if stat[1] == me and stat[0] == "Z":
            zombies.append(entry.name)
    return zombies


# --- verdicts ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name, verdicts", [
    ("cpu_threads.py", {"TLE"}),
    ("sleeper.py", {"TLE"}),
    ("allocate.py", {"MLE"}),
    ("fork_bomb.py", {"RE", "TLE"}),
    ("thread_bomb.py", {"RE", "TLE", "MLE"}),
    ("flood_stdout.py", {"OLE"}),
])
def test_resource_attacks_end_with_the_right_verdict(name, verdicts):
    verdict, message = verdict_of(name)
    assert verdict in verdicts, message
    assert not leftover_processes(program_marker(name))


def test_a_fork_bomb_leaves_the_next_run_unaffected():
    verdict_of("fork_bomb.py")
    assert verdict_of("flood_stderr.py")[0] == "AC"  # megabytes of stderr, then a right answer
    assert not leftover_processes(program_marker("fork_bomb.py"))


def test_a_huge_file_is_stopped_and_the_disk_is_spared():
    before = os.statvfs("/tmp")
    verdict, message = verdict_of("huge_file.py")
    after = os.statvfs("/tmp")
    assert verdict in {"WA", "RE", "OLE"}, message
    assert (before.f_bavail - after.f_bavail) * before.f_frsize < 256 << 20


def test_the_judge_survives_a_program_that_kills_its_parent():
    assert verdict_of("kill_parent.py")[0] == "AC"
    assert not leftover_processes(program_marker("kill_parent.py"))


# --- properties, in every tier --------------------------------------------------------------

@pytest.mark.parametrize("tier", TIERS)
def test_no_daemon_survives_the_run(tier):
    if tier == "none" and os.geteuid() != 0:
        pytest.skip("without namespaces only root can sweep a run's processes (by its own uid)")
    outcome = run_raw("daemon.py", tier)
    assert outcome.stdout.strip() == b"SK"
    assert not leftover_processes("31337.25")
    assert not zombie_children()


@pytest.mark.parametrize("tier", TIERS)
def test_the_graders_environment_is_not_visible(tier, monkeypatch):
    monkeypatch.setenv("CI_DEPLOY_TOKEN", "s3cr3t-value")
    outcome = run_raw("read_environment.py", tier)
    names = {line.split("=", 1)[0] for line in outcome.stdout.decode().splitlines()}
    assert b"s3cr3t-value" not in outcome.stdout
    assert names <= {"PATH", "HOME", "LANG", "LC_ALL", "PWD", "SHLVL", "_"}, names


def _grader_files() -> list[str]:
    cache = Path(os.environ.get("JUDGE_CACHE") or f"/tmp/judge-cache-{os.geteuid()}")
    return [str(ROOT / "cases" / "stones.yaml"), str(ROOT / "reference" / "stones.py"),
            str(ROOT / "solutions"), str(ROOT / "judge" / "runner.py"), str(cache),
            str(Path.home()), "/etc/shadow", str(ROOT / ".judge")]


@pytest.mark.parametrize("tier", [tier for tier in TIERS if hides_file_system(tier)])
def test_nothing_of_the_grader_is_readable(tier):
    outcome = run_raw("read_paths.py", tier, "\n".join(_grader_files()).encode())
    assert outcome.stdout == b"", outcome.stdout.decode()


@pytest.mark.parametrize("tier", TIERS)
def test_the_graders_files_cannot_be_changed(tier, tmp_path):
    victims = [ROOT / "cases" / "stones.yaml", ROOT / "reference" / "stones.py"]
    before = [hashlib.sha256(path.read_bytes()).hexdigest() for path in victims]
    outcome = run_raw("tamper.py", tier, " ".join(map(str, victims)).encode())
    after = [hashlib.sha256(path.read_bytes()).hexdigest() for path in victims]
    assert before == after
    assert b"WROTE" not in outcome.stdout and b"DELETED" not in outcome.stdout


@pytest.mark.parametrize("tier", [tier for tier in TIERS if tier in ("root", "bwrap", "unshare")])
def test_no_network_not_even_loopback(tier, loopback_listener):
    outcome = run_raw("network.py", tier, str(loopback_listener.port).encode())
    assert b"CONNECTED" not in outcome.stdout
    assert not loopback_listener.accepted


def test_the_tier_can_be_forced_and_a_bad_value_is_a_clear_error():
    from conftest import ROOT as project
    from conftest import run_judge
    accepted = str(project / "solutions/stones/accepted/game_dp.py")
    for tier in TIERS:
        done = run_judge("run", "stones", accepted, "--case", "smallest", env={"JUDGE_SANDBOX": tier})
        assert done.returncode == 0, done.stderr
    bad = run_judge("run", "stones", accepted, env={"JUDGE_SANDBOX": "docker"})
    assert bad.returncode == 2 and "JUDGE_SANDBOX='docker' is not a sandbox tier" in bad.stderr
