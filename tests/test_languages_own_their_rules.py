"""A language's specifics live in its own module under judge/languages/: no other module names a
language's file extensions or toolchain commands, and a language the judge does not ship builds a
package's folder program by its own rules, through the Language protocol alone."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from conftest import ROOT

from judge.errors import CompileError
from judge.formats.icpc.loading import load_package
from judge.formats.icpc.programs import prepare_program
from judge.formats.icpc.timelimit import accepted_submissions
from judge.languages import LANGUAGES, folder_language
from judge.languages.base import Language, Program, cache_key, cached_build

JUDGE = ROOT / "judge"
PACKAGES = ROOT / "tests" / "packages"

# Where a language's name for a file or a command is not knowledge of that language. The judge is
# written in Python, and a suite's or a package's own programs may be too: their names are the
# format's. The web pages' scripts are the browser's JavaScript, never a submission's.
ALLOWED = {
    # files that run inside the sandbox beside a submission: each runtime's own side of the judge
    "harness": {"*"},
    # a suite's reference, validator and strategies are Python modules by the format's definition
    "formats/suite/format.py": {".py", "gen.py"},
    "authoring/export.py": {"validate.py"},  # the validator an exported package gets
    "classroom/fingerprints.py": {"warm_up.py"},  # a file name in the judge's own fingerprint
    "formats/icpc/checktestdata.py": {"grammar_ctd.py", "check.py"},  # the judge's checktestdata
    # examples in messages of the files a package names itself
    "formats/icpc/generators.py": {"gen.py", "/submissions/accepted/sol.py"},
    "formats/icpc/package.py": {"gen.sh", "./gen.sh", "graders/grader.py"},
    "formats/icpc/scoring.py": {"package.py"},  # a module of the judge named in a message
    "problem_code/checkers.py": {"FILE.py"},
    "renderers/__init__.py": {"*.py"},  # the judge's own output format modules
    "sandbox/probe_cache.py": {"*.py"},  # the judge's own source, hashed
    "course_server/app.py": {"course.js", "/course.js", "report.js"},
    "renderers/html_report.py": {"report.js"},
    "scoreboard/server.py": {"scoreboard.js"},
}
WORD = re.compile(r"[^\s,;:()'\"`\[\]{}=]+")


def language_words() -> tuple[set[str], set[str]]:
    """Every registered language's extensions and toolchain commands, in lower case."""
    extensions = {suffix.lower() for language in LANGUAGES.values() for suffix in language.extensions}
    commands = {Path(tool).name.lower() for language in LANGUAGES.values() for tool in language.toolchain}
    return extensions, commands


def named_by(text: str, extensions: set[str], commands: set[str]) -> list[str]:
    """The words of ``text`` that are a language's command or end in its extension."""
    return [word for word in WORD.findall(text)
            if word.lower() in commands or word.lower().rstrip(".").endswith(tuple(extensions))]


