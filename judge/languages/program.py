"""What a language hands over to be run: the prepared ``Program``, and the Python interpreter that
runs Python programs and the other languages' exec server. Below both the languages and the warm
pools (judge/languages/warm.py), which run programs the languages build."""

from __future__ import annotations

import os
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from judge.sandbox import Limits
from judge.sandbox.host import has_namespaces

NATIVE_PROGRAM = "{prog}/program"  # a compiled (C, C++) program's command: the binary the compiler wrote


@dataclass(frozen=True)
class Program:
    """A prepared submission: a read-only directory of files and the command that runs it.

    ``command`` may use ``{prog}`` for that directory as the program sees it.
    """

    language: str
    directory: Path
    command: tuple[str, ...]

    def argv(self, limits: Limits) -> list[str]:
        """The command line under ``limits`` (runtimes that cap their own heap take it as a flag)."""
        return [part.replace("{memory_mb}", str(limits.memory >> 20)) for part in self.command]


def python_interpreter() -> str:
    """$JUDGE_PYTHON, else the system python3 (fast start), else the judge's own interpreter (on
    Windows and macOS always: macOS's /usr/bin/python3 is a stub of Apple's developer tools)."""
    system_python = "/usr/bin/python3" if has_namespaces() and os.path.exists("/usr/bin/python3") else None
    chosen = os.environ.get("JUDGE_PYTHON") or system_python or sys.executable
    # The file itself, not a link to it: the sandbox shows the interpreter, not a virtual
    # environment's bin directory (whose site-packages, with -I -S, it does not use anyway).
    return os.path.realpath(shutil.which(chosen) or chosen)
