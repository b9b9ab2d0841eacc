"""Python 3 submissions: checked for syntax in the judge, run with an isolated interpreter.

A folder program's entry is ``__main__.py``, else ``main.py``, else the only ``.py`` file; it runs
through a launcher, with the folder's other modules beside it to import.
"""

from __future__ import annotations

import functools
import io
import os
import re
import tokenize
from pathlib import Path

from judge.errors import CompileError, LanguageUnavailable
from judge.harness import FUNCTION_HARNESS_FILE, SERVER_BYTECODE, SERVER_FILE, START_BYTECODE, START_FILE
from judge.languages.base import (
    HARNESS_DIR,
    Language,
    Program,
    cache_key,
    cached_build,
    read_source,
    server_support_files,
)
from judge.languages.folder import entry_file
from judge.languages.functions.python import PythonFunction
from judge.languages.program import python_interpreter
from judge.languages.warm import WarmPool
from judge.model.signature import Signature
from judge.model.vocabulary import TaskStyle
from judge.sandbox import Limits

# python -I keeps the script's directory off sys.path: the launcher puts it back, then runs the
# entry file as the main script (under its own name, for tracebacks).
FOLDER_LAUNCHER = """import sys
sys.path.insert(0, __file__.rsplit("/", 1)[0])
del sys
__file__ = __file__.rsplit("/", 1)[0] + "/{entry}"
exec(compile(open(__file__, "rb").read(), __file__, "exec"))
"""
# The entry runs as solution.py: a folder's, through the launcher of that name.
ENTRY_NAME = "solution.py"
TRACEBACK_FRAME = re.compile(r'^\s*File "([^"]+)", line (\d+)', re.MULTILINE)


@functools.cache
def interpreter_paths(interpreter: str) -> tuple[str, ...]:
    """What ``interpreter`` loads, from its installation's layout (PREFIX/bin/python3.X,
    PREFIX/lib/python3.X with os.py in it, PREFIX/lib/libpython3*.so*): no need to start it."""
    binary = Path(os.path.realpath(interpreter))
    lib = binary.parent.parent / "lib"
    standard = [path for path in sorted(lib.glob("python3*")) if (path / "os.py").is_file()]
    shared = sorted(lib.glob("libpython3*.so*"))
    return tuple(str(path) for path in (binary, *standard, *shared))


class Python(Language):
    name = "python"
    title = "Python"
    package_codes = ("python3", "python")
    extensions = (".py", ".py3")  # .py3: what DOMjudge and BAPCtools call Python 3
    styles = (TaskStyle.STDIO, TaskStyle.FUNCTION)
    function_style = PythonFunction()  # today's harness calls solution(*args), typed or not
    memory_markers = (b"MemoryError",)
    apt_packages = ("python3",)
    folder_entries = ("__main__.py", "main.py")
    self_test_file = "sum.py"
    self_test_source = "a, b = map(int, input().split())\nprint(a + b)\n"

    @property
    def toolchain(self) -> tuple[str, ...]:  # type: ignore[override]
        return (python_interpreter(),)

    @property
    def runtime_paths(self) -> tuple[str, ...]:  # type: ignore[override]
        """The interpreter and its standard library (the package directories below it are
        covered again by the sandbox), with its shared library where it has one."""
        return interpreter_paths(python_interpreter())

    def warm_pool(self, program: Program, style: str, limits: Limits):
        return WarmPool(program, style, limits)

    def prepare_folder(self, files: dict[str, bytes], path: Path, entry: str | None,
                       header_folders: tuple[str, ...] = ()) -> Program:
        chosen = entry_file(files, self.extensions, self.folder_entries, path, entry)
        if chosen == ENTRY_NAME:
            raise CompileError(f"{path.name}: rename {ENTRY_NAME} (the judge runs its launcher under that name)")
        launcher = FOLDER_LAUNCHER.format(entry=chosen).encode()
        return self.prepare_sources(files, launcher, ENTRY_NAME, TaskStyle.STDIO)

    def cannot_run(self, path: Path) -> str | None:
        first = path.read_bytes().split(b"\n", 1)[0]
        if first.startswith(b"#!") and b"python2" in first:
            return f"{path.name} is Python 2 (its first line says so); only Python 3 runs here"
        return None

    def failing_line(self, stderr: str) -> str | None:
        """The innermost frame of the traceback in the program's own files: its entry runs as
        ``solution.py`` (a folder's entry under its own name, by a launcher of that name), beside
        the modules it imports and the judge's start and server files, which are never the place."""
        frames = TRACEBACK_FRAME.findall(stderr)
        entries = [path for path, _ in frames if path.endswith("/" + ENTRY_NAME)]
        if not entries:
            return None
        program_dir = entries[0][:-len(ENTRY_NAME)]
        own = [(path[len(program_dir):], line) for path, line in frames
               if path.startswith(program_dir) and path[len(program_dir):] not in _judge_files()]
        if not own:
            return None
        name, line = own[-1]
        return f"line {line}" if name == ENTRY_NAME else f"{name}, line {line}"

    def prepare(self, source: Path, style: str, signature: Signature | None = None) -> Program:
        code = read_source(source)
        if style == TaskStyle.FUNCTION and signature is not None:
            _check_syntax(code, source.name)
            kind = self.function_style.interface_problem(code, signature)
            if kind:
                raise CompileError(self.function_style.compile_message("", signature, kind))
        return self.prepare_sources({}, code, source.name, style)

    def prepare_sources(self, modules: dict[str, bytes], code: bytes, entry_name: str, style: str) -> Program:
        """A program of several files: ``code`` (from ``entry_name``) runs as the main script,
        ``modules`` (relative name: content) lie next to it for it to import."""
        for name, text in [*modules.items(), (entry_name, code)]:
            if name.lower().endswith(self.extensions):
                _check_syntax(text, name)
        interpreter = python_interpreter()
        if not os.path.exists(interpreter):
            raise LanguageUnavailable(f"python: interpreter {interpreter} not found; set JUDGE_PYTHON")
        # The warm-start server travels with every Python program (see judge/languages/warm.py): its files
        # must not replace the program's own modules, nor the entry a module named solution.py.
        server_files = _server_files(interpreter)
        taken = sorted(set(modules) & {*server_files, FUNCTION_HARNESS_FILE})
        if taken:
            raise CompileError(f"{', '.join(taken)}: the judge's own files have these names; rename yours "
                               f"(and the imports of them)")
        entry = "solution.py" if "solution.py" not in modules else "__solution_main__.py"
        files = {**modules, entry: code, **server_files}
        # -I: no user site or environment; -S: skip site-packages (a slow start, and not stdlib);
        # -B: nothing written next to the (read-only) program. start.py runs the script as the
        # interpreter would, with the exit() and quit() that -S leaves out.
        start = START_BYTECODE if START_BYTECODE in files else START_FILE
        command = [interpreter, "-I", "-S", "-B", "{prog}/" + start]
        if style == TaskStyle.FUNCTION:
            files[FUNCTION_HARNESS_FILE] = (HARNESS_DIR / "function_call.py").read_bytes()
            command += ["{prog}/" + FUNCTION_HARNESS_FILE, "{prog}/" + entry]
        else:
            command += ["{prog}/" + entry]
        directory = cached_build(cache_key(self.name, style, *modules, *files.values()), files, None)
        return Program(self.name, directory, tuple(command))


