"""The root tier: a judge running as root builds the sandbox without a user namespace, so it
isolates fully where the kernel refuses user namespaces. Here they are refused for real: the
judge runs in a chroot, where the kernel refuses a user namespace to every process (root's too),
in a mount namespace of the test's own. Where the judge is not root there, every refusal names
the fix for a chroot, and none of another system's."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import site
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import pytest

from judge.sandbox import Limits, run_sandboxed
from tests.conftest import ROOT

pytestmark = pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare"),
                                reason="a chroot and the root tier need root (and util-linux's unshare)")

ACCEPTED = min((ROOT / "solutions/stones/accepted").glob("*.py"))
# Answers right only if it can read TARGET: its score says whether it could.
HUNTER = '''import sys
n = int(sys.stdin.read())
try:
    open(TARGET, "rb").read(1)
    print("SK" if n % 2 else "CY")
except OSError:
    print("CY" if n % 2 else "SK")
'''
NOBODY = 65534
# A chroot whose root is a mount point: the whole machine bound on a directory.
WHOLE_MACHINE = 'mount --rbind / "$0" && exec /usr/sbin/chroot "$0" "$@"'
# A chroot whose root is a plain directory, holding what a judge needs (the system's Python under
# /usr, the checkout where the script before the chroot binds it).
PLAIN_DIRECTORY = ('for d in usr etc proc dev tmp run sys; do mkdir "$0/$d" && mount --rbind "/$d" "$0/$d"; done; '
                   'for l in bin lib lib64 sbin; do ln -s "usr/$l" "$0/$l"; done; ')
CHROOT = 'exec /usr/sbin/chroot "$0" "$@"'
# Where an ordinary user reaches the checkout in that chroot, wherever the clone lies outside it.
CHECKOUT = "/opt/judge-checkout"


def in_a_chroot(setup: str, command: list[str], env: dict[str, str], cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """Run ``command`` chrooted by ``setup`` (a shell script given the chroot's directory as $0
    and the command as its arguments) in a private mount namespace, which ends with it."""
    directory = tempfile.mkdtemp(prefix="judge-chroot-")
    os.chmod(directory, 0o755)  # its root, which every user goes through
    try:
        return subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", setup, directory,
                               *command], capture_output=True, text=True, env=env, cwd=cwd, timeout=600, check=False)
    finally:
        shutil.rmtree(directory)  # empty directories and links here: the mounts were the namespace's


def judge_in_a_chroot(setup: str, *args: str, env: dict[str, str] | None = None, cwd: Path = ROOT):
    environment = {**os.environ, "PYTHONPATH": str(ROOT), "JUDGE_SANDBOX": "", "JUDGE_ALLOW_WEAK_SANDBOX": "",
                   **(env or {})}
    return in_a_chroot(setup, [sys.executable, "-m", "judge", *args], environment, cwd)


@pytest.fixture
def public_tmp_path():
    """A folder every user can reach (pytest's tmp_path is its owner's only), as a course's is."""
    with tempfile.TemporaryDirectory(prefix="judge-test-class-", dir="/tmp") as folder:
        os.chmod(folder, 0o755)
        yield Path(folder)


def class_with_hunters(tmp_path: Path) -> Path:
    """ada's accepted solution, and three students who each answer right only if they can read
    their target: the reference, the hidden cases, ada's submission."""
    folder = tmp_path / "subs"
    targets = {"bob": ROOT / "reference/stones.py", "carol": ROOT / "cases/stones.yaml",
               "dave": folder / "ada/stones.py"}
    (folder / "ada").mkdir(parents=True)
    shutil.copy(ACCEPTED, folder / "ada/stones.py")
    for student, target in targets.items():
        (folder / student).mkdir()
        (folder / student / "stones.py").write_text(HUNTER.replace("TARGET", repr(str(target))))
    for path in [tmp_path, *tmp_path.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)  # the grader's, readable by anyone who reaches them
    return folder


def reachable_by_others(path: Path) -> bool:
    """Whether a user who owns nothing on the way can read ``path`` (a clone may lie in a folder
    only its owner can enter)."""
    return all(folder.stat().st_mode & 0o001 for folder in path.parents) and bool(path.stat().st_mode & 0o004)


def totals(report: dict) -> dict[str, int]:
    return {student["student"]: student["total"] for student in report["students"]}


