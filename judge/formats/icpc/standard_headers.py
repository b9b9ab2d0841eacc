"""The validator headers a package's tools supply, for the package's C and C++ programs that
include one without holding it: BAPCtools' ``validation.h`` (a package made with ``bt new_problem``
links to BAPCtools' own copy, a link that leads out of the package, or nowhere once the package is
copied alone) and testlib's ``testlib.h``.

Each comes from where its tool installs it: ``validation.h`` from the ``bapctools`` Python package
(a dependency of the judge; GPL-3.0, its licence in its distribution's metadata), the very copy
``bt`` compiles validators with. No package the judge can depend on carries ``testlib.h``: a
program that needs it and lacks it does not build, and the message says where to get it.

The header goes into the program's build folder (``HEADERS_FOLDER``, searched after the
program's own folders: ``-idirafter``), so the compiler finds it in every sandbox tier, and a
copy the program holds itself always wins.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

VALIDATION_H, TESTLIB_H = "validation.h", "testlib.h"
STANDARD_HEADERS = (VALIDATION_H, TESTLIB_H)
HEADERS_FOLDER = "standard-headers"
INCLUDE_LINE = re.compile(rb'^\s*#\s*include\s*["<]([\w./-]+)[">]', re.MULTILINE)
TESTLIB_SOURCE = "https://github.com/MikeMirzayanov/testlib"


def included_headers(sources: list[bytes]) -> set[str]:
    """The standard headers these sources include (by their file name)."""
    return {Path(name.decode()).name for code in sources for name in INCLUDE_LINE.findall(code)} \
        & set(STANDARD_HEADERS)


def standard_header(name: str) -> bytes | None:
    """The standard header ``name`` as its tool supplies it, or None where no installed tool does."""
    if name == VALIDATION_H:
        return _from_package("bapctools", "resources/headers/validation.h")
    return None


def _from_package(package: str, relative: str) -> bytes | None:
    """A data file of an installed Python package, found without importing the package."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder) / relative
        if path.is_file():
            return path.read_bytes()
    return None


def with_standard_headers(files: dict[str, bytes], suffixes: tuple[str, ...]) -> dict[str, bytes]:
    """A C/C++ program's files (by name) with the standard headers its sources (the files with
    ``suffixes``) include and it does not hold, in HEADERS_FOLDER."""
    held = {Path(name).name for name in files}
    sources = [code for name, code in files.items() if name.endswith(suffixes)]
    supplied = {}
    for name in sorted(included_headers(sources) - held):
        header = standard_header(name)
        if header is not None:
            supplied[f"{HEADERS_FOLDER}/{name}"] = header
    return {**files, **supplied}


def missing_header_hint(message: str) -> str:
    """What to do about a build that failed for want of a standard header no tool here supplies
    ("" if that is not why it failed)."""
    if f"{TESTLIB_H}: No such file" in message:
        return f"; {TESTLIB_H} is not in the package: copy it from {TESTLIB_SOURCE} next to the program"
    if f"{VALIDATION_H}: No such file" in message:
        return (f"; {VALIDATION_H} is not in the package and BAPCtools, which supplies it, is not installed "
                f"(pip install bapctools)")
    return ""
