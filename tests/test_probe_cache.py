"""The sandbox probes' outcomes are remembered between commands, keyed by the binaries they ran;
anything about the remembered entry that cannot be trusted means probing again."""

from __future__ import annotations

import json
import os
import shutil
import stat
import tempfile
from pathlib import Path

import pytest

from judge.sandbox import probe_cache, tiers
from tests.conftest import ROOT, run_judge

ACCEPTED = str(ROOT / "solutions" / "stones" / "accepted" / "game_dp.py")


@pytest.fixture
def cache(monkeypatch):
    """A cache folder of the test's own that a sandboxed program can reach."""
    folder = Path(tempfile.mkdtemp(prefix="judge-probe-test-", dir="/tmp"))
    folder.chmod(0o755)
    monkeypatch.setenv("JUDGE_CACHE", str(folder))
    monkeypatch.setattr(probe_cache, "_afresh", False)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def binary(cache) -> Path:
    path = cache / "tool"
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(0o755)
    return path


def counting_probe(outcomes: list):
    """A probe that records each time it runs and answers with the next of ``outcomes``."""
    calls = []

    def probe():
        calls.append(1)
        return outcomes[len(calls) - 1]
    return probe, calls


def remember(binary: Path, probe) -> object:
    return probe_cache.remembered("tool", [str(binary)], probe, tiers._is_reason)


def test_an_outcome_is_probed_once_and_then_remembered(binary):
    probe, calls = counting_probe([None, "never asked"])
    assert remember(binary, probe) is None
    assert remember(binary, probe) is None
    assert len(calls) == 1


def test_a_changed_binary_is_probed_again(binary):
    probe, calls = counting_probe([None, "exit 1"])
    remember(binary, probe)
    binary.write_text("#!/bin/sh\nexit 1\n")  # another size and mtime: another binary
    assert remember(binary, probe) == "exit 1"
    assert len(calls) == 2


def test_a_replaced_binary_of_the_same_size_and_time_is_probed_again(binary):
    probe, calls = counting_probe([None, "exit 1"])
    remember(binary, probe)
    status = binary.stat()
    replacement = binary.with_name("new")
    replacement.write_text(binary.read_text())
    os.utime(replacement, ns=(status.st_atime_ns, status.st_mtime_ns))
    replacement.rename(binary)  # same path, size and mtime; another inode
    assert remember(binary, probe) == "exit 1"


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", '{"tool": 5}', '{"tool": {"key": 1}}', "\xff\xfe"])
def test_a_corrupt_cache_file_is_ignored(binary, text):
    probe, calls = counting_probe(["why not", "never asked"])
    probe_cache.cache_file().write_text(text, errors="surrogateescape")
    assert remember(binary, probe) == "why not"
    assert remember(binary, probe) == "why not"  # and rewritten whole
    assert len(calls) == 1


def test_a_remembered_outcome_of_the_wrong_shape_is_probed_again(binary):
    probe, calls = counting_probe([None, None])
    remember(binary, probe)
    entries = json.loads(probe_cache.cache_file().read_text())
    entries["tool"]["value"] = {"tier": "bwrap"}
    probe_cache.cache_file().write_text(json.dumps(entries))
    assert remember(binary, probe) is None
    assert len(calls) == 2


def test_a_cache_file_others_could_write_is_not_trusted(binary):
    probe, calls = counting_probe([None, "exit 1"])
    remember(binary, probe)
    probe_cache.cache_file().chmod(0o666)
    assert remember(binary, probe) == "exit 1"


def test_probing_afresh_ignores_what_is_remembered(binary, monkeypatch):
    probe, calls = counting_probe([None, "exit 1", "never asked"])
    remember(binary, probe)
    probe_cache.probe_afresh()
    assert remember(binary, probe) == "exit 1"
    monkeypatch.setattr(probe_cache, "_afresh", False)
    assert remember(binary, probe) == "exit 1"  # what was found afresh is what is remembered now


def test_an_unwritable_cache_folder_only_means_probing_each_time(monkeypatch, tmp_path):
    monkeypatch.setenv("JUDGE_CACHE", str(tmp_path / "file"))
    (tmp_path / "file").write_text("not a folder")
    probe, calls = counting_probe([None, None])
    assert probe_cache.remembered("tool", ["/bin/sh"], probe, tiers._is_reason) is None
    assert probe_cache.remembered("tool", ["/bin/sh"], probe, tiers._is_reason) is None
    assert len(calls) == 2


def broken_bwrap(cache: Path) -> Path:
    """A bwrap that can no longer make namespaces (as after the kernel's switch was turned off)."""
    fake = cache / "bin" / "bwrap"
    fake.parent.mkdir(mode=0o755)
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return fake


@pytest.mark.slow
def test_a_remembered_bwrap_that_stopped_working_fails_closed(cache):
    """The cache claims a bwrap works that now fails with the same identity: runs fail (nothing
    runs outside the sandbox), and `judge doctor` probes again and says so."""
    fake = broken_bwrap(cache)
    key = probe_cache.probe_key([str(fake), *tiers._SLOT_TOOLS])
    probe_cache.cache_file().write_text(json.dumps({f"bwrap {fake}": {"key": key, "value": [None, "bubblewrap 0.8.0"]}}))
    env = {"JUDGE_CACHE": str(cache), "JUDGE_BWRAP": str(fake), "JUDGE_SANDBOX": ""}
    done = run_judge("run", "stones", ACCEPTED, "--case", "sample-1", "--no-record", "--format", "json", env=env)
    result = json.loads(done.stdout)
    assert result["verdict"] != "AC" and "No permissions to create new namespace" in done.stdout, done.stdout
    doctor = run_judge("doctor", env=env)
    assert "sandbox tier: bwrap" not in doctor.stdout
    assert "`--version` failed: bwrap: No permissions" in doctor.stdout, doctor.stdout
    entry = json.loads(probe_cache.cache_file().read_text())[f"bwrap {fake}"]
    assert entry["value"][0] is not None  # doctor's finding replaced the stale one


def test_a_run_after_a_corrupt_cache_file_probes_and_judges(cache):
    probe_cache.cache_file().write_text("{truncated")
    done = run_judge("run", "stones", ACCEPTED, "--case", "sample-1", "--no-record", "--format", "json",
                     env={"JUDGE_CACHE": str(cache)})
    assert json.loads(done.stdout)["verdict"] == "AC", done.stderr
    assert "Traceback" not in done.stderr
    assert isinstance(json.loads(probe_cache.cache_file().read_text()), dict)


def test_a_toolchain_version_is_asked_once_per_machine_and_again_after_an_upgrade(cache, monkeypatch):
    """The version line each command puts in its build keys (a JVM takes over 100 ms to say
    it) is remembered beside the probes, keyed by the toolchain binary: a new binary is asked."""
    from judge.languages import base

    folder = cache / "bin"
    folder.mkdir()
    asked = cache / "asked"
    compiler = folder / "fakecc"
    compiler.write_text(f"#!/bin/sh\necho x >> {asked}\necho 'fakecc 1.0'\n")
    compiler.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}:{os.environ['PATH']}")

    def version() -> str:
        base._version_line.cache_clear()  # a new command: nothing kept in memory
        return base._version_line("fake", ("fakecc",), "fakecc")

    try:
        assert version() == version() == "fakecc 1.0"
        assert asked.read_text().count("x") == 1
        compiler.write_text(f"#!/bin/sh\necho x >> {asked}\necho 'fakecc 2.0 (upgraded)'\n")
        assert version() == "fakecc 2.0 (upgraded)"
        assert asked.read_text().count("x") == 2
    finally:
        base._version_line.cache_clear()
