"""Files in the sandbox's in-memory directories are memory: /dev/shm and /tmp are size-capped
and what they hold counts against the run's memory limit; nothing written there stays on the
host. Checked in every tier that gives the run its own mount namespace."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from judge.sandbox import hides_file_system
from tests.hostile.test_hostile import STONES, TIERS, run_raw

OWN_MOUNTS = [tier for tier in TIERS if hides_file_system(tier)]


@pytest.mark.parametrize("tier", OWN_MOUNTS)
def test_filling_dev_shm_is_stopped_and_counted(tier):
    outcome = run_raw("fill_shm.c", tier, stdin=b"1\n")
    stopped_for_memory = outcome.memory_kb > STONES.memory_limit >> 10
    if not stopped_for_memory:
        shm, tmp = map(int, re.search(rb"wrote (\d+) MiB to /dev/shm and (\d+) MiB", outcome.stderr).groups())
        assert shm < 650 and tmp < 650, outcome.stderr  # a write error: the directories are capped
        assert outcome.memory_kb >= (shm + tmp) * 1024 * 0.9, outcome  # and what they hold counts
    assert not list(Path("/dev/shm").glob("judge-hostile-fill*"))
    assert not list(Path("/tmp").glob("judge-hostile-fill*"))


@pytest.mark.parametrize("tier", TIERS)
def test_nothing_written_to_shared_directories_stays_on_the_host(tier):
    if tier == "none" and os.geteuid() != 0:
        pytest.skip("without namespaces only root can sweep a run's files (by its own uid)")
    outcome = run_raw("leave_files.py", tier, stdin=b"1\n")
    assert outcome.stdout == b"SK\n", outcome.stderr
    for directory in ("/tmp", "/var/tmp", "/dev/shm"):
        assert not list(Path(directory).glob("judge-hostile-left-*"))


@pytest.mark.parametrize("tier", TIERS)
def test_an_attached_shared_memory_segment_is_counted_once(tier):
    # Its pages are the process's resident memory; the segments counted on their own are the
    # detached ones, which no process shows.
    outcome = run_raw("use_attached_shm.c", tier, stdin=b"1\n")
    assert outcome.stdout == b"SK\n" and outcome.signal is None, outcome
    assert 80 * 1024 <= outcome.memory_kb <= 100 * 1024, outcome.memory_kb
