#!/usr/bin/env python3
"""Scores the output: 1 for twice n, 0.5 for one more or less than that, wrong answer otherwise."""
import pathlib
import sys

feedback = pathlib.Path(sys.argv[3])
wanted = int(pathlib.Path(sys.argv[2]).read_text())
try:
    got = int(sys.stdin.read())
except ValueError:
    got = None
if got is None or abs(got - wanted) > 1:
    (feedback / "judgemessage.txt").write_text(f"wanted {wanted}, read {got}")
    sys.exit(43)
(feedback / "score.txt").write_text("1" if got == wanted else "0.5")
sys.exit(42)
