"""Programs of a package — submissions and validators — given as one file or as a directory.

A directory holds either ``build``/``run`` scripts (``build`` runs once in a copy of the directory,
then ``run`` is the program), or the sources of one language, which its language builds by its own
rules for a folder (``Language.prepare_folder``: which file or class is the entry, what is compiled
together). What only the package knows goes with them: an entry point the package names for an
example submission comes first, its ``include/`` files go with every submission, and its C and C++
programs get the standard validator headers they include and lack. A directory's files are read by
``judge.languages.folder``: no symbolic links, within caps.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from judge.errors import RefusedSubmission, UnsupportedSubmission
from judge.formats.icpc.checktestdata import checktestdata_program, is_checktestdata
from judge.formats.icpc.constants import NO_CONSTANTS, Constants, substitute_file, substitute_files
from judge.formats.icpc.expectations import example_submission
from judge.formats.icpc.package import PackageError
from judge.formats.icpc.standard_headers import (
    HEADERS_FOLDER,
    STANDARD_HEADERS,
    missing_header_hint,
    with_standard_headers,
)
from judge.formats.icpc.submission_rules import entry_point
from judge.languages import (
    LANGUAGES,
    CompileError,
    Language,
    LanguageUnavailable,
    Program,
    UnknownLanguage,
    folder_language,
    language_for,
)
from judge.languages.base import cache_key, cached_build, exec_server_files, read_source
from judge.languages.folder import read_folder
from judge.model.problem import MIB
from judge.model.vocabulary import TaskStyle
from judge.runner import built
from judge.sandbox import Outcome, run_sandboxed

SCRIPT_NAMES = ("build", "run")
# Validators in a format this judge has no interpreter for (problemtools and BAPCtools run them
# with the VIVA jar they ship).
NOT_RUN_VALIDATORS = {".viva": "VIVA"}


def unsupported_reason(path: Path, follow_file_links: bool = False) -> str | None:
    """Why this judge cannot run the program at ``path`` (its language, no toolchain for it here,
    or a folder it will not read), or None if it can. ``follow_file_links``: a package's own
    program (see read_folder), which may also be a checktestdata file."""
    if path.suffix in NOT_RUN_VALIDATORS and path.is_file():
        return f"this judge does not run {NOT_RUN_VALIDATORS[path.suffix]} validators ({path.suffix})"
    if follow_file_links and is_checktestdata(path):
        return None
    try:
        if path.is_dir():
            language = folder_language(list(read_folder(path, follow_file_links)))
        else:
            language = language_for(path)
    except UnknownLanguage:
        return f"no supported language has the extension {path.suffix or '(none)'}"
    except (CompileError, RefusedSubmission) as error:
        return str(error)
    refused = language.cannot_run(path) if path.is_file() else None
    if refused:
        return refused
    try:
        language.version()
    except LanguageUnavailable as error:
        return f"no {language.title or language.name} toolchain here ({error})"
    return None


def prepare_program(path: Path, entry: str | None = None, follow_file_links: bool = False,
                    constants: Constants = NO_CONSTANTS,
                    package_root: Path | None = None) -> tuple[Language | None, Program]:
    """Build the program at ``path`` (cached). CompileError / UnknownLanguage / LanguageUnavailable
    / RefusedSubmission pass through. The language is None for a build/run-script directory.
    ``entry`` names a directory program's entry file (Java: its main class, or the file declaring
    it) when the package says which (submissions.yaml's ``entrypoint``, DOMjudge's
    ``entry_point``). ``follow_file_links``: the package's own program, whose links to its files
    are followed (see read_folder); never a submission's. ``constants``: the package's, for its
    own programs (see judge/formats/icpc/constants.py). ``package_root``: the package of one of its own
    programs, whose C and C++ programs get the standard headers they include and lack (see
    judge/formats/icpc/standard_headers.py)."""
    if follow_file_links and is_checktestdata(path):
        return None, checktestdata_program(path, substitute_file(path.read_bytes(), constants))
    if path.is_file():
        language = language_for(path)
        # A package's own program may be a link to another file of the package (load_package checked).
        code = (path.read_bytes() if follow_file_links else read_source(path)) if constants or package_root else b""
        if package_root is not None and language.header_extensions:
            files = with_standard_headers({path.name: substitute_file(code, constants)}, _sources(language))
            if len(files) > 1:  # built as a folder of the file and the headers
                return language, _built_folder(language, files, path, entry)
        if substitute_file(code, constants) == code:
            return language, language.prepare(path, TaskStyle.STDIO)
        with tempfile.TemporaryDirectory(prefix="judge-constants-") as scratch:  # built from a copy
            copy = Path(scratch) / path.name
            copy.write_bytes(substitute_file(code, constants))
            return language, language.prepare(copy, TaskStyle.STDIO)
    files = substitute_files(read_folder(path, follow_file_links), constants)
    if any(name in files for name in SCRIPT_NAMES):
        return None, _script_program(files)
    language = folder_language(list(files))
    if package_root is not None and language.header_extensions:
        files = with_standard_headers(_without_outside_headers(files, path, package_root), _sources(language))
    return language, _built_folder(language, files, path, entry)


def _built_folder(language: Language, files: dict[str, bytes], path: Path, entry: str | None) -> Program:
    """A folder program built by its language, with the standard headers the package supplied
    searched after its own folders (a copy of its own wins), and what to do about one missing."""
    supplied = (HEADERS_FOLDER,) if any(name.startswith(f"{HEADERS_FOLDER}/") for name in files) else ()
    try:
        return language.prepare_folder(_with_exec_server(language, files), path, entry, header_folders=supplied)
    except CompileError as error:
        hint = missing_header_hint(str(error))
        if hint:
            raise CompileError(f"{error}{hint}") from None
        raise


def _sources(language: Language) -> tuple[str, ...]:
    """The extensions of a folder's sources in ``language``, those it builds beside its own
    (C's beside C++'s) included: the files whose includes the package's headers answer."""
    return tuple(dict.fromkeys(suffix for name in (language.name, *language.also_builds)
                               for suffix in LANGUAGES[name].extensions))


