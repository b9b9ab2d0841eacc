"""Kotlin (``.kt``): compiled by ``kotlinc``'s compiler to JVM classes, run by the same JVM,
options and allowances as Java (see judge/languages/java.py), with Kotlin's standard library on
the class path; warm as Java is, through the exec server. The compiler is started as kotlinc's
launcher starts it, on the JVM directly, which lets it map a class archive of itself
(judge/languages/compiler_archive.py).

The class that runs is the one Kotlin makes of the file declaring the top-level ``fun main``:
the file's name, first letter in capitals, then ``Kt`` (``hello.kt``: ``HelloKt``), or what its
``@file:JvmName("...")`` says, in the package the file declares.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import zipfile
from pathlib import Path

from judge.errors import CompileError
from judge.languages.base import Program, cache_key, cached_build, exec_server_files, read_source
from judge.languages.compiler_archive import CompilerArchive, jdk_files
from judge.languages.java import JAVAC_JVM_OPTIONS, Java
from judge.model.signature import Signature
from judge.model.vocabulary import TaskStyle
from judge.sandbox.probe_cache import remembered

TOP_LEVEL_MAIN = re.compile(r"^(?:suspend\s+)?fun\s+main\s*\(", re.MULTILINE)
PACKAGE_LINE = re.compile(r"^\s*package\s+([\w.]+)", re.MULTILINE)
JVM_NAME = re.compile(r"^\s*@file\s*:\s*JvmName\s*\(\s*\"([^\"]+)\"\s*\)", re.MULTILINE)
NOT_IDENTIFIER = re.compile(r"[^\w$]")
COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
STDLIB = "kotlin-stdlib.jar"
COMPILER_JAR = "kotlin-compiler.jar"
COMPILER_CLASS = "org.jetbrains.kotlin.cli.jvm.K2JVMCompiler"
# The compiler's JVM: javac's options, and what kotlinc's launcher gives it besides: its default
# heap (JAVA_OPTS) and no verification of the compiler's classes (-noverify, here as the switch it
# stands for, which prints no deprecation warning on every run).
KOTLINC_JVM_OPTIONS = (*(option.removeprefix("-J") for option in JAVAC_JVM_OPTIONS), "-Xmx256M", "-Xms32M",
                       "-XX:+IgnoreUnrecognizedVMOptions", "-XX:+UnlockDiagnosticVMOptions",
                       "-XX:-BytecodeVerificationRemote")
# What kotlinc compiles to make its class archive (judge/languages/compiler_archive.py): the judge's
# own program, using what submissions commonly do.
ARCHIVING_SOURCE = """import java.io.*
import java.util.*

data class Edge(val to: Int, val weight: Long)

sealed class Shape { abstract fun area(): Double }
object Square : Shape() { override fun area() = 1.0 }

enum class Colour { RED, GREEN }

fun <T : Comparable<T>> largest(items: List<T>): T = items.sorted().last()

