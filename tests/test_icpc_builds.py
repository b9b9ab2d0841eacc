"""`judge test PKG` builds and judges a package's submissions side by side
(judge/formats/icpc/submission_runs.py), those expected to time out first; a compile that failed is
not run again in the same process (judge/languages/base.py). Each compile error is still reported
against its own submission, the others are still verified, and the checks come in the package's
order."""

from __future__ import annotations

import dataclasses
import shutil

import pytest
from conftest import ROOT, run_judge

from judge.errors import CompileError, LanguageUnavailable
from judge.formats.icpc.expectations import submissions
from judge.formats.icpc.loading import load_package
from judge.languages import base, language_for
from judge.languages.base import cache_key, cached_build

PACKAGES = ROOT / "tests" / "packages"


def submission_lines(output: str) -> dict[str, str]:
    """judge test's line for each submission, by its check's name ("submission accepted/x.c")."""
    return {line.split("  ")[1]: line for line in output.splitlines() if "  submission " in line}


def test_each_compile_error_is_reported_against_its_own_submission(tmp_path, cache):
    package = tmp_path / "addition"
    shutil.copytree(PACKAGES / "addition", package)
    (package / "submissions" / "compile_error" / "second.c").write_text("int main(void) { return second_missing; }\n")
    (package / "submissions" / "accepted" / "broken.cpp").write_text("int main() { return accepted_missing; }\n")
    done = run_judge("test", str(package))
    assert done.returncode == 1, done.stdout + done.stderr
    lines = submission_lines(done.stdout)
    # Each error names its own source's mistake, and no other's.
    own_mistake = {"submission accepted/broken.cpp": "accepted_missing",
                   "submission compile_error/second.c": "second_missing",
                   "submission compile_error/typo.cpp": "undefined_name"}
    for name, mistake in own_mistake.items():
        assert "got CE" in lines[name] and mistake in lines[name], lines[name]
        others = set(own_mistake.values()) - {mistake}
        assert not any(other in lines[name] for other in others), lines[name]
    assert "  FAIL  expected AC, got CE" in lines["submission accepted/broken.cpp"]
    # The failing compile stops nothing: every other submission is judged and gets its verdict.
    rest = {name: line for name, line in lines.items() if name != "submission accepted/broken.cpp"}
    assert all("  ok  got " in line for line in rest.values()), done.stdout
    assert "got TLE" in lines["submission time_limit_exceeded/spins.py"]
    # In the package's order, though the submission expected to time out was started first.
    order = [f"submission {folder}/{path.name}" for path, folder in submissions(load_package(package).package)]
    assert list(lines) == order


@pytest.mark.parametrize("ending", ["exit 1", "kill -9 $$"])
def test_a_failed_compile_is_remembered_unless_it_was_killed(cache, ending):
    """The "compiler" prints the time, in nanoseconds, then fails: the same message twice means
    it ran once. A compiler killed (short of memory, say) may not fail again: it runs again."""
    command = ["/bin/sh", "-c", f"echo failed at $(date +%s%N) >&2; {ending}"]
    key = cache_key("test-failed-compile", ending, str(cache))
    messages = []
    for _ in range(2):
        with pytest.raises(CompileError) as failed:
            cached_build(key, {"source": b""}, command)
        messages.append(str(failed.value))
    assert "failed at" in messages[0]
    with pytest.raises(CompileError) as other_key:  # another key compiles: the clock has moved on
        cached_build(cache_key("test-failed-compile", ending, "another"), {"source": b""}, command)
    assert str(other_key.value) != messages[0]
    assert (messages[0] == messages[1]) is (ending == "exit 1")


# A program whose initialised static array is bigger than the sandbox's in-memory /tmp (64 MiB):
# its object file and executable are each that big (DOMjudge's test-memstatic.cc has 512 MiB).
STATIC_TABLE = """#include <stdio.h>
static char table[96 << 20] = {1};
int main(void) {
    table[10] = 2;
    printf("%d\\n", table[0] + table[10]);
    return 0;
}
"""


def test_a_large_initialised_static_array_builds_where_there_is_room(tmp_path, cache):
    source = tmp_path / "table.c"
    source.write_text(STATIC_TABLE)
    program = language_for(source).prepare(source, "stdio")
    assert (program.directory / "program").stat().st_size > 96 << 20


def test_a_build_out_of_room_says_so_and_is_no_compile_error(tmp_path, cache, monkeypatch):
    monkeypatch.setattr(base, "COMPILE_LIMITS", dataclasses.replace(base.COMPILE_LIMITS, output=32 << 20))
    source = tmp_path / "table.c"
    source.write_text(STATIC_TABLE)
    with pytest.raises(LanguageUnavailable, match=r"ran out of room .*compiler's limit of 32 MiB.*TMPDIR"):
        language_for(source).prepare(source, "stdio")