def _with_exec_server(language: Language, files: dict[str, bytes]) -> dict[str, bytes]:
    """A folder's files with the exec server its language runs cases through, warm, as a single
    file's build has it (judge/languages/warm.py). The server's files are Python: a folder of another
    language has none of its own (a .py file would make it a folder of two languages)."""
    return {**files, **exec_server_files()} if language.exec_server else files


def package_program(package, path: Path) -> Program:
    """One of the package's own programs (a validator, a generator), built: its links to the
    package's files followed and its constants substituted. CompileError / UnknownLanguage /
    LanguageUnavailable pass through."""
    return prepare_program(path, follow_file_links=True, constants=package.constants, package_root=package.root)[1]


def built_validator(package, path: Path, kind: str) -> Program | str:
    """The validator at ``path`` (``kind``: "input validator", "answer validator") built, or why
    it is not checked: its language is one this judge does not run (validation decides no
    verdict, so the rest of the package is still checked). PackageError when it does not build."""
    reason = unsupported_reason(path, follow_file_links=True)
    if reason:
        return reason
    try:
        return package_program(package, path)
    except (CompileError, UnknownLanguage, LanguageUnavailable) as error:
        raise PackageError(f"{path}: the {kind} does not build: {error}") from None


def _without_outside_headers(files: dict[str, bytes], folder: Path, root: Path) -> dict[str, bytes]:
    """A package program's files but the standard headers that are links leading out of the
    package (to the copy of the tool that made it): the judge's tool copy stands in for them."""
    def outside(name: str) -> bool:
        path = folder / name
        return path.is_symlink() and not path.resolve().is_relative_to(root.resolve())
    return {name: code for name, code in files.items() if not (Path(name).name in STANDARD_HEADERS and outside(name))}


