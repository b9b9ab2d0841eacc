"""Java: any file name; the class holding ``main`` is found in the source; UTF-8 throughout.

Start-up: a JVM takes tens of milliseconds to start, and per case that is most of what a Java
run costs. What is cut here leaves what a program may do and its verdicts as they are (benchmark
item 8 measures it against a plain `java` start):
- javac builds string concatenation from StringBuilder calls (``-XDstringConcat=inline``)
  instead of invokedynamic, whose bootstrap spins method-handle classes at the first ``+`` of
  every run: about 7 ms;
- the JVM maps its class-data archive where the archive was built instead of relocating every
  pointer in it at a random address (``ArchiveRelocationMode=0``; falls back to relocating when
  that address is taken): about 4 ms. Address-space layout randomisation of JDK metadata guards
  nothing here: the program in the sandbox is the untrusted party;
- no performance-counter file in /tmp (``-UsePerfData``), which only monitoring tools read.
The serial collector stays: G1 starts faster (JDK 17 loads its archived heap objects only with
G1) but pads every large array to whole regions, so a program that fits under -Xmx with the
serial collector can run out of memory with G1.

A folder program compiles every ``.java`` file together; its main class is ``Main``, else the
class declaring ``main`` (qualified by the package its file declares), unless the folder's owner
names the class or its file.

Memory: the JVM reserves gigabytes of address space up front, so an address-space limit would
kill it before ``main`` runs. Instead the heap is capped with -Xmx at the problem's limit, and the
resident set is checked against the limit plus a fixed allowance for the JVM itself.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from judge.errors import CompileError
from judge.languages.base import Language, Program, cache_key, cached_build, exec_server_files, read_source
from judge.languages.compiler_archive import CompilerArchive, jdk_files
from judge.languages.functions.java import CLASS_NAME, HARNESS_CLASS, JavaFunction
from judge.model.signature import Signature
from judge.model.vocabulary import TaskStyle

JVM_ALLOWANCE = 160 << 20
PACKAGE_LINE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.MULTILINE)
CLASS_DECLARATION = re.compile(r"\b(?:(public)\s+)?(?:(?:final|abstract|static)\s+)*class\s+(\w+)")
MAIN_METHOD = re.compile(r"\bstatic\s+(?:public\s+)?void\s+main\s*\(")
# Diagnostic options may go in another JDK release: then the JVM ignores them instead of refusing
# to start (IgnoreUnrecognizedVMOptions applies to -XX options only).
START_UP_OPTIONS = ("-XX:+IgnoreUnrecognizedVMOptions", "-XX:+UnlockDiagnosticVMOptions",
                    "-XX:ArchiveRelocationMode=0")
# javac's own JVM: a submission compiles in well under a second, where the JIT's first tier and the
# serial collector start and run it on half the CPU time of the default server compiler and G1 (whose
# threads would also take the other core from a run judged beside the build).
JAVAC_JVM_OPTIONS = ("-J-Xss64m", "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC", "-J-XX:-UsePerfData")
# What javac compiles to make its class archive (judge/languages/compiler_archive.py): the judge's
# own program, using what submissions commonly do, so that the classes javac loads for it are
# most of those it loads for theirs (and nothing a JDK older than 17 refuses).
ARCHIVING_SOURCE = """import java.io.*;
import java.util.*;
import java.util.stream.*;

public class Archiving {
    static final class Edge {
        final int to;
        final long weight;
        Edge(int to, long weight) { this.to = to; this.weight = weight; }
    }
    interface Shape { double area(); }
    enum Colour { RED, GREEN }

