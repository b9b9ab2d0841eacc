"""What one case leaves must not reach the next, nor outlive the submission: files anywhere the
program can write, System V IPC objects and keys (which outlive every process), memory held in
them. Each program here is judged on several cases, warm and cold, in every tier, and must get
the verdict a contest judge gives; afterwards the host holds nothing of it."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from judge.formats.catalog import load_problem
from judge.model.vocabulary import Visibility
from judge.runner import judge_submission
from judge.sandbox.slots import FIRST_SLOT_UID, SLOT_COUNT

HERE = Path(__file__).resolve().parent
QUEUE_IN_HOST = ("the none tier has no IPC namespace: a POSIX message queue is the host's and outlives "
                 "the run (System V objects are removed by their creator's uid; a queue is found only "
                 "through a mounted mqueue file system)")
STONES = load_problem("stones")


def host_ipc_objects() -> list[str]:
    """The System V IPC objects in the host's namespace that a sandbox slot made."""
    found = []
    for kind in ("shm", "msg", "sem"):
        lines = Path(f"/proc/sysvipc/{kind}").read_text().splitlines()
        header = lines[0].split()
        for line in lines[1:]:
            row = dict(zip(header, line.split()))
            if FIRST_SLOT_UID <= int(row["cuid"]) < FIRST_SLOT_UID + SLOT_COUNT:
                found.append(f"{kind} {line.split()[1]} of uid {row['cuid']}")
    return found


def no_host_ipc_objects_stay() -> bool:
    """True once no slot's System V objects are left in the host's namespace. A test running
    beside this one (pytest -n) may hold some in the none tier for a moment: those go when its
    run ends; what a run leaked stays."""
    deadline = time.monotonic() + 15
    while host_ipc_objects():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def judged(name: str, cold: bool, count: int) -> list[tuple[str, str]]:
    # One case at a time: in the none tier, cases running side by side share the host's /tmp.
    # The first hidden cases, whose inputs are 1, 2, 3 (smallest, smallest-even, takes-all-three).
    cases = [case for case in STONES.cases if case.visibility != Visibility.SAMPLE][:count]
    result = judge_submission(STONES, HERE / name, cases=cases, cold=cold, jobs=1)
    return [(case.verdict, case.message) for case in result.cases]


@pytest.mark.parametrize("name", ["keep_state.c", "keep_state.py", "deep_tree.py", "nonblocking_stderr.py",
                                  "keep_key.py"])
@pytest.mark.parametrize("cold", [False, True], ids=["warm", "cold"])
def test_a_case_finds_nothing_an_earlier_case_left(name, tier, cold):
    assert [verdict for verdict, _ in judged(name, cold=cold, count=3)] == ["AC"] * 3
    assert no_host_ipc_objects_stay(), host_ipc_objects()


@pytest.mark.parametrize("name", ["hoard_shm.c", "hoard_memfd.c"])
@pytest.mark.parametrize("cold", [False, True], ids=["warm", "cold"])
def test_memory_no_process_shows_counts(name, tier, cold):
    """Shared memory segments written, then detached, and memory files written and never mapped:
    no process's resident size shows them, yet they are memory."""
    assert [verdict for verdict, _ in judged(name, cold=cold, count=2)] == ["MLE"] * 2
    assert no_host_ipc_objects_stay(), host_ipc_objects()


@pytest.fixture
def host_queues_removed():
    """Removes the queue a run left in the host's IPC namespace (through an mqueue file system
    mounted where only this command sees it), so that one run does not fail the next."""
    yield
    if os.geteuid() == 0:
        script = "mount -t mqueue judge-test /mnt && rm -f /mnt/judge-hostile-queue"
        subprocess.run(["unshare", "--mount", "sh", "-c", script], check=False)


@pytest.mark.parametrize("cold", [False, True], ids=["warm", "cold"])
def test_a_case_finds_no_message_queue_an_earlier_case_left(tier, cold, host_queues_removed, request):
    if tier == "none":
        request.applymarker(pytest.mark.xfail(reason=QUEUE_IN_HOST, strict=True))
    assert [verdict for verdict, _ in judged("keep_queue.c", cold=cold, count=3)] == ["AC"] * 3


SOCKET_BUFFERS = ("kernel memory in socket buffers shows in no process's resident size, and nothing else "
                  "measures it without a memory cgroup")


# Not strict: on a CI machine it once came out MLE (not reproduced on an idle or a loaded
# machine here), so a pass says nothing sure about socket buffers being measured.
@pytest.mark.xfail(reason=SOCKET_BUFFERS, strict=False)
def test_memory_held_in_socket_buffers_counts():
    assert [verdict for verdict, _ in judged("hoard_sockets.c", cold=True, count=1)] == ["MLE"]


@pytest.mark.parametrize("name", ["sibling_memory.c", "sibling_memory.py", "fork_memory.py"])
@pytest.mark.parametrize("cold", [False, True], ids=["warm", "cold"])
def test_memory_of_every_process_of_a_case_counts(name, tier, cold):
    """A forked child's memory, or a sibling's (clone with CLONE_PARENT), counts while it runs."""
    assert [verdict for verdict, _ in judged(name, cold=cold, count=1)] == ["MLE"]
