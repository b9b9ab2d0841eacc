"""What an example submission of a package must get: the verdicts its folder under
``submissions/`` names, narrowed by the results its source lists after ``@EXPECTED_RESULTS@:``
(DOMjudge's annotation, read by BAPCtools too), and held to the score of its
``@EXPECTED_SCORE@:`` line. In a folder that names no verdict (DOMjudge's ``mixed/``, say) the
annotation alone decides.

DOMjudge reads the annotations as this module does: ``@EXPECTED_RESULTS@: `` in a file
(case-insensitively), then the comma-separated result names up to the end of that line;
``@EXPECTED_SCORE@: `` followed by a number is the score, followed by result names it is read as
``@EXPECTED_RESULTS@``. A file with one annotation twice, or a directory submission with two
annotated files, is an error; DOMjudge refuses such a submission at import, never judging it. In
DOMjudge's ``check_manually/`` such refusals are what a person is meant to check, so there they are
not judged, with DOMjudge's reason; elsewhere they fail.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from judge.languages.folder import read_folder
from judge.model.verdict import DOMJUDGE_RESULT_VERDICTS, PACKAGE_FOLDER_VERDICTS, SUBMISSION_VERDICTS

if TYPE_CHECKING:
    from judge.formats.icpc.package import Package

SCORED_FOLDER = "partially_accepted"
MANUAL_RESULT = "CHECK-MANUALLY"
MANUAL_FOLDER = "check_manually"  # DOMjudge's: submissions whose outcome a person checks
MARKERS = {"results": re.compile(rb"@EXPECTED_RESULTS@: ", re.IGNORECASE),
           "score": re.compile(rb"@EXPECTED_SCORE@: ", re.IGNORECASE)}


class ExpectationError(ValueError):
    """A submission's annotation cannot be read (unknown name, two annotations, ...)."""


class RefusedAtImport(ExpectationError):
    """Annotations DOMjudge refuses the whole submission for (one marker twice, two annotated files)."""


class CheckedByHand(Exception):
    """The annotation asks for a person to look at the result (DOMjudge's CHECK-MANUALLY)."""


@dataclass(frozen=True)
class Annotation:
    """What a submission's source says it expects."""

    file: str
    results: tuple[str, ...] | None = None  # result names, upper case
    score: float | None = None


@dataclass(frozen=True)
class Expectation:
    """The verdicts a submission may get, and where that rule comes from (for messages)."""

    verdicts: frozenset[str]
    origin: str  # "folder wrong_answer", "@EXPECTED_RESULTS@ in x.c", ...
    partial: bool = False  # partially_accepted: a score strictly between 0 and the maximum
    score: float | None = None  # the exact score it must get (@EXPECTED_SCORE@)


def expectation(path: Path, folder: str) -> Expectation | None:
    """The rule for the submission at ``path`` in ``submissions/<folder>/``; None when neither
    the folder nor the source says anything. ExpectationError for an unreadable annotation, or
    one that contradicts the folder; CheckedByHand where a person is to look at the outcome."""
    if folder == MANUAL_FOLDER:
        try:
            note = annotation(path)
        except RefusedAtImport as error:
            raise CheckedByHand(f"folder {folder} asks for a check by hand: DOMjudge refuses this submission "
                                f"at import ({error})") from None
        if note is None or note.results is None:
            raise CheckedByHand(f"folder {folder} asks for a check by hand and the source names no result")
    else:
        note = annotation(path)
    score = note.score if note else None
    if folder == SCORED_FOLDER:
        return Expectation(SUBMISSION_VERDICTS, f"folder {folder}", partial=True, score=score)
    allowed = PACKAGE_FOLDER_VERDICTS.get(folder)
    if note is None or note.results is None:
        if allowed is None and score is None:
            return None
        origin = f"folder {folder}" if allowed is not None else f"@EXPECTED_SCORE@ in {note.file}"
        return Expectation(frozenset(allowed or SUBMISSION_VERDICTS), origin, score=score)
    annotated = _verdicts_of(note.results, note.file)
    if allowed is None:
        return Expectation(frozenset(annotated), f"@EXPECTED_RESULTS@ in {note.file}", score=score)
    if not allowed & annotated:
        raise ExpectationError(f"@EXPECTED_RESULTS@ in {note.file} says {', '.join(note.results)}, which folder "
                               f"{folder} does not allow; move the submission or fix the annotation")
    return Expectation(frozenset(allowed & annotated), f"folder {folder} and @EXPECTED_RESULTS@", score=score)


