"""`judge test`'s look at a package's constants (2025-09, "Constants"): a constant sequence that
names no constant is left as written, which tools may warn for, and a variant that spells another
number than its value is one they should warn for. Both are warnings: the package still judges."""

from __future__ import annotations

from pathlib import Path

from judge.formats.icpc.constants import mismatched_variants, undefined_in
from judge.formats.icpc.package import GROUP_FILES, STATEMENT_FOLDERS, Package, files_under
from judge.model.results import Check

# Where constants are substituted: the package's own programs, and generators.yaml's commands.
PROGRAM_FOLDERS = ("input_validators", "input_format_validators", "answer_validators", "answer_format_validators",
                   "output_validator", "output_validators", "generators", "include")
LARGEST_SCANNED = 1 << 20  # a larger file is data, not a program an author writes constants into


def check_constants(package: Package) -> list[Check]:
    """One row saying how many constants there are, and a warning per problem found."""
    if not package.constants:
        return []
    name, what = package.root.name, "constants"
    names = sorted(key for key in package.constants if "." not in key)
    checks = [Check(name, what, True, f"{len(names)} ({', '.join(names)}), substituted in validators, generators, "
                                      f"included code, test_group.yaml and statements; not in submissions")]
    for where, sequence in _undefined(package):
        checks.append(Check(name, what, True, f"warning: {sequence} in {where} names no constant; left as written"))
    for key in mismatched_variants(package.constants):
        base = key.partition(".")[0]
        checks.append(Check(name, what, True, f"warning: {key} is {package.constants[key]!r}, which is not the "
                                              f"value {package.constants[base]!r}"))
    return checks


def _undefined(package: Package) -> list[tuple[str, str]]:
    found = []
    for path in _substituted_files(package):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # a binary file is left as it is, and so are its bytes that look like {{x}}
        for sequence in undefined_in(text, package.constants, latex=path.suffix == ".tex"):
            found.append((str(path.relative_to(package.root)), sequence))
    return found


def _substituted_files(package: Package) -> list[Path]:
    files = files_under(package.root, PROGRAM_FOLDERS + STATEMENT_FOLDERS)
    files += [path for name in GROUP_FILES for path in sorted((package.root / "data").rglob(name))]
    statements = {path for path in files_under(package.root, STATEMENT_FOLDERS)}
    return [path for path in files if not path.is_symlink() and path.stat().st_size <= LARGEST_SCANNED
            and (path not in statements or path.suffix in (".md", ".tex"))]
