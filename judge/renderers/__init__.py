"""Output formats (renderers), one module each: ``judge/renderers/<kind>/<name>.py`` renders results of one
kind in the format ``name``. Adding a format is adding a module; the command line offers what is
here, found without importing it (so `judge --help` stays fast).

Kinds: ``grade`` (a class report), ``run`` (one submission's result), ``similarity`` (`judge
similarity`'s report) and ``statement`` (`judge show --html`). What a module of each kind
provides is declared in ``judge.extension_points`` (``RESULT_FORMATS``: a ``grade`` module
renders its text or writes several files, and says whether students read it and whether it
shows counterexamples). Beside the kinds' folders: what their formats share.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

from judge.extension_points import RESULT_FORMATS

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
    module = importlib.import_module(f"judge.renderers.{kind}.{name}")
    if not any(isinstance(module, protocol) for protocol in RESULT_FORMATS[kind]):
        wanted = " or ".join(f"judge.extension_points.{protocol.__name__}" for protocol in RESULT_FORMATS[kind])
        raise TypeError(f"{module.__file__} does not provide what a {kind} format provides ({wanted})")
    return module
