#!/usr/bin/env python3
"""Accepts the output when it is the integer the answer file holds; says what it got otherwise."""
import pathlib
import sys

expected = pathlib.Path(sys.argv[2]).read_text().strip()
got = sys.stdin.read().strip()
if got != expected:
    (pathlib.Path(sys.argv[3]) / "judgemessage.txt").write_text(f"wanted {expected}, read {got!r}")
    sys.exit(43)
sys.exit(42)
