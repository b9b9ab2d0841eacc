"""Programs of a package — submissions and validators — given as one file or as a directory.

A directory holds either ``build``/``run`` scripts (``build`` runs once in a copy of the directory,
then ``run`` is the program), or the sources of one language: every C/C++ source is compiled
together; Java's main class is ``Main`` or else the class declaring ``main``; Python's entry file is
``__main__.py``, else ``main.py``, else the only ``.py`` file; JavaScript's is the file
``package.json``'s ``main`` names, else ``main.js``, else ``main.mjs``, else the first
``.js``/``.mjs``/``.cjs`` file in name order (DOMjudge runs the first file it is given), and every
``.js`` file must pass ``node --check`` (as DOMjudge checks them), so a module the entry imports
under a name node does not resolve is a run-time error, as there. An entry point the package
names for an example submission comes first. A directory's files are read by ``judge.languages.folder``: no symbolic links, within caps.
"""

from __future__ import annotations

import json
import posixpath
import shlex
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
    language_for,
)
from judge.languages.base import cache_key, cached_build, exec_server_files, read_source
from judge.languages.folder import read_folder
from judge.languages.java import COMMENTS, PACKAGE_LINE, find_classes
from judge.languages.javascript import NODE_COMMAND
from judge.languages.program import NATIVE_PROGRAM
from judge.model.problem import MIB
from judge.model.vocabulary import TaskStyle
from judge.runner import built
from judge.sandbox import Outcome, run_sandboxed

HEADER_SUFFIXES = (".h", ".hpp", ".hh", ".hxx")
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
            language = _directory_language(list(read_folder(path, follow_file_links)))
        else:
            language = language_for(path)
    except UnknownLanguage:
        return f"no supported language has the extension {path.suffix or '(none)'}"
    except (CompileError, RefusedSubmission) as error:
        return str(error)
    if path.is_file() and language.name == "python" and _is_python2(path.read_bytes()):
        return f"{path.name} is Python 2 (its first line says so); only Python 3 runs here"
    try:
        language.version()
    except LanguageUnavailable as error:
        return f"no {language.title or language.name} toolchain here ({error})"
    return None


def _is_python2(code: bytes) -> bool:
    first = code.split(b"\n", 1)[0]
    return first.startswith(b"#!") and b"python2" in first


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
        if package_root is not None and language.name in ("c", "cpp"):
            files = with_standard_headers({path.name: substitute_file(code, constants)}, SOURCE_SUFFIXES)
            if len(files) > 1:  # built as a folder of the file and the headers
                return language, _compiled(language, _with_exec_server(language, files), path, entry)
        if substitute_file(code, constants) == code:
            return language, language.prepare(path, TaskStyle.STDIO)
        with tempfile.TemporaryDirectory(prefix="judge-constants-") as scratch:  # built from a copy
            copy = Path(scratch) / path.name
            copy.write_bytes(substitute_file(code, constants))
            return language, language.prepare(copy, TaskStyle.STDIO)
    files = substitute_files(read_folder(path, follow_file_links), constants)
    if any(name in files for name in SCRIPT_NAMES):
        return None, _script_program(files)
    language = _directory_language(list(files))
    if package_root is not None and language.name in ("c", "cpp"):
        files = with_standard_headers(_without_outside_headers(files, path, package_root), SOURCE_SUFFIXES)
    builder = {"c": _compiled, "cpp": _compiled, "java": _java, "python": _python,
               "javascript": _javascript, "kotlin": _kotlin, "bash": _bash}[language.name]
    return language, builder(language, _with_exec_server(language, files), path, entry)


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
        own_entry = source.name if source.is_file() and not _gives_entry(included, language) else None
        return _runnable(folder, entry or own_entry)


def _gives_entry(included: dict[str, bytes], language: Language) -> bool:
    """Whether the package's included files hold the program's entry: for Python and JavaScript,
    a file of the entry names (or a package.json naming its main); for Java, C and C++, any
    source (the main class, or main())."""
    names = ENTRY_NAMES.get(language.name)
    if names is not None:
        return any(name in included for name in (*names, "package.json"))
    return any(Path(name).suffix in language.extensions for name in included)


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
        return _directory_language(list(read_folder(source, follow_file_links)))
    except CompileError as error:
        raise UnknownLanguage(str(error)) from None