fun main() {
    val reader = BufferedReader(InputStreamReader(System.`in`))
    val n = reader.readLine()?.trim()?.toInt() ?: readLine()!!.split(" ").map { it.toInt() }.sum()
    val graph = HashMap<Int, MutableList<Edge>>()
    graph.getOrPut(0) { mutableListOf() }.add(Edge(1, 2L))
    val queue = PriorityQueue<LongArray>(compareBy { it[0] })
    queue.add(longArrayOf(0, 0))
    val sums = LongArray(n)
    when (Colour.values()[n % 2]) {
        Colour.RED -> sums[0] += Square.area().toLong()
        else -> sums[0]--
    }
    val joined = (0 until n).filter { it % 2 == 0 }.joinToString(" ") { "$it" }
    val out = StringBuilder()
    out.append(largest(listOf(3, 1, 2))).append(' ').append(joined).append(String.format("%.2f", 1.5))
    repeat(2) { out.append(it) }
    try {
        println("$out ${graph.size} ${sums.contentToString()} ${queue.poll()[0]}")
    } catch (error: RuntimeException) {
        throw IllegalStateException(error)
    }
}
"""


class Kotlin(Java):
    name = "kotlin"
    title = "Kotlin"
    extensions = (".kt",)
    package_codes = ("kotlin",)
    toolchain = ("kotlinc", "java")
    apt_packages = ("kotlin",)
    build_seconds = 3.0  # kotlinc: a larger compiler on the same JVM
    styles = (TaskStyle.STDIO,)
    function_style = None
    self_test_file = "sum.kt"
    self_test_source = "fun main() {\n    val (a, b) = readLine()!!.trim().split(\" \").map { it.toLong() }\n" \
                       "    println(a + b)\n}\n"

    @property
    def home(self) -> Path | None:
        """The Kotlin installation kotlinc belongs to (its ``bin`` and ``lib``), if there is one."""
        found = shutil.which("kotlinc")
        return Path(os.path.realpath(found)).parent.parent if found else None

    @property
    def runtime_paths(self) -> tuple[str, ...]:  # type: ignore[override]
        """The JDK (as Java's), and Kotlin's standard library."""
        stdlib = self.stdlib()
        return (*super().runtime_paths, *([stdlib] if stdlib else []))

    @property
    def build_paths(self) -> tuple[str, ...]:  # type: ignore[override]
        """The Kotlin installation and the folders its library links lead to (Debian keeps the jars
        in /usr/share/java)."""
        home = self.home
        if home is None:
            return ()
        targets = {str(Path(os.path.realpath(jar)).parent) for jar in (home / "lib").glob("*.jar")}
        return (str(home), *sorted(targets - {str(home / "lib")}))

    def stdlib(self) -> str | None:
        home = self.home
        jar = home / "lib" / STDLIB if home else None
        return os.path.realpath(jar) if jar and jar.exists() else None

    def prepare(self, source: Path, style: str, signature: Signature | None = None) -> Program:
        if style != TaskStyle.STDIO:
            raise CompileError("Kotlin programs are judged on standard input and output only")
        return self.prepare_files({source.name: read_source(source)}, None)

    def prepare_folder(self, files: dict[str, bytes], path: Path, entry: str | None,
                       header_folders: tuple[str, ...] = ()) -> Program:
        return self.prepare_files(files, entry)

    def naming_hint(self, problem: str) -> str:
        return ""  # the class is named after the file, whatever it is

    def prepare_files(self, files: dict[str, bytes], entry: str | None) -> Program:
        """A program of one or more ``.kt`` files (by name); ``entry`` names the file declaring
        ``main`` when the package says which."""
        self.version()
        sources = [name for name in files if name.endswith(self.extensions)]
        main_file = entry if entry in sources else next(
            (name for name in sources if TOP_LEVEL_MAIN.search(_code(files[name]))), None)
        if main_file is None:
            raise CompileError("no top-level `fun main` in any .kt file")
        command = self.compile_command(sources)
        shipped = {**files, **exec_server_files()}
        key = cache_key(self.name, self.version(), " ".join(command), *shipped, *shipped.values())
        directory = cached_build(key, shipped, command, archive=self.compiler_archive())
        return Program(self.name, directory, self.run_command(main_class(main_file, files[main_file])))

    def compiler_launch(self) -> list[str]:
        """kotlinc's compiler started as its launcher starts it (the launcher's own class loader,
        whose classes no class archive can hold, aside): the JVM with the compiler's jar and the
        jars its manifest names on the class path, the Kotlin home it belongs to."""
        home = self.home
        return ["java", *KOTLINC_JVM_OPTIONS, f"-Dkotlin.home={home}", "-cp", ":".join(compiler_classpath(home)),
                COMPILER_CLASS]

    def compiler_arguments(self, names) -> list[str]:
        return ["-nowarn", "-d", "{work}", *(f"{{work}}/{name}" for name in names)]

    def compiler_archive(self) -> CompilerArchive:
        launch = self.compiler_launch()
        jars = launch[launch.index("-cp") + 1].split(":")
        return CompilerArchive("kotlinc", tuple(launch), "", (*jdk_files("java"), *jars),
                               (("archiving.kt", ARCHIVING_SOURCE.encode()),),
                               tuple(self.compiler_arguments(["archiving.kt"])))

    def run_command(self, main_class: str, classpath: str = "{prog}") -> tuple[str, ...]:
        return super().run_command(main_class, f"{classpath}:{self.stdlib() or STDLIB}")


@functools.cache
def compiler_classpath(home: Path) -> tuple[str, ...]:
    """The compiler's jar and those its manifest's Class-Path names (beside it, as the launcher
    finds them), read once per version of the jar (remembered per machine) and process."""
    jar = home / "lib" / COMPILER_JAR
    named = remembered(f"kotlinc class path {jar}", [str(jar)], lambda: _manifest_classpath(jar),
                       lambda value: isinstance(value, list) and all(isinstance(name, str) for name in value))
    return (str(jar), *(str(jar.parent / name) for name in named if (jar.parent / name).exists()))


def _manifest_classpath(jar: Path) -> list[str]:
    try:
        with zipfile.ZipFile(jar) as archive:
            manifest = archive.read("META-INF/MANIFEST.MF").decode("utf-8", errors="replace")
    except (OSError, KeyError, zipfile.BadZipFile):
        return []
    unfolded = manifest.replace("\r\n", "\n").replace("\n ", "")  # continuation lines start with a space
    found = re.search(r"^Class-Path:(.*)$", unfolded, re.MULTILINE)
    return found.group(1).split() if found else []


def _code(source: bytes) -> str:
    return COMMENTS.sub("", source.decode("utf-8-sig", errors="replace"))


def main_class(file_name: str, source: bytes) -> str:
    """The JVM class Kotlin makes of the top-level functions of ``file_name``."""
    code = _code(source)
    named = JVM_NAME.search(code)
    stem = Path(file_name).name.removesuffix(".kt")
    simple = named.group(1) if named else NOT_IDENTIFIER.sub("_", stem[:1].upper() + stem[1:]) + "Kt"
    package = PACKAGE_LINE.search(code)
    return f"{package.group(1)}.{simple}" if package else simple
