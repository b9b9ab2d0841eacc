"""problem.yaml's ``constants`` (2025-09, "Constants"): named values written once and substituted
as ``{{name}}`` or ``{{name.variant}}`` into the package's own programs (input and output
validators, generators, included files, example submissions), its ``test_group.yaml`` files and
Markdown statements, and as ``\\constant{name}`` into LaTeX statements. Test data and problem.yaml
itself are never substituted, nor is a sequence naming no constant (it stays as written).

A constant's value is a scalar or a mapping with a ``value`` and variants (other spellings of the
same value, e.g. ``tex: 5,000,000``); ``{{name}}`` is ``{{name.value}}``.
"""

from __future__ import annotations

import ast
import math
import operator
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


def undefined_in(text: str, constants: Constants, latex: bool = False) -> list[str]:
    """The constant sequences of ``text`` (``\\constant{...}`` commands in LaTeX) that name no
    constant, as written, each once."""
    pattern, written = (_LATEX_COMMAND, "\\constant{{{}}}") if latex else (_SEQUENCE, "{{{{{}}}}}")
    names = dict.fromkeys(match.group(1) for match in pattern.finditer(text))
    return [written.format(name) for name in names if name not in constants and name not in STATEMENT_COMMANDS]


# Markdown statements' own {{...}} commands (2025-09, "Markdown environment"): not constants.
STATEMENT_COMMANDS = ("nextsample", "remainingsamples")


def mismatched_variants(constants: Constants) -> list[str]:
    """Variants that spell a number other than their constant's value ("5,000,000" and
    "5 \\cdot 10^6" spell 5000000; "five" spells no number: nothing to say), as "name.variant"."""
    wrong = []
    for key, text in constants.items():
        name, _, variant = key.partition(".")
        if not variant or variant == "value":
            continue
        value = _number(constants[name])
        spelled = [number for number in map(_number, _readings(text)) if number is not None]
        if value is not None and spelled and not any(math.isclose(number, value) for number in spelled):
            wrong.append(key)
    return wrong


def _readings(text: str) -> list[str]:
    """A variant as plain arithmetic, read with ',' as thousands separator and as decimal point."""
    plain = re.sub(r"\\[,;!: ]|[{}~\s$]", "", text)
    plain = re.sub(r"\\cdot|\\times|×|·", "*", plain).replace("^", "**")
    return [plain.replace(",", ""), plain.replace(",", ".")]


def _number(text: str) -> float | None:
    """The value of a number or a small arithmetic expression of numbers, else None."""
    try:
        return float(_evaluate(ast.parse(text, mode="eval").body))
    except (SyntaxError, ValueError, TypeError, OverflowError, ZeroDivisionError):
        return None


_OPERATORS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}


def _evaluate(node: ast.AST) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
        number = _evaluate(node.operand)
        return number if isinstance(node.op, ast.UAdd) else -number
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        base, exponent = _evaluate(node.left), _evaluate(node.right)
        if abs(exponent) > 400:  # no 10^10^10 to compute
            raise ValueError("exponent too large")
        return float(base) ** exponent
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_evaluate(node.left), _evaluate(node.right))
    raise ValueError("not arithmetic")