    static <T extends Comparable<T>> T largest(List<T> items) {
        T best = items.get(0);
        for (T item : items) if (item.compareTo(best) > 0) best = item;
        return best;
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringTokenizer tokens = new StringTokenizer(in.readLine());
        int n = Integer.parseInt(tokens.nextToken());
        Map<Integer, List<Edge>> graph = new HashMap<>();
        PriorityQueue<long[]> queue = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
        long[] sums = new long[n];
        Shape unit = () -> 1.0;
        switch (Colour.values()[n % 2]) {
            case RED: sums[0] += (long) unit.area(); break;
            default: sums[0]--;
        }
        graph.computeIfAbsent(0, key -> new ArrayList<>()).add(new Edge(1, 2L));
        queue.add(new long[] {0, 0});
        String joined = IntStream.range(0, n).mapToObj(Integer::toString).collect(Collectors.joining(" "));
        StringBuilder out = new StringBuilder();
        out.append(largest(Arrays.asList(3, 1, 2))).append(' ').append(joined).append(String.format("%.2f", 1.5));
        try {
            System.out.println(out + " " + graph.size() + Arrays.toString(sums) + queue.poll()[0]);
        } catch (RuntimeException error) {
            throw new IllegalStateException(error);
        }
    }
}
"""
COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
# What is not code: comments, text blocks, string and character literals, in one pass (so that
# "http://" is a string, not a comment); a brace or a `class` inside them declares nothing.
NOT_CODE = re.compile(r'"""[\s\S]*?"""|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*[\s\S]*?\*/')
TYPE_DECLARATION = re.compile(r"\b(?:class|interface|enum|record)\s+(\w+)")
# A frame of the program's own in the JVM's stack trace; the JDK's own frames name their module
# (`at java.base/java.util.Scanner.next(Scanner.java:1478)`). The first is where it failed.
JAVA_FRAME = re.compile(r"^\s*at (?![\w.$]+/)[\w.$<>]+\([^():]+\.java:(\d+)\)", re.MULTILINE)


class Java(Language):
    name = "java"
    title = "Java"
    extensions = (".java",)
    toolchain = ("javac", "java")
    memory_markers = (b"java.lang.OutOfMemoryError",)
    apt_packages = ("default-jdk-headless",)
    time_factor, time_extra = 2.0, 1.0  # JVM start-up and JIT threads
    build_seconds = 0.8
    memory_slack = JVM_ALLOWANCE
    limit_address_space = False
    min_processes = 256
    exec_server = True
    styles = (TaskStyle.STDIO, TaskStyle.FUNCTION)
    function_style = JavaFunction()
    self_test_file = "Sum.java"
    self_test_source = ("import java.util.Scanner;\npublic class Sum { public static void main(String[] a) {"
                        " Scanner in = new Scanner(System.in); System.out.println(in.nextLong() + in.nextLong()); } }\n")

    @property
    def runtime_paths(self) -> tuple[str, ...]:  # type: ignore[override]
        """The JDK that javac and java belong to, and its configuration, which Debian keeps under
        /etc and links from the JDK."""
        homes = {str(Path(real).parent.parent) for tool in self.toolchain
                 if (real := os.path.realpath(shutil.which(tool) or tool)) and os.path.isabs(real)}
        return (*sorted(homes), *sorted(str(path) for path in Path("/etc").glob("java-*-openjdk")))

    def prepare(self, source: Path, style: str, signature: Signature | None = None) -> Program:
        self.version()
        try:
            # utf-8-sig: Windows editors start a UTF-8 file with a byte-order mark, which javac refuses.
            text = read_source(source).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise CompileError(f"{source.name} is not UTF-8 text; save it as UTF-8") from None
        text = PACKAGE_LINE.sub("", text, count=1)  # a stray package line would hide the class
        if style == TaskStyle.FUNCTION:
            return self._prepare_function_call(text, signature)
        public_class, main_class = find_classes(text)
        directory = self._compile({f"{public_class or main_class}.java": text.encode()})
        return Program(self.name, directory, self.run_command(main_class))

    def prepare_folder(self, files: dict[str, bytes], path: Path, entry: str | None,
                       header_folders: tuple[str, ...] = ()) -> Program:
        sources = [name for name in files if name.endswith(self.extensions)]
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
            wanted = Path(entry).stem if entry.endswith(self.extensions) else entry
            main_class = qualified.get(wanted, wanted)
        if main_class is None:
            raise CompileError("no class with `public static void main(String[] args)` in any .java file")
        command = self.compile_command(sources)
        key = cache_key(self.name, self.version(), " ".join(command), *files, *files.values())
        return Program(self.name, cached_build(key, files, command, archive=self.compiler_archive()),
                       self.run_command(main_class))

    def naming_hint(self, problem: str) -> str:
        return (f"name a Java file after the problem it solves ({problem}.java or {problem.capitalize()}.java), "
                f"not after its class")

    def failing_line(self, stderr: str) -> str | None:
        found = JAVA_FRAME.search(stderr)
        return f"line {found.group(1)}" if found else None

    def _prepare_function_call(self, text: str, signature: Signature | None) -> Program:
        """The student's class and the generated harness, compiled together; the harness is the
        entry point, so a ``main`` of the student's would never run: it is refused up front."""
        if signature is None:
            raise ValueError("java needs the problem's typed signature to call a function")
        style = self.function_style
        code = COMMENTS.sub("", text)
        if MAIN_METHOD.search(code):
            raise CompileError(style.compile_message("", signature, kind="main"))
        if CLASS_NAME not in {match.group(2) for match in CLASS_DECLARATION.finditer(code)}:
            raise CompileError(style.compile_message("", signature, kind="class"))
        file_name = f"{public_class(text) or CLASS_NAME}.java"
        files = {file_name: text.encode(), **style.harness_files(signature)}
        directory = self._compile(files, lambda message: style.compile_message(message, signature))
        return Program(self.name, directory, self.run_command(HARNESS_CLASS))

    def _compile(self, files: dict[str, bytes], clean_message=lambda text: text) -> Path:
        command = self.compile_command(files)
        shipped = {**files, **exec_server_files()}
        key = cache_key(self.name, self.version(), " ".join(command), *shipped.values())
        return cached_build(key, shipped, command, clean_message, self.compiler_archive())

    def compile_command(self, names) -> list[str]:
        """How javac compiles the sources ``names`` (relative to the build directory)."""
        return [*self.compiler_launch(), *self.compiler_arguments(names)]

    def compiler_launch(self) -> list[str]:
        """How the compiler starts, up to its own arguments."""
        return ["javac", *JAVAC_JVM_OPTIONS]

    def compiler_arguments(self, names) -> list[str]:
        return ["-encoding", "UTF-8", "-XDstringConcat=inline", "-d", "{work}", *(f"{{work}}/{name}" for name in names)]

    def compiler_archive(self) -> CompilerArchive:
        """The class archive the compiler's JVM maps (judge/languages/compiler_archive.py)."""
        return CompilerArchive("javac", tuple(self.compiler_launch()), "-J", tuple(jdk_files("javac")),
                               (("Archiving.java", ARCHIVING_SOURCE.encode()),),
                               tuple(self.compiler_arguments(["Archiving.java"])))

    def run_command(self, main_class: str, classpath: str = "{prog}") -> tuple[str, ...]:
        """How the JVM runs ``main_class`` from the compiled program directory (``classpath``)."""
        return ("java", "-Xss64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
                "-XX:-UsePerfData", *START_UP_OPTIONS, "-Dfile.encoding=UTF-8", "-Dsun.stdout.encoding=UTF-8", "-Xmx{memory_mb}m",
                # As Codeforces and Baekjoon set it: templates test System.getProperty("ONLINE_JUDGE").
                "-DONLINE_JUDGE=true",
                "-cp", classpath, main_class)


