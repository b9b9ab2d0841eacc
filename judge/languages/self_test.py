"""A language's self-test: its tiny program built and run in the sandbox like a submission."""

from __future__ import annotations

import tempfile
from pathlib import Path

from judge.errors import CompileError, LanguageUnavailable
from judge.languages.base import Language
from judge.model.vocabulary import TaskStyle
from judge.sandbox import Limits, run_sandboxed

SELF_TEST_INPUT, SELF_TEST_OUTPUT = b"20 22\n", "42"
SELF_TEST_LIMITS = Limits(cpu_time=5.0, wall_time=20.0, memory=256 << 20, output=1 << 20)


def self_test(language: Language) -> str | None:
    """None if the language's test program compiles, runs and prints the right answer in the
    sandbox; else what went wrong."""
    if not language.self_test_source:
        return "it has no self-test program"
    with tempfile.TemporaryDirectory(prefix="judge-self-test-") as folder:
        source = Path(folder) / language.self_test_file
        source.write_text(language.self_test_source, encoding="utf-8")
        try:
            program = language.prepare(source, TaskStyle.STDIO)
        except (CompileError, LanguageUnavailable) as error:
            return f"its test program did not build: {error}"
    limits = language.limits(SELF_TEST_LIMITS)
    outcome = run_sandboxed(program.argv(limits), stdin=SELF_TEST_INPUT, limits=limits, program_dir=program.directory)
    got = outcome.stdout.decode("utf-8", errors="replace").strip()
    if outcome.internal_error or outcome.exit_code != 0 or got != SELF_TEST_OUTPUT:
        why = outcome.internal_error or outcome.stderr.decode("utf-8", errors="replace").strip()[-200:]
        return f"its test program printed {got[:40]!r} (exit {outcome.exit_code}, signal {outcome.signal}): {why}"
    return None