def _directory_language(files: list[str]) -> Language:
    found = set()
    for name in files:
        if name.endswith(HEADER_SUFFIXES):
            continue
        try:
            found.add(language_for(Path(name)).name)
        except UnknownLanguage:
            continue
    if found == {"c", "cpp"}:
        found = {"cpp"}  # C sources compile as C++ next to C++ ones
    if len(found) != 1:
        what = f"sources of {', '.join(sorted(found))}" if found else "no source file of a supported language"
        raise CompileError(f"cannot tell the program's language: {what} "
                           f"(a directory program holds the sources of one language)")
    return LANGUAGES[found.pop()]


def _script_program(files: dict[str, bytes]) -> Program:
    """A directory with ``build``/``run``: build once in a copy of it, then ``run`` is the program."""
    steps = "chmod +x {work}/build {work}/run 2>/dev/null; "
    if "build" in files:
        steps += "cd {work} && ./build && "
    steps += "test -f {work}/run && chmod +x {work}/run"
    directory = cached_build(cache_key("package-script", *files, *files.values()), files,
                             ["/bin/sh", "-c", steps])
    return Program("script", directory, ("{prog}/run",))


SOURCE_SUFFIXES = tuple(dict.fromkeys(LANGUAGES["c"].extensions + LANGUAGES["cpp"].extensions))


def _compiled(language: Language, files: dict[str, bytes], path: Path, entry: str | None) -> Program:
    sources = [name for name in files if not name.endswith(HEADER_SUFFIXES)
               and Path(name).suffix.lower() in SOURCE_SUFFIXES]
    # The standard headers supplied are searched after the program's own folders: its copy wins.
    supplied = ["-idirafter", f"{{work}}/{HEADERS_FOLDER}"] if any(
        name.startswith(f"{HEADERS_FOLDER}/") for name in files) else []
    command = [language.compiler, *language.flags, *supplied, "-o", "{work}/program",  # type: ignore[attr-defined]
               *("{work}/" + name for name in sources), "-lm"]
    key = cache_key(language.name, language.version(), " ".join(command), *files, *files.values())
    try:
        return Program(language.name, cached_build(key, files, command), (NATIVE_PROGRAM,))
    except CompileError as error:
        hint = missing_header_hint(str(error))
        if hint:
            raise CompileError(f"{error}{hint}") from None
        raise


def _java(language: Language, files: dict[str, bytes], path: Path, entry: str | None) -> Program:
    sources = [name for name in files if name.endswith(".java")]
    main_class = None
    qualified = {}  # each class declaring main, by its simple name
    for name in sources:
        text = files[name].decode("utf-8", errors="replace")
        try:
            _public, owner = find_classes(text)
        except CompileError:
            continue
        qualified[owner] = _in_package(text, owner)
        if main_class is None or owner == "Main":
            main_class = qualified[owner]
    if entry:  # a class name, or the path of the file declaring it
        wanted = Path(entry).stem if entry.endswith(".java") else entry
        main_class = qualified.get(wanted, wanted)
    if main_class is None:
        raise CompileError("no class with `public static void main(String[] args)` in any .java file")
    command = language.compile_command(sources)  # type: ignore[attr-defined]
    key = cache_key(language.name, language.version(), " ".join(command), *files, *files.values())
    directory = cached_build(key, files, command)
    return Program(language.name, directory, language.run_command(main_class))  # type: ignore[attr-defined]


def _kotlin(language: Language, files: dict[str, bytes], path: Path, entry: str | None) -> Program:
    return language.prepare_files(files, entry)  # type: ignore[attr-defined]


def _in_package(text: str, owner: str) -> str:
    """A class's name as ``java`` runs it: qualified by the package its source declares."""
    declared = PACKAGE_LINE.search(COMMENTS.sub("", text))
    return f"{declared.group(1)}.{owner}" if declared else owner


