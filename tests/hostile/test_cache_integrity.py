"""The compile cache is immutable to every sandboxed uid: a submission cannot replace another's
compiled program (the weaker tiers let it see the cache), and an entry changed by any other
means is detected by its content hash and built again before use."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

from judge.languages import language_for
from judge.languages.build_cache import intact
from judge.runner import base_limits
from judge.sandbox import run_sandboxed
from tests.hostile.test_hostile import STONES, TIERS, run_raw

ANSWER = "#include <stdio.h>\nint main(void) { int n; scanf(\"%d\", &n); puts(n % 2 ? \"SK\" : \"CY\"); }\n"


def fresh_program(tmp_path: Path):
    """A C program compiled now, into an entry of its own (its source is unique)."""
    source = tmp_path / "victim.c"
    source.write_text(f"/* {uuid.uuid4()} */\n{ANSWER}")
    return source, language_for(source).prepare(source, "stdio")


def answer_of(program) -> bytes:
    return run_sandboxed(list(program.command), stdin=b"1\n", limits=base_limits(STONES),
                         program_dir=program.directory).stdout


@pytest.mark.parametrize("tier", [tier for tier in TIERS if tier in ("unshare", "none")])
def test_a_sandboxed_program_cannot_change_a_cache_entry(tier, tmp_path):
    _, program = fresh_program(tmp_path)
    targets = [program.directory, *sorted(program.directory.iterdir())]
    outcome = run_raw("tamper.py", tier, " ".join(map(str, targets)).encode())
    if tier == "none":  # elsewhere the paths name files of the program's own view, not the cache
        assert b"WROTE" not in outcome.stdout and b"DELETED" not in outcome.stdout, outcome.stdout
    assert intact(program.directory)
    assert answer_of(program) == b"SK\n"


def test_every_cache_entry_belongs_to_the_judge_and_nobody_else_can_write_it(tmp_path):
    _, program = fresh_program(tmp_path)
    for path in [program.directory, *program.directory.iterdir()]:
        status = path.lstat()
        assert status.st_uid == os.geteuid() and not status.st_mode & 0o022, path


def test_a_tampered_entry_is_detected_and_built_again(tmp_path):
    source, program = fresh_program(tmp_path)
    binary = program.directory / "program"
    with open(binary, "r+b") as handle:  # the judge's own uid could; a slot uid cannot
        handle.seek(64)
        handle.write(b"\xde\xad\xbe\xef")
    assert not intact(program.directory)
    again = language_for(source).prepare(source, "stdio")
    assert again.directory == program.directory and intact(again.directory)
    assert answer_of(again) == b"SK\n"