@functools.cache
def _judge_files() -> frozenset[str]:
    """The judge's own files beside a Python program's."""
    return frozenset({START_FILE, SERVER_FILE, FUNCTION_HARNESS_FILE, *server_support_files()})


@functools.cache
def _server_files(interpreter: str) -> dict[str, bytes]:
    """The files that start a Python program (start.py) and its warm server (server.py and the
    modules it loads), with their bytecode, compiled once by ``interpreter`` itself (and cached), when that works.
    Started from bytecode, neither compiles its source: that would cost every cold run about a
    millisecond, and leave a megabyte of memory behind in the server, which every forked case
    would copy."""
    sources = {SERVER_FILE: (HARNESS_DIR / "python_server.py").read_bytes(),
               START_FILE: (HARNESS_DIR / "python_start.py").read_bytes(), **server_support_files()}
    files = dict(sources)
    # The server loads its siblings from name.py + "c" when it is there (python_server.load_sibling).
    bytecode = {SERVER_FILE: SERVER_BYTECODE, START_FILE: START_BYTECODE,
                **{name: name + "c" for name in server_support_files()}}
    compile_all = "; ".join(f"py_compile.compile({name!r}, cfile={compiled!r}, doraise=True)"
                            for name, compiled in bytecode.items())
    command = [interpreter, "-I", "-S", "-c", "import py_compile; " + compile_all]
    try:
        key = cache_key("python-server", *_identity(interpreter), *sources.values())
        built = cached_build(key, sources, command)
        files.update({compiled: (built / compiled).read_bytes() for compiled in bytecode.values()})
    except (CompileError, LanguageUnavailable, OSError):
        pass  # both run from their source
    return files


def _identity(interpreter: str) -> tuple[str, str]:
    """What tells one interpreter (and so its bytecode format) from another, without running it."""
    real = os.path.realpath(interpreter)
    try:
        stat = os.stat(real)
    except OSError:
        return real, ""
    return real, f"{stat.st_size}:{stat.st_mtime_ns}"


def _check_syntax(code: bytes, filename: str) -> None:
    _check_encoding(code, filename)
    try:
        compile(code, filename, "exec", dont_inherit=True)
    except SyntaxError as error:
        where = f"line {error.lineno}" if error.lineno else "somewhere"
        raise CompileError(f"{filename}, {where}: SyntaxError: {error.msg}") from None
    except ValueError as error:  # null bytes
        raise CompileError(f"{filename}: {error}") from None


def _check_encoding(code: bytes, filename: str) -> None:
    """The interpreter refuses a script that is not in its declared encoding (UTF-8 unless a
    coding line says otherwise), even where compile() lets it pass (in a comment): a CE, not an
    RE on every case. A file saved as cp949 or Latin-1 by an editor is the usual cause."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(code).readline)
        code.decode(encoding)
    except (SyntaxError, UnicodeDecodeError, LookupError):
        raise CompileError(f"{filename} is not UTF-8 text and declares no encoding it is in; "
                           "save it as UTF-8") from None
