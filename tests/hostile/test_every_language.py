"""Hostile programs in C, C++, Java and JavaScript: the attacks whose shape depends on the
language (native fork and signals, runtimes that spawn, buffer or swallow errors).

Each run is judged exactly as `judge run` judges a case (``run_case``), in a forced isolation
tier, and must end with the verdict a contest judge gives; afterwards nothing of it may be left:
no process under a sandbox slot uid, no scratch directory of this judge process, no file in the
host's /tmp or /dev/shm. Attacks whose effect depends on the tier run in every tier the machine
has; the others in the strongest one.

Some runs show holes in the sandbox's mechanism; they are marked ``xfail`` with the mechanism
named, and the expected verdict stays the one a contest judge gives.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

import pytest
from conftest import machine_tiers

from judge.formats.catalog import load_problem
from judge.model.problem import Case
from judge.model.results import CaseResult, Prepared
from judge.runner import prepare, run_case
from judge.sandbox import probe_tier, run_sandboxed
from judge.sandbox.slots import FIRST_SLOT_UID, SLOT_COUNT

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
STONES = load_problem("stones")
TIERS = machine_tiers()
MISSING_TIERS = {tier: probe_tier(tier) for tier in ("root", "bwrap", "unshare", "none") if probe_tier(tier)}
STRONGEST = TIERS[:1]
LITTER_PREFIX = "judge-hostile-"  # every file a program here leaves outside its working directory

# The sandbox's known holes, by mechanism.
SHM_UNCOUNTED = "the none tier has no private /dev/shm, so files there are memory nobody counts"
SIGNAL_EXIT = ("exit statuses 129-192 are read as deaths by signal (128 + N), though the program itself "
               "exited with them")


def _attack(name: str, verdict: str | set[str], tiers: list[str], broken: dict[str, str] | None = None,
            message: str = "", markers: tuple[str, ...] = (), stdin: str | None = None) -> list:
    """One pytest param per tier, marked xfail in the tiers ``broken`` names (key "*": all)."""
    verdicts = {verdict} if isinstance(verdict, str) else verdict
    params = []
    for tier in tiers:
        reason = (broken or {}).get(tier) or (broken or {}).get("*")
        marks = [pytest.mark.xfail(reason=reason, strict=False)] if reason else []
        params.append(pytest.param(name, tier, verdicts, message, markers, stdin, marks=marks,
                                   id=f"{name}-{tier}" + (f"-{stdin}" if stdin else "")))
    return params


ATTACKS = [
    # Fork bombs: the process count for the run stops them (RE or TLE; a runtime whose copies
    # each hold tens of MiB may reach the memory limit first); the grader survives.
    *_attack("fork_bomb.c", {"RE", "TLE"}, TIERS),
    *_attack("fork_bomb.cpp", {"RE", "TLE"}, STRONGEST),  # forks from a helper thread
    *_attack("fork_bomb.js", {"RE", "TLE", "MLE"}, STRONGEST),
    *_attack("java/ProcessBomb.java", {"RE", "TLE", "MLE"}, STRONGEST, markers=("31337.41",)),
    # Daemons that outlive their parent, attacks on the parent: the program itself answered.
    *_attack("double_fork.c", "AC", TIERS, markers=("31337.31",)),
    *_attack("daemon.js", "AC", TIERS, markers=("31337.52",)),
    *_attack("java/Daemon.java", "AC", STRONGEST, markers=("31337.42",)),
    *_attack("kill_parent.c", "AC", TIERS),
    *_attack("kill_parent.js", "AC", TIERS),
    *_attack("java/KillParent.java", "AC", STRONGEST),
    *_attack("stop_parent.c", "AC", TIERS),
    *_attack("stop_parent_routes.c", "AC", TIERS),
    # Stopped for good: nothing resumes it, the wall clock ends it.
    *_attack("stop_self.c", "TLE", TIERS),
    *_attack("stop_self.js", "TLE", TIERS),
    # Output and files.
    *_attack("flood_stdout.c", "OLE", TIERS),
    *_attack("flood_stdout.cpp", "OLE", STRONGEST),
    *_attack("flood_stdout.js", "OLE", STRONGEST),  # node and the JVM swallow the write errors and run on:
    *_attack("java/FloodStdout.java", "OLE", STRONGEST),  # output over its cap is OLE before any TLE
    *_attack("flood_stderr.c", "AC", TIERS),
    *_attack("huge_file.c", "OLE", TIERS),
    *_attack("litter_tmp.c", "AC", TIERS),
    *_attack("fill_shm.c", "MLE", TIERS, {"none": SHM_UNCOUNTED}),
    # Memory: resident memory counts. Pages allocated and never touched cost nothing (AC, as on
    # judges that measure resident memory); pages written do (MLE); an allocation over the
    # address-space backstop fails, and the runtime saying so is MLE. Java zeroes every array,
    # so it has no untouched allocation: over its heap cap it is OutOfMemoryError, MLE.
    *_attack("allocate_untouched.c", "AC", STRONGEST),
    *_attack("allocate_untouched.js", "AC", STRONGEST),
    *_attack("allocate_touched.c", "MLE", STRONGEST),
    *_attack("allocate_touched.js", "MLE", STRONGEST),
    *_attack("allocate_huge.cpp", "MLE", STRONGEST),
    *_attack("java/AllocateHuge.java", "MLE", STRONGEST),
    # Recursion: deep but bounded is normal contest code (AC); unbounded is RE.
    *_attack("deep_recursion.c", "AC", STRONGEST),
    *_attack("deep_recursion.js", "AC", STRONGEST),
    *_attack("java/DeepRecursion.java", "AC", STRONGEST),
    *_attack("infinite_recursion.c", "RE", STRONGEST, message="SIGSEGV"),
    *_attack("infinite_recursion.js", "RE", STRONGEST, message="RangeError"),
    *_attack("java/InfiniteRecursion.java", "RE", STRONGEST, message="StackOverflowError"),
    # Crashes, each named in the message.
    *_attack("divide_by_zero.c", "RE", TIERS, message="SIGFPE"),
    *_attack("java/DivideByZero.java", "RE", STRONGEST, message="ArithmeticException"),
    *_attack("null_deref.c", "RE", TIERS, message="SIGSEGV"),
    *_attack("abort.c", "RE", TIERS, message="SIGABRT"),
    *_attack("uncaught_exception.cpp", "RE", TIERS, message="SIGABRT"),
    *_attack("abort.js", "RE", TIERS, message="SIGABRT"),
    # Exit statuses (the input is the status): 0 is AC, anything else RE with the status named,
    # including the ones a shell would write as 128 + a signal number.
    *_attack("exit_status.c", "AC", TIERS, stdin="0"),
    *_attack("exit_status.c", "RE", TIERS, message="exit code 3", stdin="3"),
    *_attack("exit_status.c", "RE", TIERS, {"root": SIGNAL_EXIT, "bwrap": SIGNAL_EXIT, "unshare": SIGNAL_EXIT}, message="exit code 130",
             stdin="130"),
    *_attack("exit_status.c", "RE", TIERS, message="exit code 255", stdin="255"),
    *_attack("exit_status.js", "RE", STRONGEST, {"root": SIGNAL_EXIT, "bwrap": SIGNAL_EXIT, "unshare": SIGNAL_EXIT}, message="exit code 137",
             stdin="137"),
    *_attack("java/ExitStatus.java", "RE", STRONGEST, {"root": SIGNAL_EXIT, "bwrap": SIGNAL_EXIT, "unshare": SIGNAL_EXIT},
             message="exit code 134",
             stdin="134"),
    *_attack("java/ExitStatus.java", "RE", STRONGEST, message="exit code 7", stdin="7"),
]


def prepared(name: str) -> Prepared:
    built = prepare(STONES, HERE / name)
    assert isinstance(built, Prepared), built
    return built


def judge_in(tier: str, name: str, stdin: str | None = None) -> CaseResult:
    """Judge the program on stones case sample-1 (or on ``stdin``) as `judge run` does, in ``tier``.
    Sample cases, because only their messages carry the program's last line of stderr."""
    case = STONES.case("sample-1") if stdin is None else Case(name=f"input-{stdin}", input=f"{stdin}\n",
                                                              visibility="sample")

    def execute(command, stdin_bytes, run_limits, program_dir):
        return run_sandboxed(command, stdin=stdin_bytes, limits=run_limits, program_dir=program_dir, tier=tier)

    return run_case(STONES, prepared(name), case, execute)


