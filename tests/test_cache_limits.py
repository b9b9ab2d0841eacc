"""The compile cache stays within its caps: in all (least recently used entries go first), per
build (a larger build is judged but not kept) and in age; never removing an entry a judge is
using or building, even while several judges build and sweep one cache at once."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from conftest import ROOT, run_judge

from judge.languages.build_cache import cache_key, cached_entry, intact
from judge.languages.cache_limits import cache_limits
from judge.languages.cache_sweep import LEFTOVER_AGE, sweep

ENTRY_BYTES = 10_000  # each test entry: one file this size (and a 64-byte manifest)
# 4 MiB of initialised data: all of it is in the compiled program, which the per-build cap refuses to keep.
BIG_STONES = ("#include <stdio.h>\nint table[1 << 20] = {1, 2, 3};\n"
              "int main(void) { if (scanf(\"%d\", &table[0]) != 1) return 1; puts(table[0] % 2 ? \"SK\" : \"CY\"); }\n")


@pytest.fixture
def runnable_cache():
    """A cache directory a sandboxed program can reach (a test's own tmp_path is private to its user)."""
    root = Path(tempfile.mkdtemp(prefix="judge-cache-test-"))
    root.chmod(0o755)
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def cache(runnable_cache, monkeypatch) -> Path:
    root = runnable_cache / "cache"
    monkeypatch.setenv("JUDGE_CACHE", str(root))
    monkeypatch.setenv("JUDGE_CACHE_MAX_BYTES", str(35_000))  # three entries fit, a fourth does not
    return root


def entry_for(name: str):
    """The entry of a program that is one file of ENTRY_BYTES bytes (built without a compiler)."""
    content = name.encode().ljust(ENTRY_BYTES, b".")
    return cached_entry(cache_key("test", name), {"data": content}, None)


def kept(root: Path) -> set[str]:
    return {(root / name / "data").read_bytes().rstrip(b".").decode()
            for name in os.listdir(root) if len(name) == 32 and (root / name).is_dir()}


def test_over_the_cap_the_least_recently_used_entries_go_first(cache):
    for name in ("a", "b", "c"):
        entry_for(name)
    entry_for("a")  # used again: now b is the least recently used, then c
    assert kept(cache) == {"a", "b", "c"}
    entry_for("d")  # 40 KB: over the cap; a sweep brings the cache down to 80% of it
    assert kept(cache) == {"a", "d"}
    assert all(intact(cache / name) for name in os.listdir(cache) if len(name) == 32)


def test_an_entry_in_use_is_never_evicted(cache, monkeypatch):
    held = entry_for("a")  # a program whose directory this judge still uses
    for name in ("b", "c", "d"):
        entry_for(name)
    assert kept(cache) == {"a", "d"}  # a was the least recently used, but in use: b and c went instead
    assert intact(held) and (held / "data").read_bytes().startswith(b"a.")
    del held  # done with it: the next sweep may take it
    monkeypatch.setenv("JUDGE_CACHE_MAX_BYTES", str(15_000))
    assert sweep(cache, cache_limits())
    assert kept(cache) == {"d"}


def test_expired_entries_and_old_leftovers_are_swept(cache, monkeypatch):
    monkeypatch.setenv("JUDGE_CACHE_MAX_AGE_DAYS", "30")
    for name in ("old", "new"):
        entry_for(name)
    old = cache_key("test", "old")
    days_ago = time.time() - 40 * 86400
    os.utime(cache / old, (days_ago, days_ago))
    # What a killed judge leaves: a half-written entry, a build too large to keep, a lock file.
    # (The build too large to keep is of a judge never registered: gone, however recent.)
    leftovers = [cache / f"{cache_key('test', 'x')}.k2j4h5l6",
                 cache / f"uncached-1-0123456789ab.{cache_key('test', 'y')}-abcd1234"]
    for folder in leftovers:
        folder.mkdir()
        (folder / "program").write_bytes(b"half")
    (cache / f"{cache_key('test', 'z')}.lock").touch()
    recent = cache / f"{cache_key('test', 'w')}.a1b2c3d4"  # still being written, for all a sweep can tell
    recent.mkdir()
    hours_ago = time.time() - LEFTOVER_AGE - 60
    for path in [*leftovers, cache / f"{cache_key('test', 'z')}.lock"]:
        os.utime(path, (hours_ago, hours_ago))
    assert sweep(cache, cache_limits())
    assert kept(cache) == {"new"}
    assert not any(path.exists() for path in leftovers) and not (cache / f"{cache_key('test', 'z')}.lock").exists()
    assert recent.exists() and (cache / f"{cache_key('test', 'new')}.lock").exists()


def test_a_build_over_the_per_build_cap_is_judged_but_not_kept(tmp_path, runnable_cache):
    cache = runnable_cache
    env = {"JUDGE_CACHE": str(cache), "JUDGE_CACHE_MAX_BUILD_BYTES": "1M"}
    source = tmp_path / "big.c"
    source.write_text(BIG_STONES)
    done = run_judge("run", "stones", str(source), "--no-record", "--format", "json", env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["verdict"] == "AC"
    kept_files = [path for path in cache.rglob("*") if path.is_file()]
    assert not [path for path in kept_files if path.stat().st_size > 1 << 20], "the 4 MiB program was kept"
    assert not [path for path in cache.iterdir() if path.name.startswith("uncached-")]  # removed after judging
    small = run_judge("run", "stones", str(ROOT / "solutions/stones/accepted/parity.c"), "--no-record", env=env)
    assert small.returncode == 0, small.stderr
    assert [path for path in cache.glob("*/program")], "an ordinary build is kept"


def test_caps_in_error_are_named_with_how_to_fix_them(runnable_cache):
    source = ROOT / "solutions/stones/accepted/parity.c"
    done = run_judge("run", "stones", str(source), "--no-record",
                     env={"JUDGE_CACHE": str(runnable_cache / "cache"), "JUDGE_CACHE_MAX_BYTES": "lots"})
    assert done.returncode == 2
    assert done.stderr.strip() == ("judge: error: $JUDGE_CACHE_MAX_BYTES='lots' is not a size; give bytes, "
                                   "or a number with K, M or G (e.g. 2G)")


@pytest.mark.slow
def test_doctor_states_the_caps(runnable_cache):
    done = run_judge("doctor", env={"JUDGE_CACHE": str(runnable_cache / "cache"), "JUDGE_CACHE_MAX_BYTES": "2G",
                                    "JUDGE_CACHE_MAX_BUILD_BYTES": "8M", "JUDGE_CACHE_MAX_AGE_DAYS": "7"})
    assert f"compile cache: {runnable_cache / 'cache'}: " in done.stdout, done.stderr
    assert "in all:    2 GiB ($JUDGE_CACHE_MAX_BYTES)" in done.stdout
    assert "per build: 8 MiB ($JUDGE_CACHE_MAX_BUILD_BYTES); a larger build is judged, but not kept" in done.stdout
    assert "an entry unused for 7 days goes ($JUDGE_CACHE_MAX_AGE_DAYS)" in done.stdout


# One judge of several sharing a cache far too small for what they build: each builds (with a
# build step, as a compiler's) entries of a shared set in its own order, some too large to keep,
# holds the last few in use, and checks every held entry is whole each time.
CONTENDER = """
import random, sys
from judge.languages.build_cache import cache_key, cached_entry, intact

seed, rounds = int(sys.argv[1]), int(sys.argv[2])
chooser = random.Random(seed)
builds, held, problems = 0, [], []

def build(directory):
    global builds
    name = (directory / "name").read_text()
    too_large = name.endswith("-7")  # the per-build cap is 1 MB
    builds += not too_large
    size = 2_000_000 if too_large else 6_000
    (directory / "program").write_bytes(name.encode().ljust(size, b"#"))

for round in range(rounds):
    name = f"program-{chooser.randrange(16)}"
    entry = cached_entry(cache_key("contender", name), {"name": name.encode()}, build)
    if (entry / "program").read_bytes().rstrip(b"#") != name.encode():
        problems.append(f"{entry}: not {name}'s program")
    held = [*held[-2:], (name, entry)]
    for held_name, held_entry in held:
        if not intact(held_entry) or (held_entry / "name").read_text() != held_name:
            problems.append(f"{held_entry}: {held_name}'s entry changed while in use")
print(builds, len(problems), problems[:3])
"""


def test_judges_building_and_sweeping_at_once_leave_only_whole_entries(cache, monkeypatch):
    monkeypatch.setenv("JUDGE_CACHE_MAX_BYTES", "40000")
    monkeypatch.setenv("JUDGE_CACHE_MAX_BUILD_BYTES", "1M")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    rounds = 150
    judges = [subprocess.Popen([sys.executable, "-c", CONTENDER, str(seed), str(rounds)], env=env, cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for seed in (1, 2, 3)]
    reports = [judge.communicate(timeout=300) for judge in judges]
    for judge, (out, err) in zip(judges, reports):
        assert judge.returncode == 0, err
        builds, problem_count, problems = out.split(" ", 2)
        assert problem_count == "0", problems
    # 15 programs to keep in a cache that holds about six: entries were evicted and built again.
    assert sum(int(out.split()[0]) for out, _ in reports) > 2 * 15
    names = os.listdir(cache)
    entries = [name for name in names if len(name) == 32]
    assert entries and all(intact(cache / name) for name in entries)
    unexpected = [name for name in names if len(name) != 32 and not name.endswith(".lock")
                  and name not in (".usage", ".users")]
    assert not unexpected, unexpected  # no half-written entry, no trash, no build too large left behind
    assert sweep(cache, cache_limits())  # with no judge holding any, one sweep brings it under the cap
    entries = [name for name in os.listdir(cache) if len(name) == 32]
    assert sum(os.path.getsize(cache / name / file) for name in entries for file in os.listdir(cache / name)) <= 40_000


# A judge that uses an entry until told to stop (a line on its stdin), then exits.
HOLDER = """
import sys
from judge.languages.build_cache import cache_key, cached_entry
entry = cached_entry(cache_key("test", "held"), {"data": b"held".ljust(10_000, b".")}, None)
print("holding", flush=True)
sys.stdin.readline()
"""


def test_an_entry_another_judge_uses_is_kept_until_that_judge_is_gone(cache, monkeypatch):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    holder = subprocess.Popen([sys.executable, "-c", HOLDER], env=env, cwd=ROOT, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holder.stdout.readline() == "holding\n"
        os.utime(cache / cache_key("test", "held"), (1, 1))  # the least recently used, and long expired
        entry_for("mine")
        monkeypatch.setenv("JUDGE_CACHE_MAX_BYTES", "1")
        assert sweep(cache, cache_limits())
        assert kept(cache) == {"held"}  # this judge's own, dropped at once, went; the other's stays
        holder.communicate("done\n", timeout=60)
    finally:
        holder.kill()
        holder.wait()
    assert sweep(cache, cache_limits())
    assert kept(cache) == set()
    assert os.listdir(cache / ".users") == [name for name in os.listdir(cache / ".users")
                                            if name.startswith(f"{os.getpid()}-")]  # the dead judge's went


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_entries_in_use_hold_no_descriptor_each(cache, monkeypatch):
    monkeypatch.setenv("JUDGE_CACHE_MAX_BYTES", "1G")
    first = entry_for("first")  # this judge registers with the cache: one descriptor, for good
    before = open_fds()
    held = [entry_for(f"program-{number}") for number in range(20)]
    assert open_fds() == before
    assert all(intact(entry) for entry in [first, *held])


def test_a_judge_registers_only_while_no_sweep_reads_the_registrations(tmp_path):
    """A sweep reads the registrations holding the cache-wide lock exclusively, and takes a
    registration's unlocked name for a killed judge's: a judge registering meanwhile would lose
    its file between creating and locking it. So registering waits for the sweep's lock."""
    import fcntl
    import threading

    from judge.languages.cache_users import USERS, _Registration, cache_wide

    made = []
    with cache_wide(tmp_path, fcntl.LOCK_EX):  # as a sweep holds it while it reads .users/
        registering = threading.Thread(target=lambda: made.append(_Registration(tmp_path)))
        registering.start()
        registering.join(0.5)
        assert registering.is_alive() and not made  # waiting for the lock
        assert not list((tmp_path / USERS).glob("*"))  # nothing there a sweep could take for a dead judge's
    registering.join(30)
    assert made and made[0].current()