def test_the_kernel_refuses_user_namespaces_in_these_chroots():
    for setup in (WHOLE_MACHINE, PLAIN_DIRECTORY + CHROOT):
        done = in_a_chroot(setup, ["/usr/bin/unshare", "--user", "--map-root-user", "/bin/true"], dict(os.environ))
        assert done.returncode != 0 and "Operation not permitted" in done.stderr, done.stderr


def test_root_grades_in_the_root_tier_where_user_namespaces_are_refused(public_tmp_path):
    tmp_path = public_tmp_path
    doctor = judge_in_a_chroot(WHOLE_MACHINE, "doctor")
    assert "sandbox tier: root:" in doctor.stdout, doctor.stdout + doctor.stderr
    assert "user namespaces: refused (the root tier in force needs none)" in doctor.stdout
    folder = class_with_hunters(tmp_path)
    graded = judge_in_a_chroot(WHOLE_MACHINE, "grade", str(folder), "--db", str(tmp_path / "r.db"), "--format", "json")
    assert graded.returncode == 0, graded.stderr
    report = json.loads(graded.stdout)
    assert report["sandbox"] == {"tier": "root", "isolation": "full"}
    assert totals(report) == {"ada": 100, "bob": 0, "carol": 0, "dave": 0}
    # The same hunters, where nothing hides the machine's files, read every target their user
    # can reach (the checkout's, when its folders let others in).
    control = judge_in_a_chroot(WHOLE_MACHINE, "grade", str(folder), "--db", str(tmp_path / "none.db"), "--format",
                                "json", "--allow-weak-sandbox", env={"JUDGE_SANDBOX": "none"})
    checkout = 100 if reachable_by_others(ROOT / "reference/stones.py") else 0
    assert totals(json.loads(control.stdout)) == {"ada": 100, "bob": checkout, "carol": checkout, "dave": 100}, \
        control.stderr


def as_nobody_in_a_plain_chroot(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """The judge run by an ordinary user in a chroot whose root is no mount point, with the
    system's Python, the checkout and the packages of the Python running the tests (bound where
    that user reaches them: they may lie below /root, or in a folder only root enters)."""
    packages = [path for path in dict.fromkeys([*site.getsitepackages(), sysconfig.get_paths()["purelib"]])
                if os.path.isdir(path)]
    places = [f"/opt/judge-site-{number}" for number in range(len(packages))]
    bind = "".join(f'mkdir -p "$0"{place} && mount --rbind {shlex.quote(path)} "$0"{place}; '
                   for path, place in [(str(ROOT), CHECKOUT), *zip(packages, places)])
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(tmp_path), "JUDGE_EXPLAIN_SECONDS": "0",
           "PYTHONPATH": ":".join([CHECKOUT, *places]), "JUDGE_CACHE": str(tmp_path / "cache")}
    command = ["/usr/bin/setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "--",
               "/usr/bin/python3", "-m", "judge", *args]
    return in_a_chroot(PLAIN_DIRECTORY + bind + CHROOT, command, env, cwd=ROOT)


@pytest.mark.slow
def test_a_refusal_in_a_chroot_names_the_fixes_for_a_chroot(public_tmp_path):
    if not os.access("/usr/bin/python3", os.X_OK) or not os.stat(ROOT / "judge/__init__.py").st_mode & 0o004:
        pytest.skip("no system Python, or the checkout's files are not readable by another user")
    tmp_path = public_tmp_path
    folder = class_with_hunters(tmp_path)
    tmp_path.chmod(0o777)  # the judge's user keeps its cache and store there
    done = as_nobody_in_a_plain_chroot(tmp_path, "grade", str(folder), "--db", str(tmp_path / "r.db"))
    refusal = done.stderr.strip().splitlines()[-1]
    assert done.returncode == 2 and refusal.startswith("judge: error: refusing grading"), done.stdout + done.stderr
    assert "the judge runs in a chroot" in refusal
    fixes = refusal.split(" Fix: ", 1)[1]
    assert "run the judge outside the chroot" in fixes and "mount --bind DIR DIR" in fixes
    for fix_of_another_system in ("bubblewrap", "sysctl", "unprivileged_userns_clone", "AppArmor", "--cap-add"):
        assert fix_of_another_system not in fixes
    assert not (tmp_path / "r.db").exists()
    doctor = as_nobody_in_a_plain_chroot(tmp_path, "doctor")
    assert "sandbox tier: none" in doctor.stdout, doctor.stdout + doctor.stderr
    assert "  root     unavailable: the judge does not run as root" in doctor.stdout
    assert "user namespaces: refused: the judge runs in a chroot" in doctor.stdout
    assert "  fix: run the judge outside the chroot" in doctor.stdout


