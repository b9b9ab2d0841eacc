"""Each language end to end: accepted, wrong, compile errors, Java's class finding, function calls."""

from pathlib import Path

import pytest

from judge.languages import LANGUAGES, language_for
from judge.languages.base import LanguageUnavailable
from judge.languages.java import find_classes
from judge.formats.catalog import load_problem
from judge.runner import judge_submission

STONES = load_problem("stones")
FOOTHOLDS = load_problem("footholds")
PARITY = {
    "c": '#include <stdio.h>\nint main(void){int n; scanf("%d",&n); puts(n%2?"SK":"CY"); return 0;}\n',
    "cpp": '#include <iostream>\nint main(){int n; std::cin>>n; std::cout<<(n%2?"SK":"CY")<<"\\n";}\n',
    "js": 'const n = +require("fs").readFileSync(0, "utf8"); console.log(n % 2 ? "SK" : "CY");\n',
    "java": ('import java.util.*;\npublic class Main { public static void main(String[] a) {\n'
             ' int n = new Scanner(System.in).nextInt(); System.out.println(n % 2 == 1 ? "SK" : "CY"); } }\n'),
    "kt": 'fun main() {\n    val n = readLine()!!.trim().toInt()\n    println(if (n % 2 == 1) "SK" else "CY")\n}\n',
    "sh": 'read -r n\nif (( n % 2 )); then echo SK; else echo CY; fi\n',
}


def quick(path, problem=STONES, names=("sample-1", "smallest-even", "largest")):
    return judge_submission(problem, path, cases=[problem.case(name) for name in names])


@pytest.mark.parametrize("extension", sorted(PARITY))
def test_each_language_is_accepted(write_program, extension):
    result = quick(write_program(f"solution.{extension}", PARITY[extension]))
    assert result.verdict == "AC", [case.message for case in result.cases]


@pytest.mark.parametrize("extension, text", [
    ("c", "int main(void) { return x; }\n"),
    ("cpp", "int main() { undefined(); }\n"),
    ("java", "public class Main { public static void main(String[] a) { int x = \"s\"; } }\n"),
    ("js", "function (\n"),
    ("kt", "fun main() { val x: Int = \"s\" }\n"),
])
def test_compile_errors_are_ce_with_the_compilers_message(write_program, extension, text):
    result = quick(write_program(f"bad.{extension}", text))
    assert result.verdict == "CE"
    assert result.compile_message and "/tmp/" not in result.compile_message


def test_java_any_file_name_non_ascii_class_and_stray_package(write_program):
    text = ("package some.where;\nimport java.util.*;\n"
            "class Helper { static String win(int n) { return n % 2 == 1 ? \"SK\" : \"CY\"; } }\n"
            "public class 풀이 { public static void main(String[] args) {\n"
            "  System.out.println(Helper.win(new Scanner(System.in).nextInt())); } }\n")
    assert quick(write_program("anything.java", text)).verdict == "AC"


def test_java_concatenation_is_built_without_invokedynamic_and_goes_left_to_right(write_program):
    """The judge compiles `+` on strings to StringBuilder calls: the invokedynamic form spins
    method-handle classes at the first `+` of every run, a sixth of a JVM's start. Each operand
    still becomes a string in order, as the JLS says."""
    text = ("import java.util.*;\npublic class Main { public static void main(String[] a) {\n"
            " StringBuilder sb = new StringBuilder(\"a\"); String s = \"\" + sb + sb.append(\"b\");\n"
            " int n = new Scanner(System.in).nextInt();\n"
            " System.out.println(s.equals(\"aab\") ? (n % 2 == 1 ? \"SK\" : \"CY\") : \"order \" + s); } }\n")
    path = write_program("Main.java", text)
    result = quick(path)
    assert result.verdict == "AC", [case.message for case in result.cases]
    built = LANGUAGES["java"].prepare(path, "stdio").directory
    assert b"makeConcatWithConstants" not in (built / "Main.class").read_bytes()


def test_java_class_finding():
    assert find_classes("class A {}\npublic class B { public static void main(String[] x) {} }") == ("B", "B")
    assert find_classes("// class Fake\nclass Solution { static public void main(String[] a) {} }") == (None, "Solution")


def test_compiled_programs_are_cached(write_program):
    path = write_program("cached.c", PARITY["c"])
    language = language_for(path)
    assert language.prepare(path, "stdio").directory == language.prepare(path, "stdio").directory


