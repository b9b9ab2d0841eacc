"""A program ends the way it would outside the sandbox: with the signals it raises, stopped by
its own limits' signals, free to use threads, and a source with a large precomputed table
compiles. Checked in every tier this machine offers."""

from __future__ import annotations

import signal

import pytest

from judge.model.verdict import decide
from judge.runner import base_limits
from tests.conftest import run_judge
from tests.hostile.test_hostile import STONES, TIERS, run_raw


def verdict(name: str, tier: str) -> tuple[str, str]:
    outcome = run_raw(name, tier, stdin=b"1\n")
    decision = decide(outcome, base_limits(STONES), None, out_of_memory=False, error_line="")
    return decision.verdict, decision.message


@pytest.mark.parametrize("tier", TIERS)
def test_abort_is_reported_as_sigabrt(tier):
    outcome = run_raw("fidelity_abort.c", tier)
    assert outcome.signal == signal.SIGABRT, outcome
    assert b"Aborted" not in outcome.stderr  # what a shell says of its job, not the program


@pytest.mark.parametrize("tier", TIERS)
def test_an_output_flood_is_output_limit_exceeded(tier):
    assert verdict("fidelity_flood.c", tier)[0] == "OLE"


@pytest.mark.parametrize("tier", TIERS)
def test_a_program_may_start_dozens_of_threads(tier):
    outcome = run_raw("fidelity_threads.c", tier, stdin=b"1\n")
    assert outcome.stdout == b"SK\n", outcome


def test_a_large_precomputed_table_compiles(tmp_path):
    values = ",".join(str(index * 7919 % 1000003) for index in range(400_000))  # about 3 MiB of source
    source = tmp_path / "stones.c"
    source.write_text(f"#include <stdio.h>\nstatic const int table[] = {{{values}}};\n"
                      "int main(void) { int n; scanf(\"%d\", &n); puts((n + table[0] * 0) % 2 ? \"SK\" : \"CY\"); }\n")
    done = run_judge("run", "stones", str(source), "--case", "smallest", "--no-record")
    assert "CE" not in done.stdout and done.returncode == 0, done.stdout + done.stderr
