"""In every tier that claims to hide the file system (bwrap, and unshare where it can build its
mount namespace), a submission that searches for the suites, other submissions or the grader's
files finds nothing."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from judge.sandbox import hides_file_system
from tests.hostile.test_hostile import ROOT, TIERS, program_marker, run_raw

HIDING_TIERS = [tier for tier in TIERS if hides_file_system(tier)]


def grader_paths() -> list[str]:
    """Directories no file of which a submission may see."""
    return [str(ROOT), str(ROOT.parent), str(Path.home()), "/root", "/home", "/var/tmp", "/dev/shm",
            "/run", "/tmp"]


@pytest.mark.parametrize("tier", HIDING_TIERS)
def test_a_program_searching_for_the_suites_finds_nothing(tier):
    outcome = run_raw("search_suites.py", tier, " ".join(grader_paths()).encode())
    assert outcome.exit_code == 0, outcome.stderr.decode()
    own = ("FOUND /prog/", "FOUND /sandbox/", f"FOUND /tmp/judge-run-{os.getpid()}-")
    found = [line for line in outcome.stdout.decode().splitlines()
             if not line.startswith(own) and program_marker("search_suites.py") not in line]  # its own files
    assert not found, found


def test_the_unshare_tier_hides_the_file_system_here():
    """On this machine (user namespaces allowed) the unshare tier is no weak tier."""
    if "unshare" not in TIERS or os.path.exists("/proc/sys/kernel/unprivileged_userns_clone") and \
            Path("/proc/sys/kernel/unprivileged_userns_clone").read_text().strip() == "0":
        pytest.skip("no unshare tier with user namespaces here")
    assert hides_file_system("unshare")


@pytest.mark.parametrize("tier", HIDING_TIERS)
def test_a_program_cannot_leave_its_root_by_chroot(tier):
    """DOMjudge's test-chroot-escape (chroot to /proc/1/root) and the classic escape from a chroot
    (chroot into a subdirectory, then up with ".."): the run's root is its own mount namespace's,
    so either attempt is refused or leads nowhere it may not see."""
    grader_files = [str(ROOT / "pyproject.toml"), __file__]
    outcome = run_raw("escape_root.py", tier, " ".join(grader_files).encode())
    assert outcome.exit_code == 0, outcome.stderr.decode()
    lines = outcome.stdout.decode().splitlines()
    assert [line.split()[1] for line in lines if line.startswith(("CHROOTED", "REFUSED"))] == ["to_init_root",
                                                                                               "climb_out"], lines
    assert not [line for line in lines if line.startswith("SEES")], lines