def test_runtime_errors_in_c(write_program):
    text = "#include <stdlib.h>\nint main(void){ int *p = 0; *p = 1; return 0; }\n"
    result = quick(write_program("crash.c", text), names=("smallest",))
    assert result.verdict == "RE" and "SIGSEGV" in result.cases[0].message


def test_memory_limit_in_java_and_node(write_program):
    java = ("public class Main { public static void main(String[] a) {\n"
            " java.util.List<long[]> l = new java.util.ArrayList<>(); while (true) l.add(new long[1 << 20]); } }\n")
    node = "const a = []; while (true) a.push(new Array(1 << 20).fill(1.5));\n"
    assert quick(write_program("Main.java", java), names=("smallest",)).verdict == "MLE"
    assert quick(write_program("hog.js", node), names=("smallest",)).verdict == "MLE"


def test_function_style_in_python_and_javascript(write_program):
    python = write_program("f.py", "def solution(board, aloc, bloc):\n    print('noise')\n    return 0\n")
    result = quick(python, FOOTHOLDS, names=("sample-4", "sample-1"))
    assert [case.verdict for case in result.cases] == ["AC", "WA"]
    js = write_program("f.js", "function solution(board, aloc, bloc) { console.log('noise'); return 0; }\n")
    assert [case.verdict for case in quick(js, FOOTHOLDS, names=("sample-4", "sample-1")).cases] == ["AC", "WA"]


@pytest.mark.parametrize("text, verdict, message", [
    ("def solve(board, aloc, bloc):\n    return 0\n", "CE", "no function `solution` found; the judge calls `def solution("),
    ("def solution(board):\n    return 0\n", "CE", "`solution` does not match the declaration the judge calls"),
    ("def solution(board, aloc, bloc, *, depth):\n    return 0\n", "CE", "does not match the declaration"),
    ("def solution(board, aloc, bloc, depth=0):\n    return 0\n", "AC", ""),
    ("def make():\n    return lambda *args: 0\nsolution = make()\n", "AC", ""),
    ("def solution(board, aloc, bloc):\n    return 1 // 0\n", "RE", "ZeroDivisionError: integer division or modulo by zero (solution.py, line 2)"),
])
def test_function_style_mistakes_in_python(write_program, text, verdict, message):
    """A def that cannot take the signature's arguments is CE naming the declaration, as in the
    compiled languages; a solution bound some other way is called and judged."""
    result = quick(write_program("f.py", text), FOOTHOLDS, names=("sample-4",))
    assert result.verdict == verdict, result.cases[0].message
    assert message in (result.compile_message if verdict == "CE" else result.cases[0].message)


def test_a_missing_toolchain_is_the_graders_problem(write_program, monkeypatch):
    java = LANGUAGES["java"]
    monkeypatch.setattr(type(java), "toolchain", ("javac-not-installed-here",))
    with pytest.raises(LanguageUnavailable, match="apt-get install default-jdk-headless"):
        java.version()
    result = quick(write_program("Main.java", PARITY["java"]), names=("smallest",))
    assert result.verdict == "IE" and "javac-not-installed-here" in result.cases[0].message


RUNTIME_ERRORS = {  # each fails on line 3 of its file, reading sample-1's 5
    "index.py": "import sys\ninput = sys.stdin.readline\nprint([1, 2, 3][int(input())])\n",
    "index.js": ("const input = require('fs').readFileSync('/dev/stdin').toString().trim().split('\\n');\n"
                 "const table = null;\nconsole.log(table[Number(input[0])]);\n"),
    "Index.java": ("import java.util.*;\npublic class Main { public static void main(String[] a) { int[] t = new int[3];\n"
                   "  System.out.println(t[new Scanner(System.in).nextInt()]); } }\n"),
}


# The exception's class, which is all a hidden case's message takes from stderr.
RUNTIME_ERROR_CLASSES = {"index.py": "IndexError", "index.js": "TypeError",
                         "Index.java": "java.lang.ArrayIndexOutOfBoundsException"}


@pytest.mark.parametrize("name", RUNTIME_ERRORS)
def test_a_runtime_error_on_a_sample_names_the_line(write_program, name):
    """A traceback's (or stack's) innermost frame in the submission gives the line, as the
    function-style harnesses do; a hidden case says only the exception's class, not its message
    (which may quote the input)."""
    result = quick(write_program(name, RUNTIME_ERRORS[name]), names=("sample-1", "largest"))
    sample, hidden = result.cases
    assert sample.verdict == "RE" and sample.message.endswith("(line 3)"), sample.message
    assert hidden.verdict == "RE" and hidden.message == f"exit code 1: {RUNTIME_ERROR_CLASSES[name]}", hidden.message