def _in_package(text: str, owner: str) -> str:
    """A class's name as ``java`` runs it: qualified by the package its source declares."""
    declared = PACKAGE_LINE.search(COMMENTS.sub("", text))
    return f"{declared.group(1)}.{owner}" if declared else owner


def public_class(text: str) -> str | None:
    """The public class of a Java source (its file must be named after it), if there is one."""
    declarations = CLASS_DECLARATION.finditer(COMMENTS.sub("", text))
    return next((match.group(2) for match in declarations if match.group(1)), None)


def find_classes(text: str) -> tuple[str | None, str]:
    """(the public class, the class that declares main) of a Java source; a nested class that
    declares main is named as the JVM names it (``Outer$Inner``)."""
    code = NOT_CODE.sub(" ", text)
    declarations = list(CLASS_DECLARATION.finditer(code))
    if not declarations:
        raise CompileError("no class found; a Java submission needs a class with "
                           "`public static void main(String[] args)`")
    public = public_class(code)
    main = MAIN_METHOD.search(code)
    if main is None:
        raise CompileError("no `public static void main(String[] args)` method found")
    enclosing = _enclosing_types(code, main.start())
    if enclosing:
        return public, "$".join(enclosing)
    owner = [match.group(2) for match in declarations if match.start() < main.start()]
    return public, owner[-1] if owner else declarations[0].group(2)


def _enclosing_types(code: str, position: int) -> list[str]:
    """The names of the types whose bodies hold ``position``, outermost first. A nested class
    declared before main (BOJ's `static class Node`) is not main's class."""
    closing: dict[int, int] = {}
    opened: list[int] = []
    for index, char in enumerate(code):
        if char == "{":
            opened.append(index)
        elif char == "}" and opened:
            closing[opened.pop()] = index
    names = []
    for match in TYPE_DECLARATION.finditer(code, 0, position):
        body = code.find("{", match.end())
        if 0 <= body < position < closing.get(body, len(code)):
            names.append(match.group(1))
    return names