def run_package_program(package, program: Program, stdin: bytes, arguments: tuple[str, ...] | list[str]) -> Outcome:
    """One run of one of the package's own programs (an input validator, a grader) with its
    validation limits, ``stdin`` as its input and ``arguments`` after its command."""
    limits = package.validator_limits()
    command = [part.replace("{memory_mb}", str(limits.memory // MIB)) for part in program.command] + list(arguments)
    return run_sandboxed(command, stdin=stdin, limits=limits, program_dir=program.directory)


def prepare_submission(problem, source: Path):
    """A submission to ``problem``, one file or a directory of files, built: a Prepared, or a
    PrepareFailure (CE, IE). The package's own example submissions' links to its files are
    followed; a contestant's folder holds no link."""
    package = problem.package
    entry = entry_point(package, source)  # an example submission's, as the package names it
    own = example_submission(package, source)
    language = submission_language(source, follow_file_links=own)
    unusable = problem.task.unusable_by(problem, language)
    if unusable:  # as for a suite's problem (runner.prepare)
        raise UnsupportedSubmission(unusable)
    # A submission, the package's own too, is judged as written: BAPCtools substitutes no
    # constant in submissions (its test package `constants` has one that must fail if it did).
    included = included_files(package.root, language, package.constants)
    if included:
        return built(problem, language, lambda: _runnable_with(source, entry, included, language, own))
    return built(problem, language, lambda: _runnable(source, entry, own))


def build_solution(root: Path, source: Path, constants: Constants = NO_CONSTANTS) -> Program:
    """A jury solution of the package at ``root`` (generators.yaml's), built as a submission is:
    with the package's included code (its ``constants`` substituted). CompileError /
    UnknownLanguage / ... pass through."""
    language = submission_language(source, follow_file_links=True)
    included = included_files(root, language, constants)
    if included:
        return _runnable_with(source, None, included, language, follow_file_links=True)[1]
    return _runnable(source, None, follow_file_links=True)[1]


def included_files(root: Path, language: Language, constants: Constants = NO_CONSTANTS) -> dict[str, bytes]:
    """The package's ``include/<language>/`` files (else ``include/default/``), which go with
    every submission in ``language`` (2025-09, "Included code"), its constants substituted; {}
    when it has none."""
    for code in (*(language.package_codes or (language.name,)), "default"):
        folder = root / "include" / code
        if folder.is_dir():
            files = read_folder(folder, follow_file_links=True)
            if files:
                return substitute_files(files, constants)
    return {}


def _runnable_with(source: Path, entry: str | None, included: dict[str, bytes],
                   language: Language, follow_file_links: bool = False) -> tuple[Language, Program]:
    """The submission built with the package's included files beside its own (an included file
    of the same name wins: it is the problem's, as the format says)."""
    own = read_folder(source, follow_file_links) if source.is_dir() else {source.name: read_source(source)}
    with tempfile.TemporaryDirectory(prefix="judge-include-") as scratch:
        folder = Path(scratch) / "submission"
        for name, content in {**own, **included}.items():
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(content)
        # A one-file submission's own file is its entry, unless the package names one or gives
        # its main program (a file the folder's rules take as the entry): then those rules choose.
        own_entry = source.name if source.is_file() and not language.holds_entry(included) else None
        return _runnable(folder, entry or own_entry)


def _runnable(source: Path, entry: str | None, follow_file_links: bool = False) -> tuple[Language, Program]:
    language, program = prepare_program(source, entry, follow_file_links)
    if language is None:
        raise UnsupportedSubmission(f"{source}: a submission with build/run scripts is not supported")
    return language, program


def submission_language(source: Path, follow_file_links: bool = False) -> Language:
    """The language of a submission file, or of a directory submission's sources; UnknownLanguage
    when there is none (or several). ``follow_file_links``: an example submission of the package
    (see read_folder)."""
    if source.is_file():
        return language_for(source)
    try:
        return folder_language(list(read_folder(source, follow_file_links)))
    except CompileError as error:
        raise UnknownLanguage(str(error)) from None


def _script_program(files: dict[str, bytes]) -> Program:
    """A directory with ``build``/``run``: build once in a copy of it, then ``run`` is the program."""
    steps = "chmod +x {work}/build {work}/run 2>/dev/null; "
    if "build" in files:
        steps += "cd {work} && ./build && "
    steps += "test -f {work}/run && chmod +x {work}/run"
    directory = cached_build(cache_key("package-script", *files, *files.values()), files,
                             ["/bin/sh", "-c", steps])
    return Program("script", directory, ("{prog}/run",))