def run_raw(name: str, tier: str, stdin: bytes = b""):
    """Run a program in ``tier`` under the stones limits; return the Outcome."""
    built = prepared(name)
    return run_sandboxed(built.program.argv(built.limits), stdin=stdin, limits=built.limits,
                         program_dir=built.program.directory, tier=tier)


# --- what may be left behind -----------------------------------------------------------------

def _slot_processes() -> list[int]:
    found = []
    for entry in os.scandir("/proc"):
        try:
            if entry.name.isdigit() and FIRST_SLOT_UID <= entry.stat().st_uid < FIRST_SLOT_UID + SLOT_COUNT:
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def _runs_of(program_dir: Path, markers: tuple[str, ...], pid: int) -> str | None:
    """A description of ``pid`` if it belongs to runs of this program: it executes one of the
    program's files (checked by inode, whatever path the sandbox showed it under) or its command
    line holds one of ``markers``. Other judges' runs under the slot uids are not counted."""
    own_files = {(info.st_dev, info.st_ino) for info in (path.stat() for path in program_dir.rglob("*"))}
    try:
        exe = os.stat(f"/proc/{pid}/exe")
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return None
    if (exe.st_dev, exe.st_ino) in own_files or any(marker in cmdline for marker in markers):
        return f"{pid}: {cmdline}"
    return None