def test_a_runtime_error_in_a_python_folders_module_names_the_file_and_line(tmp_path):
    """A folder's entry runs through a launcher: the place is the innermost frame of the folder's
    own files (not the launcher's line), with the file when it is not the entry."""
    from judge.formats.icpc.loading import load_package

    folder = tmp_path / "adder"
    folder.mkdir()
    (folder / "main.py").write_text("from helper import add\nprint(add(*input().split()))\n")
    (folder / "helper.py").write_text("def add(a, b):\n    return float(a) + float(b) / 0\n")
    package = load_package(Path(__file__).parent / "packages" / "addition")
    sample = judge_submission(package, folder, cases=package.cases[:1]).cases[0]
    assert sample.verdict == "RE" and sample.message.endswith("ZeroDivisionError: float division by zero "
                                                              "(helper.py, line 2)"), sample.message


def test_an_exception_inside_the_jdk_is_placed_at_the_submissions_call(write_program):
    text = ("import java.util.*;\npublic class Main { public static void main(String[] a) {\n"
            "  Scanner in = new Scanner(System.in); in.nextInt();\n  System.out.println(in.nextInt()); } }\n")
    message = quick(write_program("Main.java", text), names=("sample-1",)).cases[0].message
    assert "NoSuchElementException" in message and message.endswith("(line 4)"), message


LEETCODE_CLASS = {
    "py": "class Solution:\n    def solution(self, board, aloc, bloc):\n        return 0\n",
    "cpp": ("#include <bits/stdc++.h>\nusing namespace std;\nclass Solution {\npublic:\n"
            "    int solution(vector<vector<int>> board, vector<int> aloc, vector<int> bloc) { return 0; }\n};\n"),
}


@pytest.mark.parametrize("extension", sorted(LEETCODE_CLASS))
def test_a_leetcode_class_solution_is_told_to_be_a_plain_function(write_program, extension):
    result = quick(write_program(f"leet.{extension}", LEETCODE_CLASS[extension]), FOOTHOLDS, names=("sample-4",))
    assert result.verdict == "CE"
    assert result.compile_message.startswith("error: no function `solution` found outside a class "
                                             "(is it inside class `Solution`?"), result.compile_message


def test_a_javascript_class_solution_is_told_to_be_a_plain_function(write_program):
    text = "class Solution {\n  solution(board, aloc, bloc) { return 0; }\n}\n"
    result = quick(write_program("leet.js", text), FOOTHOLDS, names=("sample-4",))
    assert result.verdict == "RE"
    assert "`solution` is a method of class Solution" in result.cases[0].message, result.cases[0].message


def test_define_int_long_long_in_a_cpp_function_is_named(write_program):
    """Codeforces' `#define int long long` turns the declaration into one the judge does not call."""
    text = ("#include <bits/stdc++.h>\nusing namespace std;\n#define int long long\n"
            "int solution(vector<vector<int>> board, vector<int> aloc, vector<int> bloc) { return 0; }\n")
    result = quick(write_program("cf.cpp", text), FOOTHOLDS, names=("sample-4",))
    assert result.verdict == "CE"
    first = result.compile_message.splitlines()[0]
    assert first.startswith("error: `solution` does not match") and "#define int long long" in first, first


def test_a_java_file_saved_by_a_windows_editor_compiles(write_program):
    """Notepad writes UTF-8 with a byte-order mark and CRLF line ends; javac alone refuses the mark."""
    path = write_program("Main.java", "")
    path.write_bytes(b"\xef\xbb\xbf" + PARITY["java"].replace("\n", "\r\n").encode())
    result = quick(path)
    assert result.verdict == "AC", result.compile_message


ONLINE_JUDGE_TEMPLATES = {  # read input.txt unless ONLINE_JUDGE is set, as Codeforces and Baekjoon set it
    "template.c": ('#include <stdio.h>\nint main(void) {\n#ifndef ONLINE_JUDGE\n  freopen("input.txt", "r", stdin);\n'
                   '#endif\n  int n; scanf("%d", &n); puts(n % 2 ? "SK" : "CY"); return 0; }\n'),
    "template.cpp": ('#include <bits/stdc++.h>\nusing namespace std;\n#define int long long\nsigned main() {\n'
                     '#ifndef ONLINE_JUDGE\n  freopen("input.txt", "r", stdin); freopen("output.txt", "w", stdout);\n'
                     '#endif\n  ios::sync_with_stdio(false); cin.tie(0);\n'
                     '  int n; cin >> n; cout << (n % 2 ? "SK" : "CY") << "\\n"; }\n'),
    "Template.java": ('import java.io.*;\npublic class Main { public static void main(String[] a) throws IOException {\n'
                      '  Reader in = System.getProperty("ONLINE_JUDGE") == null ? new FileReader("input.txt")\n'
                      '                                                      : new InputStreamReader(System.in);\n'
                      '  int n = Integer.parseInt(new BufferedReader(in).readLine().trim());\n'
                      '  System.out.println(n % 2 == 1 ? "SK" : "CY"); } }\n'),
}