def string_constants(tree: ast.AST):
    """Every string constant of a module but its docstrings (prose, which may name anything)."""
    docstrings = {id(node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            yield node


def allowed(module: str, word: str) -> bool:
    return "*" in ALLOWED.get(module.split("/")[0], ()) or word in ALLOWED.get(module, ())


def test_no_module_outside_the_languages_names_a_languages_files_or_commands():
    extensions, commands = language_words()
    assert {".java", ".kt", ".js", ".mjs", ".cpp", ".c", "javac", "node", "g++", "kotlinc"} <= extensions | commands
    found = []
    for path in sorted(JUDGE.rglob("*.py")):
        module = path.relative_to(JUDGE).as_posix()
        if module.startswith("languages/"):
            continue
        for node in string_constants(ast.parse(path.read_text(), str(path))):
            found += [f"{module}:{node.lineno}: {word}" for word in named_by(node.value, extensions, commands)
                      if not allowed(module, word)]
    assert found == [], "move these into the language's module under judge/languages/:\n" + "\n".join(found)


@pytest.mark.parametrize("source, words", [
    ('name = "Main.java"', ["Main.java"]), ('check = f"node --check {name}"', ["node"]),
    ('suffixes = (".mjs", ".cjs")', [".mjs", ".cjs"]), ('"""Compiles Main.java with javac."""', []),
    ('text = "validate it."', []), ('text = "a javac-like tool"', []),
])
def test_the_scan_finds_a_language_in_a_string_but_not_in_a_docstring(source, words):
    extensions, commands = language_words()
    found = [word for node in string_constants(ast.parse(source)) for word in named_by(node.value, extensions, commands)]
    assert found == words


class Posix(Language):
    """A language the judge does not ship: a folder of its scripts runs its ``start.posix``."""

    name = "posix-toy"
    extensions = (".posix",)
    toolchain = ("sh",)
    folder_entries = ("start.posix",)

    def prepare_folder(self, files, path, entry, header_folders=()):
        chosen = entry or next((name for name in self.folder_entries if name in files), None)
        if chosen is None:
            raise CompileError(f"{path.name}: name the script to start start.posix")
        directory = cached_build(cache_key(self.name, *files, *files.values()), files, None)
        return Program(self.name, directory, ("/bin/sh", "{prog}/" + chosen))


@pytest.fixture
def posix(monkeypatch):
    """Posix registered as another package's language would be."""
    monkeypatch.setattr(LANGUAGES, "_others", {**LANGUAGES.others(), Posix.name: Posix()})
    return LANGUAGES[Posix.name]


def test_a_package_folder_in_a_language_added_later_is_built_by_that_language_alone(posix, tmp_path):
    folder = tmp_path / "adder"
    folder.mkdir()
    (folder / "start.posix").write_text(". ./sum.posix\n")
    (folder / "sum.posix").write_text("echo $((1 + 2))\n")
    assert folder_language(["start.posix", "sum.posix"]) is posix
    language, program = prepare_program(folder)
    assert language is posix and program.command == ("/bin/sh", "{prog}/start.posix")
    assert (program.directory / "sum.posix").read_text() == "echo $((1 + 2))\n"
    (folder / "start.posix").rename(folder / "begin.posix")
    with pytest.raises(CompileError, match="adder: name the script"):
        prepare_program(folder)


def test_a_language_without_folder_rules_refuses_a_folder_by_name(tmp_path):
    class OneFile(Language):
        name, title = "one-file", "One File"

    with pytest.raises(CompileError, match="prog: a One File program is one file here, not a folder"):
        OneFile().prepare_folder({"a.one": b""}, tmp_path / "prog", None)


def test_c_beside_cpp_is_a_cpp_folder_and_headers_name_no_language():
    assert folder_language(["main.cpp", "util.c", "util.h"]).name == "cpp"
    assert folder_language(["main.c", "util.h"]).name == "c"
    with pytest.raises(CompileError, match="sources of java, python"):
        folder_language(["Main.java", "helper.py"])
    with pytest.raises(CompileError, match="no source file"):
        folder_language(["util.h", "notes.txt"])


def test_the_accepted_submissions_of_languages_slow_to_build_are_judged_first():
    """A package's time limit is inferred from its accepted submissions judged side by side: those
    slowest to build by their language's estimate (a JVM's, file or folder) start first, so that
    the slowest does not start last."""
    problem = load_package(PACKAGES / "addition", run_generators=False)
    accepted = [path.name for path in accepted_submissions(problem)]
    assert accepted[0] == "multi_java" and set(accepted[1:]) >= {"add.c", "add.py", "multi_cpp", "multi_js"}


def test_a_python_2_script_is_one_the_package_checks_skip_by_its_languages_word(tmp_path):
    from judge.formats.icpc.programs import unsupported_reason

    old = tmp_path / "old.py"
    old.write_text("#!/usr/bin/env python2\nprint 'hi'\n")
    assert unsupported_reason(old) == "old.py is Python 2 (its first line says so); only Python 3 runs here"
    new = tmp_path / "new.py"
    new.write_text("#!/usr/bin/env python3\nprint('hi')\n")
    assert unsupported_reason(new) is None