def _entry(files: dict[str, bytes], suffixes: tuple[str, ...], preferred: tuple[str, ...], path: Path,
           chosen: str | None, first_otherwise: bool = False) -> str:
    """The entry file: ``chosen``, else the first of ``preferred`` there is, else the only source
    (with ``first_otherwise``: the first source in name order); CompileError when there is none."""
    if chosen:
        if chosen not in files:
            raise CompileError(f"{path.name}: its entry point {chosen} is not one of its files")
        return chosen
    for name in preferred:
        if name in files:
            return name
    candidates = [name for name in files if name.endswith(suffixes)]
    if len(candidates) == 1 or (candidates and first_otherwise):
        return sorted(candidates)[0]
    raise CompileError(f"{path.name}: cannot tell the entry file among {', '.join(candidates)}; "
                       f"name it {' or '.join(preferred)}")


# python -I keeps the script's directory off sys.path: the launcher puts it back, then runs the
# entry file as the main script (under its own name, for tracebacks).
PYTHON_LAUNCHER = """import sys
sys.path.insert(0, __file__.rsplit("/", 1)[0])
del sys
__file__ = __file__.rsplit("/", 1)[0] + "/{entry}"
exec(compile(open(__file__, "rb").read(), __file__, "exec"))
"""


# The entry file a folder of these languages names, in order (when not the only source).
ENTRY_NAMES = {"python": ("__main__.py", "main.py"), "javascript": ("main.js", "main.mjs"),
               "bash": ("main.sh", "main.bash")}


def _python(language: Language, files: dict[str, bytes], path: Path, chosen: str | None) -> Program:
    entry = _entry(files, language.extensions, ENTRY_NAMES["python"], path, chosen)
    if entry == "solution.py":
        raise CompileError(f"{path.name}: rename solution.py (the judge runs its launcher under that name)")
    launcher = PYTHON_LAUNCHER.format(entry=entry).encode()
    return language.prepare_sources(files, launcher, "solution.py", TaskStyle.STDIO)  # type: ignore[attr-defined]


def _bash(language: Language, files: dict[str, bytes], path: Path, chosen: str | None) -> Program:
    entry = _entry(files, language.extensions, ENTRY_NAMES["bash"], path, chosen)
    return language.prepare_files(files, entry)  # type: ignore[attr-defined]


def _javascript(language: Language, files: dict[str, bytes], path: Path, chosen: str | None) -> Program:
    entry = _entry(files, language.extensions, ENTRY_NAMES["javascript"], path, chosen or _package_main(files, path),
                   first_otherwise=True)
    # Every .js file's syntax, as DOMjudge's js compile script checks them, and the entry's.
    checked = sorted({entry, *(name for name in files if name.endswith(".js"))})
    check = ["/bin/sh", "-c", " && ".join(f"node --check {shlex.quote('{work}/' + name)}" for name in checked)]
    key = cache_key(language.name, language.version(), entry, *files, *files.values())
    return Program(language.name, cached_build(key, files, check), (*NODE_COMMAND, "{prog}/" + entry))


# How node resolves a package's main when it names no file as it is: these endings, then the
# folder's index file.
NODE_MAIN_ENDINGS = ("", ".js", ".mjs", ".cjs", "/index.js", "/index.mjs", "/index.cjs")


def _package_main(files: dict[str, bytes], path: Path) -> str | None:
    """The entry file a JavaScript folder's ``package.json`` names as its ``main``, or None
    without one. CompileError for a package.json that cannot be read or names no file here."""
    if "package.json" not in files:
        return None
    try:
        main = json.loads(files["package.json"]).get("main")
    except (ValueError, AttributeError) as error:
        raise CompileError(f"{path.name}/package.json is not a JSON object ({error})") from None
    if main is None:
        return None
    wanted = posixpath.normpath(str(main)).removeprefix("./")
    found = next((wanted + ending for ending in NODE_MAIN_ENDINGS if wanted + ending in files), None)
    if found is None:
        raise CompileError(f"{path.name}/package.json: its main {main!r} is not one of the folder's files")
    return found