@pytest.mark.parametrize("name", ONLINE_JUDGE_TEMPLATES)
def test_contest_templates_see_online_judge_defined(write_program, name):
    result = quick(write_program(name, ONLINE_JUDGE_TEMPLATES[name]))
    assert result.verdict == "AC", [case.message for case in result.cases]


def test_the_same_javascript_as_mjs_and_as_js_runs_under_its_own_name(write_program):
    """Two files of the same bytes, one an ES module by its extension: each is run by its own name
    (the build cache once handed the .js file the .mjs one's build, and node found no solution.js)."""
    text = ("let data = '';\nprocess.stdin.on('data', chunk => data += chunk);\n"
            "process.stdin.on('end', () => console.log(Number(data) % 2 ? 'SK' : 'CY'));\n")  # either kind of module
    for name in ("same.mjs", "same.js"):
        result = quick(write_program(name, text))
        assert result.verdict == "AC", (name, [case.message for case in result.cases])


def test_java_nested_classes_before_main_are_not_mains_class(write_program):
    """Baekjoon's Java keeps `static class Node` inside Main, ahead of main; braces in strings
    and characters do not count."""
    text = ("import java.util.*;\npublic class Main {\n"
            "    static class Node { int v; Node(int v) { this.v = v; } }\n"
            "    static final String OPEN = \"{ class Fake {\"; static final char CLOSE = '}';\n"
            "    public static void main(String[] args) {\n"
            "        Node node = new Node(new Scanner(System.in).nextInt());\n"
            "        System.out.println(node.v % 2 == 1 ? \"SK\" : \"CY\");\n    }\n}\n")
    assert find_classes(text) == ("Main", "Main")
    result = quick(write_program("Main.java", text))
    assert result.verdict == "AC", [case.message for case in result.cases]
    assert find_classes("public class Main { static class Inner { public static void main(String[] a) {} } }") == (
        "Main", "Main$Inner")


def test_a_python_file_not_in_its_encoding_is_ce(write_program):
    """Python refuses to run a script saved as cp949 (a Korean Windows editor's default) unless a
    coding line declares it; compile() lets such bytes pass in a comment, so this was an RE on
    every case, quoting the sandbox's path."""
    body = "# 돌 게임\nn = int(input())\nprint('SK' if n % 2 else 'CY')\n"
    plain = write_program("cp949.py", "")
    plain.write_bytes(body.encode("cp949"))
    result = quick(plain)
    assert result.verdict == "CE"
    assert result.compile_message == "cp949.py is not UTF-8 text and declares no encoding it is in; save it as UTF-8"
    declared = write_program("declared.py", "")
    declared.write_bytes(("# -*- coding: cp949 -*-\n" + body).encode("cp949"))
    assert quick(declared).verdict == "AC"


@pytest.mark.parametrize("name, language", [
    ("a.c", "c"), ("a.C", "cpp"), ("a.c++", "cpp"), ("a.C++", "cpp"), ("a.CPP", "cpp"), ("a.Cc", "cpp"),
    ("a.py3", "python"), ("a.PY", "python"), ("a.Py3", "python"), ("a.JS", "javascript"),
])
def test_extensions_as_gcc_domjudge_and_bapctools_name_them(name, language):
    """.C in capitals is C++ to gcc, .c is C; .c++ is C++, .py3 Python 3; other capitals are lower case."""
    assert language_for(Path(name)).name == language


@pytest.mark.parametrize("name, text, language", [
    ("parity.C", PARITY["cpp"], "cpp"), ("parity.c++", PARITY["cpp"], "cpp"),
    ("parity.py3", 'print("SK" if int(input()) % 2 else "CY")\n', "python"),
])
def test_cpp_as_c_plus_plus_and_capital_c_and_python_as_py3_run(write_program, name, text, language):
    result = quick(write_program(name, text))
    assert result.verdict == "AC" and result.language == language


def test_a_syntax_error_in_a_py3_file_is_ce(write_program):
    assert quick(write_program("bad.py3", "def (\n")).verdict == "CE"


