"""Python 3 submissions: checked for syntax in the judge, run with an isolated interpreter."""

from __future__ import annotations

import functools
import os
import shutil
import sys
from pathlib import Path

from judge.harness import SERVER_BYTECODE, SERVER_FILE
from judge.sandbox import Limits
from judge.errors import CompileError, LanguageUnavailable
from judge.languages.base import (
    HARNESS_DIR,
    Language,
    Program,
    cache_key,
    cached_build,
    read_source,
)


def python_interpreter() -> str:
    """$JUDGE_PYTHON, else the system python3 (fast start), else the judge's own interpreter."""
    chosen = os.environ.get("JUDGE_PYTHON") or ("/usr/bin/python3" if os.path.exists("/usr/bin/python3")
                                                 else sys.executable)
    return shutil.which(chosen) or chosen


class Python(Language):
    name = "python"
    extensions = (".py",)
    styles = ("stdio", "function")
    memory_markers = (b"MemoryError",)
    apt_packages = ("python3",)
    self_test_file = "sum.py"
    self_test_source = "a, b = map(int, input().split())\nprint(a + b)\n"

    @property
    def toolchain(self) -> tuple[str, ...]:  # type: ignore[override]
        return (python_interpreter(),)

    @property
    def runtime_paths(self) -> tuple[str, ...]:  # type: ignore[override]
        """An interpreter installed outside /usr ($JUDGE_PYTHON) must be visible in the sandbox."""
        prefix = Path(os.path.realpath(python_interpreter())).parent.parent
        return () if str(prefix).startswith("/usr") else (str(prefix),)

    def warm_pool(self, program: Program, style: str, limits: Limits):
        from judge.warm import WarmPool
        return WarmPool(program, style, limits)

    def prepare(self, source: Path, style: str) -> Program:
        code = read_source(source)
        _check_syntax(code, source.name)
        interpreter = python_interpreter()
        if not os.path.exists(interpreter):
            raise LanguageUnavailable(f"python: interpreter {interpreter} not found; set JUDGE_PYTHON")
        # The warm-start server travels with every Python program (see judge/warm.py).
        files = {"solution.py": code, **_server_files(interpreter)}
        # -I: no user site or environment; -S: skip site-packages (a slow start, and not stdlib);
        # -B: nothing written next to the (read-only) program.
        command = [interpreter, "-I", "-S", "-B"]
        if style == "function":
            files["harness.py"] = (HARNESS_DIR / "function_call.py").read_bytes()
            command += ["{prog}/harness.py", "{prog}/solution.py"]
        else:
            command += ["{prog}/solution.py"]
        directory = cached_build(cache_key(self.name, style, *files.values()), files, None)
        return Program(self.name, directory, tuple(command))


@functools.cache
def _server_files(interpreter: str) -> dict[str, bytes]:
    """The warm server's files; with its bytecode, compiled once by ``interpreter`` itself (and
    cached), when that works. Started from bytecode, the server does not compile its source:
    compiling leaves a megabyte of memory behind, which every forked case would copy."""
    source = (HARNESS_DIR / "python_server.py").read_bytes()
    files = {SERVER_FILE: source, "proc_usage.py": (HARNESS_DIR / "proc_usage.py").read_bytes()}
    command = [interpreter, "-I", "-S", "-c",
               f"import py_compile; py_compile.compile({SERVER_FILE!r}, cfile={SERVER_BYTECODE!r}, doraise=True)"]
    try:
        key = cache_key("python-server", *_identity(interpreter), source)
        built = cached_build(key, {SERVER_FILE: source}, command)
        files[SERVER_BYTECODE] = (built / SERVER_BYTECODE).read_bytes()
    except (CompileError, LanguageUnavailable, OSError):
        pass  # the server runs from its source
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
    try:
        compile(code, filename, "exec", dont_inherit=True)
    except SyntaxError as error:
        where = f"line {error.lineno}" if error.lineno else "somewhere"
        raise CompileError(f"{filename}, {where}: SyntaxError: {error.msg}") from None
    except ValueError as error:  # null bytes
        raise CompileError(f"{filename}: {error}") from None
