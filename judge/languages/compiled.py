"""C and C++: compiled once with gcc/g++ (cached by source and command), run natively."""

from __future__ import annotations

from pathlib import Path

from judge.languages.base import Language, Program, cache_key, cached_build, read_source


class CompiledLanguage(Language):
    compiler = ""
    source_name = ""
    flags: tuple[str, ...] = ()
    memory_markers = (b"std::bad_alloc",)

    @property
    def toolchain(self) -> tuple[str, ...]:  # type: ignore[override]
        return (self.compiler,)

    def compile_command(self) -> list[str]:
        return [self.compiler, *self.flags, "-o", "{work}/program", "{work}/" + self.source_name, "-lm"]

    def prepare(self, source: Path, style: str) -> Program:
        self.version()
        command = self.compile_command()
        code = read_source(source)
        key = cache_key(self.name, self.version(), " ".join(command), code)
        directory = cached_build(key, {self.source_name: code}, command)
        return Program(self.name, directory, ("{prog}/program",))


class C(CompiledLanguage):
    name = "c"
    extensions = (".c",)
    compiler = "gcc"
    source_name = "main.c"
    flags = ("-O2", "-std=c17", "-pipe")
    apt_packages = ("gcc",)
    self_test_file = "sum.c"
    self_test_source = '#include <stdio.h>\nint main(void) { long a, b; scanf("%ld %ld", &a, &b); printf("%ld\\n", a + b); }\n'


class Cpp(CompiledLanguage):
    name = "cpp"
    extensions = (".cpp", ".cc", ".cxx")
    compiler = "g++"
    source_name = "main.cpp"
    flags = ("-O2", "-std=c++17", "-pipe")
    apt_packages = ("g++",)
    self_test_file = "sum.cpp"
    self_test_source = "#include <iostream>\nint main() { long a, b; std::cin >> a >> b; std::cout << a + b << '\\n'; }\n"
