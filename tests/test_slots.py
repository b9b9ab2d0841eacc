"""Slots are the machine's: every judge on it takes them from one set of locks, whatever its
$TMPDIR, so that no two runs ever share a uid (each would kill the other's processes and count
their memory as its own)."""

import os
import subprocess
import sys

import pytest

from conftest import ROOT
from judge.sandbox.slots import Claim

TRY_THE_SLOT = """
import fcntl, os, sys
from judge.sandbox.slots import slot_lock_dir
fd = os.open(slot_lock_dir() / sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
try:
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    print("taken")
except BlockingIOError:
    print("in use")
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="without root there is one slot, the judge's own uid")
def test_a_judge_with_another_tmpdir_sees_the_slot_in_use(tmp_path):
    claim = Claim("run")
    try:
        done = subprocess.run([sys.executable, "-c", TRY_THE_SLOT, str(claim.uid)], capture_output=True, text=True,
                              timeout=60, env={**os.environ, "TMPDIR": str(tmp_path), "PYTHONPATH": str(ROOT)},
                              check=False)
        assert done.stdout.strip() == "in use", done.stdout + done.stderr
    finally:
        claim.give_back()
