"""C and C++: compiled once with gcc/g++ (cached by source and command), run natively.

Function-style problems are compiled together with a harness generated from the problem's
signature (``judge/languages/functions/c.py`` and ``cpp.py``), in the same single compile step.

A folder program compiles every source in it together (headers aside); C sources beside C++ ones
compile as C++.
"""

from __future__ import annotations

import re
from pathlib import Path

from judge.languages.base import Language, Program, cache_key, cached_build, exec_server_files, read_source
from judge.languages.functions.c import CFunction
from judge.languages.functions.cpp import CppFunction
from judge.languages.program import NATIVE_PROGRAM
from judge.model.signature import Signature
from judge.model.vocabulary import TaskStyle

# Defined as Codeforces and Baekjoon define it: contest templates read `input.txt` and write
# `output.txt` unless it is set (`#ifndef ONLINE_JUDGE freopen(...)`), and would print nothing here.
ONLINE_JUDGE = "-DONLINE_JUDGE"


class CompiledLanguage(Language):
    compiler = ""
    source_name = ""
    flags: tuple[str, ...] = ()
    styles = (TaskStyle.STDIO, TaskStyle.FUNCTION)
    memory_markers = (b"std::bad_alloc",)
    function_style: CFunction | CppFunction
    exec_server = True
    # The compiler's own programs and libraries, the headers, the linker's plugins.
    build_paths = ("/usr/lib/gcc", "/usr/libexec/gcc", "/usr/include", "/usr/lib/bfd-plugins")
    header_extensions = (".h", ".hpp", ".hh", ".hxx")

    @property
    def toolchain(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.compiler,)

    def compile_command(self) -> list[str]:
        return [self.compiler, *self.flags, "-o", "{work}/program", "{work}/" + self.source_name, "-lm"]

    def prepare(self, source: Path, style: str, signature: Signature | None = None) -> Program:
        self.version()
        code = read_source(source)
        if style == TaskStyle.FUNCTION:
            directory = build_function_call(self, self.function_style, code, signature, source.name)
            return Program(self.name, directory, (NATIVE_PROGRAM,))
        command = self.compile_command()
        files = {self.source_name: code, **exec_server_files()}
        key = cache_key(self.name, self.version(), " ".join(command), *_named(files))
        directory = cached_build(key, files, command, clean_message=renamed(self.source_name, source.name))
        return Program(self.name, directory, (NATIVE_PROGRAM,))

    def prepare_folder(self, files: dict[str, bytes], path: Path, entry: str | None,
                       header_folders: tuple[str, ...] = ()) -> Program:
        """Every C and C++ source of the folder compiled together (the compiler tells them by
        their extension); ``main()`` is the entry, wherever it is."""
        sources = [name for name in files if Path(name).suffix.lower() in folder_sources()]
        # The folders supplied are searched after the program's own: a header it holds itself wins.
        after = [part for folder in header_folders for part in ("-idirafter", "{work}/" + folder)]
        command = [self.compiler, *self.flags, *after, "-o", "{work}/program",
                   *("{work}/" + name for name in sources), "-lm"]
        key = cache_key(self.name, self.version(), " ".join(command), *files, *files.values())
        return Program(self.name, cached_build(key, files, command), (NATIVE_PROGRAM,))


def build_function_call(language: CompiledLanguage, style: CFunction | CppFunction, code: bytes,
                        signature: Signature | None, file_name: str | None = None) -> Path:
    """The student's file (unchanged) and the harness for ``signature``, compiled in one step;
    the compiler's message names the file ``file_name``, as the student called it."""
    if signature is None:
        raise ValueError(f"{language.name} needs the problem's typed signature to call a function")
    files = {style.source_name: code, **style.harness_files(signature), **exec_server_files()}
    command = [language.compiler, *language.flags, *style.compile_arguments("{work}")]
    key = cache_key(language.name, language.version(), " ".join(command), *_named(files))
    as_named = renamed(style.source_name, file_name or style.source_name)
    return cached_build(key, files, command,
                        clean_message=lambda text: as_named(style.compile_message(text, signature)))


def renamed(copy_name: str, file_name: str):
    """A compiler's message with the student's file called by its own name, not by the name of
    the copy the judge compiles (`main.c:3:5: error` reads `sum.c:3:5: error`)."""
    where = re.compile(rf"(?<![\w./-]){re.escape(copy_name)}(?=:)")
    return lambda text: where.sub(lambda _match: file_name, text)


def folder_sources() -> tuple[str, ...]:
    """The extensions of the files a folder program of C or C++ compiles."""
    return tuple(dict.fromkeys((*C.extensions, *Cpp.extensions)))


def _named(files: dict[str, bytes]) -> list[bytes | str]:
    """Each file's name and content, for a cache key that tells renamed files apart."""
    return [part for name, content in sorted(files.items()) for part in (name, content)]


class C(CompiledLanguage):
    name = "c"
    title = "C"
    extensions = (".c",)
    compiler = "gcc"
    source_name = "main.c"
    flags = ("-O2", "-std=c17", "-pipe", ONLINE_JUDGE)
    build_seconds = 0.1
    apt_packages = ("gcc",)
    self_test_file = "sum.c"
    self_test_source = '#include <stdio.h>\nint main(void) { long a, b; scanf("%ld %ld", &a, &b); printf("%ld\\n", a + b); }\n'
    function_style = CFunction()


class Cpp(CompiledLanguage):
    name = "cpp"
    title = "C++"
    extensions = (".cpp", ".cc", ".cxx", ".c++", ".C")  # .C, in capitals, is C++ to gcc
    also_builds = ("c",)  # a folder's C sources beside C++ ones compile as C++
    compiler = "g++"
    source_name = "main.cpp"
    # C++20 with GNU extensions, as DOMjudge builds it (BAPCtools takes gnu++23): contest
    # submissions use ranges and views.
    flags = ("-O2", "-std=gnu++20", "-pipe", ONLINE_JUDGE)
    build_seconds = 0.4
    apt_packages = ("g++",)
    self_test_file = "sum.cpp"
    self_test_source = "#include <iostream>\nint main() { long a, b; std::cin >> a >> b; std::cout << a + b << '\\n'; }\n"
    function_style = CppFunction()
