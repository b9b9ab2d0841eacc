"""Output formats (renderers), one module each: ``judge/renderers/<kind>/<name>.py`` renders results of one
kind (``grade``: a class report) in the format ``name``. Adding a format is adding a module; the
command line offers what is here, found without importing it (so `judge --help` stays fast).

Kinds: ``grade`` (a class report) and ``run`` (one submission's result). A ``grade`` format
module defines ``render(report) -> str`` (the text of the report, printed or written to
``--out``), or, when it writes several files, ``write(report, out: Path) -> list[Path]`` with
``DEFAULT_OUT``, the folder used without ``--out``; ``FOR_STUDENTS = True`` when students read it
(each problem's feedback policy applies) and ``SHOWS_COUNTEREXAMPLES = True`` when it shows the
counterexamples of hidden failures (only then does `judge grade` search). A ``run`` format module defines
``render(result, problem) -> str``.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).parent


def format_names(kind: str) -> list[str]:
    """The formats of results of ``kind``, by name (``table`` first: it is the default)."""
    # A listing of the folder, not pkgutil.iter_modules: that imports inspect, a tenth of
    # `judge --help`'s start.
    names = sorted(path.stem for path in (HERE / kind).glob("*.py") if not path.stem.startswith("_"))
    return sorted(names, key=lambda name: name != "table")


def load_format(kind: str, name: str) -> ModuleType:
    """The module rendering results of ``kind`` in format ``name``."""
    if name not in format_names(kind):
        raise ValueError(f"no {kind} format called {name!r}; formats: {', '.join(format_names(kind))}")
    return importlib.import_module(f"judge.renderers.{kind}.{name}")
