"""The languages submissions may be written in, chosen by file extension or by name.

Each language is one module describing itself (see ``Language``). The built-in ones are listed
here by name and extension, and a language's module is imported when it is first asked for;
another package adds one through the ``judge.languages`` entry-point group, naming a
``Language`` subclass (or instance), looked for only when a name or extension is not a built-in
language's, or when every language is asked for.
"""

from __future__ import annotations

import importlib
import os
import shutil
from collections.abc import Iterator, Mapping
from pathlib import Path

from judge.errors import CompileError, LanguageUnavailable, UnknownLanguage
from judge.languages.base import Language
from judge.languages.program import Program
from judge.model.signature import Signature
from judge.plugins import registered
from judge.sandbox.runtime import expose_language_paths, language_paths

ENTRY_POINT_GROUP = "judge.languages"
ALIASES = {"py": "python", "python3": "python", "c++": "cpp", "js": "javascript", "node": "javascript", "kt": "kotlin", "sh": "bash"}

__all__ = ["LANGUAGES", "CompileError", "Language", "LanguageUnavailable", "Program",
           "UnknownLanguage", "declarations", "folder_language", "language_for"]


# The built-in languages, in the order they are listed and asked about: name -> (module, class).
BUILTIN = {"python": ("judge.languages.python", "Python"), "c": ("judge.languages.compiled", "C"),
           "cpp": ("judge.languages.compiled", "Cpp"), "java": ("judge.languages.java", "Java"),
           "javascript": ("judge.languages.javascript", "JavaScript"),
           "kotlin": ("judge.languages.kotlin", "Kotlin"), "bash": ("judge.languages.bash", "Bash")}
# Their extensions, each class's own ``extensions`` (tests/test_languages.py checks that they agree).
BUILTIN_EXTENSIONS = {".py": "python", ".py3": "python", ".c": "c", ".cpp": "cpp", ".cc": "cpp", ".cxx": "cpp",
                      ".c++": "cpp", ".C": "cpp", ".java": "java", ".js": "javascript", ".mjs": "javascript",
                      ".cjs": "javascript", ".kt": "kotlin", ".sh": "bash", ".bash": "bash"}


class LanguageRegistry(Mapping[str, Language]):
    """Every language by name: the built-in ones first, imported when first asked for, then
    those other packages register (a name already taken keeps its first owner), found when a
    name is not built in or when all of them are asked for (reading every installed package's
    metadata, a tenth of a one-case run's start otherwise)."""

    def __init__(self) -> None:
        self._builtin: dict[str, Language] = {}
        self._others: dict[str, Language] | None = None

    def __getitem__(self, name: str) -> Language:
        if name in BUILTIN:
            if name not in self._builtin:
                module, class_name = BUILTIN[name]
                self._builtin[name] = getattr(importlib.import_module(module), class_name)()
                language_paths.cache_clear()  # the views show its runtime from now on
            return self._builtin[name]
        return self.others()[name]

    def __iter__(self) -> Iterator[str]:
        yield from BUILTIN
        yield from self.others()

    def __len__(self) -> int:
        return len(BUILTIN) + len(self.others())

    def by_extension(self, suffixes: tuple[str, ...]) -> Language | None:
        """The language whose extensions hold the first of ``suffixes`` that one does (the
        built-in ones asked first, the others only if none of those does)."""
        for suffix in suffixes:
            if suffix in BUILTIN_EXTENSIONS:
                return self[BUILTIN_EXTENSIONS[suffix]]
        return next((language for suffix in suffixes for language in self.others().values()
                     if suffix in language.extensions), None)

    def shown_in_views(self) -> list[Language]:
        """The languages whose runtime every sandbox's view shows: those asked for so far (a
        program in a language runs only after its language was asked for, so a run imports no
        other language's module), with Python wherever one of them runs its cases through the
        exec server (a Python program)."""
        shown = [*self._builtin.values(), *(self._others or {}).values()]
        if "python" not in self._builtin and any(language.exec_server for language in shown):
            shown.append(self["python"])
        return shown

    def others(self) -> dict[str, Language]:
        """The languages other packages register, by name."""
        if self._others is None:
            found: dict[str, Language] = {}
            for language in registered(ENTRY_POINT_GROUP):
                if language.name not in BUILTIN:
                    found.setdefault(language.name, language)
            self._others = found
            if found:
                language_paths.cache_clear()  # the views show their runtime from now on
        return self._others


LANGUAGES = LanguageRegistry()


def language_for(source: Path, name: str | None = None) -> Language:
    """The language of ``source``: ``name`` (from --lang) if given, else by extension."""
    if name:
        key = ALIASES.get(name.lower(), name.lower())
        if key not in LANGUAGES:
            raise UnknownLanguage(f"unknown language {name!r}; use one of {', '.join(LANGUAGES)}")
        return LANGUAGES[key]
    # The extension as written first (gcc's .C is C++, .c is C), then in lower case (.CPP, .Py).
    language = LANGUAGES.by_extension((source.suffix, source.suffix.lower()))
    if language is not None:
        return language
    raise UnknownLanguage(f"cannot tell the language of {source.name} from its extension "
                          f"{source.suffix or '(none)'}; use one of {known_extensions()}, or pass --lang")


def folder_language(names: list[str]) -> Language:
    """The language of a folder program whose files are ``names``: the one language of its
    sources, headers aside (or the one that builds the others beside its own: C++ with C);
    CompileError when there is none, or several."""
    found: dict[str, Language] = {}
    unknown = []
    for name in names:  # the built-in extensions first: a header alone asks no other package
        suffix = Path(name).suffix
        builtin = BUILTIN_EXTENSIONS.get(suffix) or BUILTIN_EXTENSIONS.get(suffix.lower())
        if builtin:
            found[builtin] = LANGUAGES[builtin]
        else:
            unknown.append(name)
    headers = {suffix for language in found.values() for suffix in language.header_extensions}
    for name in unknown:
        if Path(name).suffix.lower() in headers:
            continue
        try:
            language = language_for(Path(name))
        except UnknownLanguage:
            continue
        found[language.name] = language
    builder = next((language for language in found.values()
                    if set(found) <= {language.name, *language.also_builds}), None)
    if builder is None:
        what = f"sources of {', '.join(sorted(found))}" if found else "no source file of a supported language"
        raise CompileError(f"cannot tell the program's language: {what} "
                           f"(a directory program holds the sources of one language)")
    return builder


def known_extensions() -> str:
    """The extensions that name a language, as a sentence lists them."""
    return ", ".join(ext for lang in LANGUAGES.values() for ext in lang.extensions)


def runtime_paths() -> tuple[str, ...]:
    """Every host path some language's programs or compiler need in the sandbox: what each
    declares, and its toolchain's executables where they are found (an interpreter or compiler
    installed outside /usr/bin, as the path names it and as the file it links to)."""
    return tuple(dict.fromkeys(path for language in LANGUAGES.shown_in_views()
                               for path in (*language.runtime_paths, *language.build_paths,
                                            *_executables(language.toolchain))))


def _executables(tools: tuple[str, ...]) -> list[str]:
    found = [shutil.which(tool) for tool in tools]
    return [path for tool in found if tool for path in (tool, os.path.realpath(tool))]


expose_language_paths(runtime_paths)  # what the sandbox's views show of the host


def declarations(signature: Signature) -> dict[str, str]:
    """{language: the declaration a submission in it defines}, for every language that can be
    judged on a function-style problem with this signature."""
    return {language.name: language.function_style.declaration(signature)
            for language in LANGUAGES.values() if language.function_style is not None}
