"""problemtools' example problems and compiled default validator, fetched from the package index
at test time (once; cached under the system's temporary directory) rather than copied here."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from contextlib import contextmanager
from pathlib import Path

import pytest

CACHE = Path(tempfile.gettempdir()) / "judge-test-problemtools"
EXAMPLES = ("hello", "different", "guess", "oddecho")


@contextmanager
def _locked():
    """One test process at a time fills the cache (pytest-xdist runs several)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def _download(folder: str, *options: str) -> Path | None:
    target = CACHE / folder
    found = sorted(target.glob("problemtools-*")) if target.is_dir() else []
    if found:
        return found[0]
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--timeout", "30", "--retries", "2",
                           *options, "problemtools",
                           "-d", str(target)], capture_output=True, text=True, timeout=300, check=False)
    found = sorted(target.glob("problemtools-*")) if target.is_dir() else []
    if done.returncode != 0 or not found:
        return None
    return found[0]


def examples_dir() -> Path:
    """problemtools' examples/ from its source distribution; the test is skipped, saying why, if
    the download fails."""
    with _locked():
        unpacked = sorted(CACHE.glob("src/problemtools-*/examples"))
        if unpacked:
            return unpacked[0]
        archive = _download("sdist", "--no-binary", ":all:")
        if archive is None:
            pytest.skip("could not download problemtools' source distribution from the package index")
        with tarfile.open(archive) as tar:
            members = [member for member in tar.getmembers() if "/examples/" in member.name or
                       "/support/default_validator/" in member.name]
            tar.extractall(CACHE / "src", members=members, filter="data")
        return min(CACHE.glob("src/problemtools-*/examples"))


def default_validator_binary() -> Path:
    """problemtools' compiled default validator: from its wheel for this platform, else built from
    its source distribution with g++."""
    with _locked():
        binary = CACHE / "default_validator"
        if binary.is_file():
            return binary
        wheel = _download("wheel", "--only-binary", ":all:")
        if wheel is not None and wheel.suffix == ".whl":
            with zipfile.ZipFile(wheel) as archive:
                names = [name for name in archive.namelist() if name.endswith("support/default_validator")]
                if names:
                    binary.write_bytes(archive.read(names[0]))
                    binary.chmod(0o755)
        if not binary.is_file() or subprocess.run([str(binary)], capture_output=True, check=False).returncode == 127:
            binary.unlink(missing_ok=True)
    source = examples_dir().parent / "support" / "default_validator" / "default_validator.cc"
    with _locked():
        if not binary.is_file():
            if not shutil.which("g++"):
                pytest.skip("no default_validator wheel for this platform and no g++ to build it")
            built = subprocess.run(["g++", "-O2", "-std=c++17", "-o", str(binary), str(source)],
                                   capture_output=True, text=True, check=False)
            if built.returncode != 0:
                pytest.skip(f"problemtools' default_validator.cc does not build here: {built.stderr[-300:]}")
        return binary


def run_default_validator(binary: Path, output: bytes, answer: bytes, flags: list[str], work: Path) -> int:
    """The reference validator's exit code (42 accepted, 43 wrong answer) on one output."""
    (work / "answer").write_bytes(answer)
    (work / "input").write_bytes(b"")
    feedback = work / "feedback"
    feedback.mkdir(exist_ok=True)
    done = subprocess.run([str(binary), str(work / "input"), str(work / "answer"), str(feedback) + os.sep, *flags],
                          input=output, capture_output=True, check=False, timeout=30)
    return done.returncode