def _scratch_dirs() -> list[str]:
    return [str(path) for path in Path(tempfile.gettempdir()).glob(f"judge-run-{os.getpid()}-*")]


def _host_litter() -> list[str]:
    return [str(path) for folder in ("/tmp", "/dev/shm") for path in Path(folder).glob(LITTER_PREFIX + "*")]


def leftovers(name: str, markers: tuple[str, ...] = ()) -> list[str]:
    """Everything a run of ``name`` left behind (waiting a moment for killed processes to go)."""
    program = prepared(name).program
    deadline = time.monotonic() + 2
    while True:
        processes = [found for pid in _slot_processes() if (found := _runs_of(program.directory, markers, pid))]
        left = processes + _scratch_dirs() + _host_litter()
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)


@pytest.fixture
def clean_host():
    """Removes what a run left in the host's /tmp and /dev/shm even when the test fails, so that
    one hole does not fail the tests after it."""
    yield
    for path in _host_litter():
        Path(path).unlink(missing_ok=True)


# --- the tests ----------------------------------------------------------------------------------

def test_the_tiers_this_machine_lacks_are_named():
    """Not an assertion about the judge: a record in the test log of the tiers skipped here."""
    for tier, reason in MISSING_TIERS.items():
        print(f"tier {tier} is not available on this machine ({reason}); its attacks are not run")
    assert TIERS, "no sandbox tier works on this machine"


@pytest.mark.parametrize("name, tier, verdicts, message, markers, stdin", ATTACKS)
def test_attack_gets_a_contest_verdict_and_leaves_nothing(name, tier, verdicts, message, markers, stdin,
                                                          clean_host):
    if tier == "none" and os.geteuid() != 0:
        pytest.skip("without namespaces only root can sweep a run's processes (by its own uid)")
    result = judge_in(tier, name, stdin)
    assert result.verdict in verdicts, (result.verdict, result.message)
    assert message in result.message
    assert not leftovers(name, markers)


@pytest.mark.parametrize("tier", TIERS)
def test_a_huge_file_spares_the_disk(tier, clean_host):
    before = os.statvfs(tempfile.gettempdir())
    judge_in(tier, "huge_file.c")
    after = os.statvfs(tempfile.gettempdir())
    assert (before.f_bavail - after.f_bavail) * before.f_frsize < 256 << 20
    assert not leftovers("huge_file.c")


@pytest.fixture
def other_submission(tmp_path: Path) -> Path:
    """Another student's submission, where a grader would keep it (a folder under /tmp)."""
    path = tmp_path / "subs" / "alice" / "stones.py"
    path.parent.mkdir(parents=True)
    path.write_text("print('SK')\n")
    return path


@pytest.mark.parametrize("name", ["read_tests.c", "read_tests.js"])
@pytest.mark.parametrize("tier", TIERS)
def test_the_test_data_and_other_submissions_cannot_be_found(name, tier, other_submission):
    outcome = run_raw(name, tier)
    # Its own files are the program's to see (the unshare tier shows them at their host path).
    own = str(prepared(name).program.directory)
    found = "\n".join(line for line in outcome.stdout.decode(errors="replace").splitlines() if own not in line)
    if tier == "none":
        # No isolation, and the README says so: here the search finds files (which ones depends
        # on what this machine holds), which shows that an empty result elsewhere means something.
        assert "READ" in found, found
        return
    assert "READ" not in found, found


@pytest.mark.parametrize("name", ["network.c", "network.js", "java/Network.java"])
@pytest.mark.parametrize("tier", TIERS)
def test_no_socket_reaches_the_host(name, tier, loopback_listener):
    if tier == "none":
        pytest.skip("the none tier has no network namespace: it promises limits only")
    outcome = run_raw(name, tier, str(loopback_listener.port).encode())
    assert b"CONNECTED" not in outcome.stdout, outcome.stdout
    assert b"refused" in outcome.stdout or b"127.0.0.1" in outcome.stderr, (outcome.stdout, outcome.stderr)
    assert not loopback_listener.accepted