# ---------------------------------------------------------------------------------------------
# Kotlin: Java's JVM and options, kotlinc's class names

@pytest.mark.parametrize("file_name, source, expected", [
    ("hello.kt", "fun main() {}\n", "HelloKt"),
    ("my-solution.kt", "fun main() {}\n", "My_solutionKt"),
    ("a.kt", "package contest.sum\n\nfun main() {}\n", "contest.sum.AKt"),
    ("a.kt", '@file:JvmName("Solver")\npackage p\nfun main() {}\n', "p.Solver"),
])
def test_kotlin_runs_the_class_kotlinc_makes_of_the_file(file_name, source, expected):
    from judge.languages.kotlin import main_class

    assert main_class(file_name, source.encode()) == expected


def test_kotlin_in_a_package_with_arguments_to_main_and_an_uncaught_exception(write_program):
    source = ("package solutions.stones\n\nfun main(args: Array<String>) {\n"
              "    val n = readLine()!!.trim().toInt()\n    check(n != 1) { \"one stone\" }\n"
              "    println(if (n % 2 == 1) \"SK\" else \"CY\")\n}\n")
    result = quick(write_program("Stones Game.kt", source), names=("sample-1", "smallest"))
    assert result.language == "kotlin"
    assert [case.verdict for case in result.cases] == ["AC", "RE"]
    assert "IllegalStateException" in result.cases[1].message


def test_kotlin_memory_is_capped_as_javas(write_program):
    hog = write_program("hog.kt", "fun main() {\n    val kept = ArrayList<LongArray>()\n"
                                  "    while (true) kept.add(LongArray(1 shl 20))\n}\n")
    assert quick(hog, names=("smallest",)).verdict == "MLE"


def test_the_built_in_table_names_each_languages_own_extensions():
    """The registry finds a language by extension without importing the others' modules: its
    table must say what each class says."""
    from judge.languages import BUILTIN, BUILTIN_EXTENSIONS

    for name in BUILTIN:
        assert LANGUAGES[name].name == name
        assert {ext for ext, owner in BUILTIN_EXTENSIONS.items() if owner == name} == set(LANGUAGES[name].extensions)


LANGUAGE_OF_A_FILE = """
import json, sys
from pathlib import Path
before = set(sys.modules)
from judge.languages import language_for
language = language_for(Path(sys.argv[1]))
print(json.dumps([language.name, sorted(set(sys.modules) - before)]))
"""


@pytest.mark.parametrize("file_name, language, module", [("a.py", "python", "judge.languages.python"),
                                                          ("Main.java", "java", "judge.languages.java"),
                                                          ("a.CPP", "cpp", "judge.languages.compiled")])
def test_a_language_is_imported_when_a_file_in_it_is_asked_about(file_name, language, module):
    import json
    import subprocess
    import sys

    from conftest import ROOT

    done = subprocess.run([sys.executable, "-c", LANGUAGE_OF_A_FILE, file_name], capture_output=True, text=True,
                          cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=120, check=True)
    from judge.languages import BUILTIN

    name, imported = json.loads(done.stdout)
    assert name == language
    assert set(imported) & {module for module, _ in BUILTIN.values()} == {module}
    assert "importlib.metadata" not in imported  # other packages' languages are not looked for


def test_an_unknown_extension_names_every_language_and_the_fix():
    from judge.languages import UnknownLanguage

    with pytest.raises(UnknownLanguage, match=r"\.py, \.py3, \.c, .*\.kt.*pass --lang"):
        language_for(Path("notes.txt"))




# ---------------------------------------------------------------------------------------------
# Bash: .sh and .bash, as DOMjudge and BAPCtools judge them

def test_a_bash_script_with_a_syntax_error_is_a_compile_error(write_program):
    result = quick(write_program("parity.bash", "read -r n\nif (( n % 2 )); then echo SK\n"))
    assert result.verdict == "CE" and "syntax error" in result.compile_message


def test_cpp_is_built_as_cpp20_as_contest_judges_build_it(write_program):
    # Ranges and views (C++20), as contest submissions use them.
    source = ("#include <iostream>\n#include <ranges>\nint main() { int n; std::cin >> n;\n"
              "    int odd = 0; for (int i : std::views::iota(0, n)) odd ^= 1;\n"
              "    std::cout << (odd ? \"SK\" : \"CY\") << \"\\n\"; }\n")
    result = quick(write_program("views.cpp", source), names=("sample-1",))
    assert result.verdict == "AC", result.compile_message
