"""problem.yaml's ``constants`` (2025-09, "Constants"): named values written once and substituted
as ``{{name}}`` or ``{{name.variant}}`` into the package's own programs (input and output
validators, generators, included files, example submissions), its ``test_group.yaml`` files and
Markdown statements, and as ``\\constant{name}`` into LaTeX statements. Test data and problem.yaml
itself are never substituted, nor is a sequence naming no constant (it stays as written).

A constant's value is a scalar or a mapping with a ``value`` and variants (other spellings of the
same value, e.g. ``tex: 5,000,000``); ``{{name}}`` is ``{{name.value}}``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

NAME = r"[a-zA-Z_][a-zA-Z0-9_]*"
_NAME = re.compile(NAME)
_SEQUENCE = re.compile(r"\{\{(" + NAME + r"(?:\." + NAME + r")?)\}\}")
_LATEX_COMMAND = re.compile(r"\\constant\s*\{\s*(" + NAME + r"(?:\." + NAME + r")?)\s*\}")

Constants = Mapping[str, str]  # "name" and "name.variant" to the text that replaces them
NO_CONSTANTS: Constants = MappingProxyType({})
YAML_WORDS = {"True": "true", "False": "false", "None": "null"}


def parse_constants(declared: object) -> dict[str, str]:
    """problem.yaml's ``constants`` as the texts to substitute; ValueError saying what is wrong."""
    if declared is None:
        return {}
    if not isinstance(declared, dict):
        raise ValueError(f"'constants' must be a mapping of names to values, got {declared!r:.60}")
    texts: dict[str, str] = {}
    for name, value in declared.items():
        _check_name(name, f"constants: {name!r}")
        if not isinstance(value, dict):
            texts[name] = texts[f"{name}.value"] = _scalar_text(value, f"constants.{name}")
            continue
        if "value" not in value:
            raise ValueError(f"constants.{name}: a mapping needs a 'value' key (its variants are other "
                             f"spellings of it), e.g. {name}: {{value: 5000000, tex: '5 \\cdot 10^6'}}")
        for variant, text in value.items():
            _check_name(variant, f"constants.{name}: variant {variant!r}")
            texts[f"{name}.{variant}"] = _scalar_text(text, f"constants.{name}.{variant}")
        texts[name] = texts[f"{name}.value"]
    return texts


def _check_name(name: object, where: str) -> None:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise ValueError(f"{where} is not a valid name: a letter or _ first, then letters, digits or _")


def _scalar_text(value: object, where: str) -> str:
    # bool is an int to Python, but `true` is no integer, float or string of the format's
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        written = YAML_WORDS.get(repr(value), f"{value!r:.60}")  # as the author wrote it
        raise ValueError(f"{where}: must be an integer, a float or a string, got {written}")
    return str(value)


def substitute(text: str, constants: Constants) -> str:
    """``text`` with each ``{{name}}`` / ``{{name.variant}}`` of a defined constant replaced."""
    if not constants or "{{" not in text:
        return text
    return _SEQUENCE.sub(lambda match: constants.get(match.group(1), match.group(0)), text)


def substitute_data(value: Any, constants: Constants) -> Any:
    """YAML data (settings) with the constants substituted in its strings."""
    if isinstance(value, str):
        return substitute(value, constants)
    if isinstance(value, dict):
        return {key: substitute_data(item, constants) for key, item in value.items()}
    if isinstance(value, list):
        return [substitute_data(item, constants) for item in value]
    return value


def substitute_latex(text: str, constants: Constants) -> str:
    """A LaTeX statement with each ``\\constant{name}`` of a defined constant replaced."""
    if not constants or "\\constant" not in text:
        return text
    return _LATEX_COMMAND.sub(lambda match: constants.get(match.group(1), match.group(0)), text)


def substitute_file(content: bytes, constants: Constants) -> bytes:
    """A program's file with the constants substituted; a file that is not UTF-8 text (an image,
    a compiled library) is left as it is."""
    if not constants or b"{{" not in content:
        return content
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError:
        return content
    return substitute(text, constants).encode("utf-8")


def substitute_files(files: dict[str, bytes], constants: Constants) -> dict[str, bytes]:
    """A program's files (relative name: content), each substituted."""
    return {name: substitute_file(content, constants) for name, content in files.items()}
