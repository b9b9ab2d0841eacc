"""The languages submissions may be written in, chosen by file extension or by name.

Each language is one module describing itself (see ``Language``). The built-in ones are listed
here; another package adds one through the ``judge.languages`` entry-point group, naming a
``Language`` subclass (or instance).
"""

from __future__ import annotations

import os
import shutil
from importlib.metadata import entry_points
from pathlib import Path

from judge.errors import CompileError, LanguageUnavailable, UnknownLanguage
from judge.languages.base import Language
from judge.languages.bash import Bash
from judge.languages.compiled import C, Cpp
from judge.languages.java import Java
from judge.languages.javascript import JavaScript
from judge.languages.kotlin import Kotlin
from judge.languages.python import Python
from judge.program import Program
from judge.sandbox.runtime import expose_language_paths
from judge.signature import Signature

ENTRY_POINT_GROUP = "judge.languages"
ALIASES = {"py": "python", "python3": "python", "c++": "cpp", "js": "javascript", "node": "javascript", "kt": "kotlin", "sh": "bash"}

__all__ = ["LANGUAGES", "CompileError", "Language", "LanguageUnavailable", "Program",
           "UnknownLanguage", "declarations", "language_for"]


def _discover() -> dict[str, Language]:
    """The built-in languages, then those other packages register (a name already taken keeps
    its first owner)."""
    found: dict[str, Language] = {lang.name: lang for lang in (Python(), C(), Cpp(), Java(), JavaScript(), Kotlin(), Bash())}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        loaded = entry.load()
        language = loaded() if isinstance(loaded, type) else loaded
        found.setdefault(language.name, language)
    return found


LANGUAGES: dict[str, Language] = _discover()


def language_for(source: Path, name: str | None = None) -> Language:
    """The language of ``source``: ``name`` (from --lang) if given, else by extension."""
    if name:
        key = ALIASES.get(name.lower(), name.lower())
        if key not in LANGUAGES:
            raise UnknownLanguage(f"unknown language {name!r}; use one of {', '.join(LANGUAGES)}")
        return LANGUAGES[key]
    # The extension as written first (gcc's .C is C++, .c is C), then in lower case (.CPP, .Py).
    for suffix in (source.suffix, source.suffix.lower()):
        for language in LANGUAGES.values():
            if suffix in language.extensions:
                return language
    known = ", ".join(ext for lang in LANGUAGES.values() for ext in lang.extensions)
    raise UnknownLanguage(f"cannot tell the language of {source.name} from its extension "
                          f"{source.suffix or '(none)'}; use one of {known}, or pass --lang")


def runtime_paths() -> tuple[str, ...]:
    """Every host path some language's programs or compiler need in the sandbox: what each
    declares, and its toolchain's executables where they are found (an interpreter or compiler
    installed outside /usr/bin, as the path names it and as the file it links to)."""
    return tuple(dict.fromkeys(path for language in LANGUAGES.values()
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
