"""The languages submissions may be written in, chosen by file extension or by name."""

from __future__ import annotations

from pathlib import Path

from judge.languages.base import CompileError, Language, LanguageUnavailable, Program
from judge.languages.compiled import C, Cpp
from judge.languages.java import Java
from judge.languages.javascript import JavaScript
from judge.languages.python import Python

LANGUAGES: dict[str, Language] = {lang.name: lang for lang in (Python(), C(), Cpp(), Java(), JavaScript())}
ALIASES = {"py": "python", "python3": "python", "c++": "cpp", "js": "javascript", "node": "javascript"}

__all__ = ["LANGUAGES", "CompileError", "Language", "LanguageUnavailable", "Program",
           "UnknownLanguage", "language_for"]


class UnknownLanguage(Exception):
    """Neither the extension nor --lang names a supported language."""


def language_for(source: Path, name: str | None = None) -> Language:
    """The language of ``source``: ``name`` (from --lang) if given, else by extension."""
    if name:
        key = ALIASES.get(name.lower(), name.lower())
        if key not in LANGUAGES:
            raise UnknownLanguage(f"unknown language {name!r}; use one of {', '.join(LANGUAGES)}")
        return LANGUAGES[key]
    for language in LANGUAGES.values():
        if source.suffix.lower() in language.extensions:
            return language
    known = ", ".join(ext for lang in LANGUAGES.values() for ext in lang.extensions)
    raise UnknownLanguage(f"cannot tell the language of {source.name} from its extension "
                          f"{source.suffix or '(none)'}; use one of {known}, or pass --lang")