LIMITS = Limits(cpu_time=2, wall_time=10, memory=64 << 20, output=1 << 20)
IDENTITY = ("id -u; id -G; grep -E '^(CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs)' /proc/self/status; "
            "kill -9 1 2>/dev/null || echo init-untouched; cat /proc/1/environ 2>/dev/null || echo init-unread")


def test_a_program_in_the_root_tier_is_the_slot_user_with_nothing_more():
    outcome = run_sandboxed(["/bin/sh", "-c", IDENTITY], stdin=b"", limits=LIMITS, tier="root")
    lines = outcome.stdout.decode().split("\n")
    uid = int(lines[0])
    assert 61000 <= uid < 61064 and lines[1] == str(uid), outcome.stdout  # its own group alone
    assert {line.split(":")[0]: line.split()[1] for line in lines[2:7]} == {
        "CapPrm": "0" * 16, "CapEff": "0" * 16, "CapBnd": "0" * 16, "CapAmb": "0" * 16, "NoNewPrivs": "1"}
    assert lines[7:9] == ["init-untouched", "init-unread"]  # the run's init is root's


# A container's root has these capabilities by default (Docker's default set), and no others.
CONTAINER_CAPABILITIES = ("chown", "dac_override", "fsetid", "fowner", "mknod", "net_raw", "setgid", "setuid",
                          "setfcap", "setpcap", "net_bind_service", "sys_chroot", "kill", "audit_write")
PROBE_ROOT_TIER = "from judge.sandbox import probe_tier; print(probe_tier('root') or 'works')"


def root_tier_with_capabilities(added: tuple[str, ...]) -> str:
    """What the root tier's probe says when root holds exactly a container's capabilities and
    ``added`` (the seccomp and AppArmor profiles of a container are its engine's, not reproduced)."""
    bounding = ",".join(["-all", *(f"+{name}" for name in (*CONTAINER_CAPABILITIES, *added))])
    done = subprocess.run(["/usr/bin/setpriv", "--inh-caps=-all", f"--bounding-set={bounding}", "--",
                           sys.executable, "-c", PROBE_ROOT_TIER], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("added", [(), ("sys_admin",), ("sys_admin", "net_admin")], ids=["none", "sys_admin", "both"])
def test_root_with_a_containers_capabilities_needs_sys_admin_and_net_admin(added, cache):
    assert (root_tier_with_capabilities(added) == "works") == (len(added) == 2)


def test_a_root_tier_remembered_to_work_is_probed_again_with_fewer_capabilities(cache):
    assert root_tier_with_capabilities(("sys_admin", "net_admin")) == "works"
    assert root_tier_with_capabilities(("sys_admin",)) != "works"


def test_root_prefers_the_root_tier_where_user_namespaces_work_too(monkeypatch):
    from judge.sandbox import probe_tier, sandbox_tier

    if probe_tier("bwrap") is not None:
        pytest.skip("the bwrap tier does not work here")
    monkeypatch.delenv("JUDGE_SANDBOX", raising=False)
    sandbox_tier.cache_clear()
    try:
        assert sandbox_tier() == "root"
    finally:
        sandbox_tier.cache_clear()


def test_a_probe_made_in_a_chroot_is_not_the_machines():
    """A chroot that binds the machine's /tmp shares the judge's probe cache with it: what a
    probe found there (user namespaces refused) must not be what a judge outside remembers."""
    key = [sys.executable, "-c", "from judge.sandbox.probe_cache import probe_key; print(probe_key([]))"]
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    inside = in_a_chroot(WHOLE_MACHINE, key, environment)
    outside = subprocess.run(key, capture_output=True, text=True, env=environment, cwd=ROOT, timeout=60, check=True)
    assert inside.returncode == 0, inside.stderr
    assert inside.stdout.strip() != outside.stdout.strip()
