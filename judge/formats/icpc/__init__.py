"""Problem packages in the ICPC/Kattis problem package format (legacy, 2023-07-draft, 2025-09).

A package directory (``problem.yaml``, ``data/``, ``submissions/``, validators) loads into the same
``Problem`` the built-in suites load into; what only packages have (the test data tree, output
validators, interactive judging, group scoring) lives in ``Problem.package``.
"""

from __future__ import annotations

from pathlib import Path

PROBLEM_FILE = "problem.yaml"


def is_package_dir(path: Path) -> bool:
    """Whether ``path`` is a problem package directory (it has a ``problem.yaml``)."""
    return path.is_dir() and (path / PROBLEM_FILE).is_file()
