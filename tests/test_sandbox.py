"""Sandbox housekeeping: what a judge killed mid-run leaves behind is cleaned up later; a run
in a working directory of the caller's own (a generator's, a validator's) works in every tier."""

import os
import stat
import subprocess
import tempfile
import time
from pathlib import Path

from judge.sandbox import Limits, run_sandboxed, scratch
from judge.sandbox.scratch import own_directory


def test_a_run_writes_in_a_working_directory_of_the_callers_own(tier):
    # The caller's directory is outside the run's scratch, where the unshare tier builds its view:
    # that scratch must still be one the slot uid can reach.
    parent = Path(tempfile.mkdtemp(prefix="judge-test-work-"))
    try:
        work = own_directory(parent, "work", os.getuid())
        outcome = run_sandboxed(["/bin/sh", "-c", "echo made > testcase.in"], stdin=b"", work_dir=work,
                                limits=Limits(cpu_time=1, wall_time=10, memory=64 << 20, output=1 << 20))
        assert outcome.exit_code == 0, outcome.stderr
        assert (work / "testcase.in").read_text() == "made\n"
    finally:
        subprocess.run(["rm", "-rf", str(parent)], check=False)


def test_a_working_directory_in_a_shared_folder_leaves_the_folders_mode_alone(tier):
    # A caller's working directory may lie straight in /tmp: opening its parent for the slot uid
    # must not take the sticky, world-writable mode away from every other user of the folder.
    shared = Path(tempfile.mkdtemp(prefix="judge-test-shared-"))
    try:
        shared.chmod(0o1777)
        work = own_directory(shared, "work", os.getuid())
        outcome = run_sandboxed(["/bin/sh", "-c", "echo made > testcase.in"], stdin=b"", work_dir=work,
                                limits=Limits(cpu_time=1, wall_time=10, memory=64 << 20, output=1 << 20))
        assert outcome.exit_code == 0, outcome.stderr
        assert stat.S_IMODE(shared.stat().st_mode) == 0o1777
    finally:
        subprocess.run(["rm", "-rf", str(shared)], check=False)


def test_scratch_directories_of_a_killed_judge_are_removed_by_the_next_one():
    temporary = Path(tempfile.gettempdir())
    stale = temporary / f"judge-run-{_pid_of_a_finished_process()}-testdead"
    (stale / "work").mkdir(parents=True)
    (stale / "work" / "output").write_text("left behind")
    upload = temporary / f"judge-upload-{_pid_of_a_finished_process()}-testdead"  # a killed course judge's
    upload.mkdir()
    (upload / "solution.py").write_text("print(1)\n")
    alive = temporary / f"judge-server-{os.getppid()}-testlive"  # its judge is still running
    alive.mkdir()
    recent = temporary / f"judge-run-{_pid_of_a_finished_process()}-testnew"  # may be another namespace's
    recent.mkdir()
    an_hour_ago = time.time() - 3600
    for path in (stale, upload, alive):
        os.utime(path, (an_hour_ago, an_hour_ago))
    try:
        scratch.remove_stale_scratch_dirs.cache_clear()
        outcome = run_sandboxed(["/bin/true"], stdin=b"", limits=Limits(cpu_time=1, wall_time=5, memory=64 << 20, output=1 << 20))
        assert outcome.exit_code == 0
        assert not stale.exists() and not upload.exists() and alive.exists() and recent.exists()
        assert not list(temporary.glob(f"judge-run-{os.getpid()}-*"))  # the run removed its own
    finally:
        alive.rmdir()
        recent.rmdir()


def _pid_of_a_finished_process() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_python_package_folders_are_found_where_python_keeps_them(tmp_path):
    """The views cover site-packages and dist-packages in a bound folder, its python*/, lib/python*/
    and local/lib/python*/ (not a linked one, not deeper, not a file of that name)."""
    from judge.sandbox.view import _package_dirs

    root = tmp_path / "usr"
    wanted = [root / "site-packages", root / "python3/dist-packages", root / "lib/python3.11/site-packages",
              root / "lib/python3/dist-packages", root / "local/lib/python3.12/dist-packages"]
    for folder in [*wanted, root / "lib/other/site-packages", root / "share/python3/site-packages"]:
        folder.mkdir(parents=True)
    (root / "lib/python3.9").mkdir()
    (root / "lib/python3.9/site-packages").symlink_to(root / "lib/python3.11/site-packages")
    (root / "lib/python-file").write_text("")
    assert _package_dirs((str(root), str(tmp_path / "absent"))) == tuple(sorted(map(str, wanted)))