def annotation(path: Path) -> Annotation | None:
    """What the ``@EXPECTED_RESULTS@:`` / ``@EXPECTED_SCORE@:`` lines of a submission's source
    (any one file of a directory submission) say; None without one."""
    # An example submission's links to the package's files are the package's (see check_symlinks).
    files = read_folder(path, follow_file_links=True) if path.is_dir() else {path.name: path.read_bytes()}
    found = [note for note in (_file_annotation(name, text) for name, text in files.items()) if note is not None]
    if len(found) > 1:
        raise RefusedAtImport(f"more than one file has an @EXPECTED_RESULTS@ or @EXPECTED_SCORE@ line "
                               f"({', '.join(note.file for note in found)}); keep one")
    return found[0] if found else None


def _file_annotation(name: str, text: bytes) -> Annotation | None:
    values = {}
    for kind, marker in MARKERS.items():
        matches = list(marker.finditer(text))
        if len(matches) > 1:
            raise RefusedAtImport(f"{name} has more than one @EXPECTED_{kind.upper()}@ line; keep one")
        if matches:
            values[kind] = text[matches[0].end():].split(b"\n", 1)[0].decode("utf-8", errors="replace").strip()
    if not values:
        return None
    score = None
    results = values.get("results")
    if "score" in values:
        try:
            score = float(values["score"])
        except ValueError:  # DOMjudge reads a score line naming results as a results line
            if results is not None:
                raise RefusedAtImport(f"{name} names results both after @EXPECTED_RESULTS@ and "
                                       f"after @EXPECTED_SCORE@; keep one") from None
            results = values["score"]
    names = tuple(name.strip().upper() for name in results.split(",") if name.strip()) if results is not None else None
    return Annotation(Path(name).name, names, score)


def _verdicts_of(names: tuple[str, ...], where: str) -> set[str]:
    verdicts: set[str] = set()
    for name in names:
        key = name.replace("_", "-")
        if key == MANUAL_RESULT:
            raise CheckedByHand(f"its @EXPECTED_RESULTS@ ({where}) asks for a check by hand")
        if key not in DOMJUDGE_RESULT_VERDICTS:
            known = ", ".join(sorted(DOMJUDGE_RESULT_VERDICTS))
            raise ExpectationError(f"@EXPECTED_RESULTS@ in {where}: unknown result {name!r}; use {known}")
        verdicts |= DOMJUDGE_RESULT_VERDICTS[key]
    if not verdicts:
        raise ExpectationError(f"@EXPECTED_RESULTS@ in {where} lists no result")
    return verdicts


def submissions(package: Package) -> list[tuple[Path, str]]:
    """(program, folder) for every example submission (a file or a directory) in a folder of
    ``submissions/``, those whose folder names a verdict first (in the order the package format
    lists them), then the others (DOMjudge's ``mixed/``, whose sources say what they expect)."""
    root = package.root / "submissions"
    if not root.is_dir():
        return []
    folders = [path.name for path in root.iterdir() if path.is_dir() and not _left_out(path.name)]
    known = [*PACKAGE_FOLDER_VERDICTS, SCORED_FOLDER]
    folders.sort(key=lambda name: (known.index(name), "") if name in known else (len(known), name))
    return [(path, folder) for folder in folders
            for path in sorted((root / folder).iterdir()) if not _left_out(path.name)]


def example_submission(package: Package, source: Path) -> bool:
    """Whether ``source`` is one of the package's example submissions (after any link), whose links
    to the package's files are the package's own, followed (load_package checked where they lead);
    any other program, a contestant's, is read without following one."""
    source = source.resolve()
    return source.is_relative_to(package.root) and any(path.resolve() == source for path, _ in submissions(package))


# What a package's author switched off by its name: BAPCtools leaves these out of every listing.
SWITCHED_OFF_SUFFIXES = (".disabled", ".template")


def _left_out(name: str) -> bool:
    """Hidden files, Python's bytecode cache (left by running a submission in place), and files
    switched off by their name (``hello.kt.disabled``) are no submissions."""
    return name.startswith(".") or name == "__pycache__" or name.endswith(SWITCHED_OFF_SUFFIXES)
