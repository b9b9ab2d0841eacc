"""Typed signatures of function-style problems, in a small language-neutral vocabulary.

A function-style suite may declare the function its submissions define::

    signature:
      name: solution                # optional; the function is always `solution`
      returns: int
      params:
        - {name: board, type: "int[][]"}
        - {name: aloc, type: "int[]"}

Types: ``int`` (32-bit), ``long`` (64-bit), ``double``, ``bool``, ``string`` and 1-D (``T[]``)
and 2-D (``T[][]``) arrays of them. From the signature each language derives the declaration
it shows and the harness that calls the submission (``judge/languages/functions/``); Python and
JavaScript need none, typed languages (C, C++, Java) need one.

What the vocabulary promises every harness, and the suite loader checks for every case:
ints fit their width, doubles are finite, strings are UTF-8 text without NUL characters, and
2-D arrays are rectangular (C receives one column count for all rows).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

FUNCTION_NAME = "solution"
SCALARS = ("int", "long", "double", "bool", "string")
MAX_DEPTH = 2
INT_RANGES = {"int": (-(2**31), 2**31 - 1), "long": (-(2**63), 2**63 - 1)}
TYPE_PATTERN = re.compile(r"^\s*(\w+)\s*((?:\[\s*\]\s*)*)$")
IDENTIFIER = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")
# Words no parameter or function may be called, because some supported language reserves them.
RESERVED = frozenset({
    "abstract", "and", "as", "assert", "async", "auto", "await", "bool", "boolean", "break", "byte", "case",
    "catch", "char", "class", "const", "constexpr", "continue", "def", "default", "del", "delete", "do", "double",
    "elif", "else", "enum", "except", "export", "extends", "extern", "false", "final", "finally", "float", "for",
    "friend", "from", "function", "global", "goto", "if", "implements", "import", "in", "instanceof", "int",
    "interface", "is", "lambda", "let", "long", "main", "namespace", "native", "new", "nonlocal", "not", "null",
    "or", "package", "pass", "private", "protected", "public", "raise", "register", "restrict", "return", "short",
    "signed", "sizeof", "static", "string", "struct", "super", "switch", "synchronized", "template", "this",
    "throw", "throws", "transient", "true", "try", "typedef", "typename", "typeof", "union", "unsigned", "using",
    "var", "vector", "virtual", "void", "volatile", "while", "with", "yield", "size_t", "std", "None", "True",
    "False", "String", "Solution"
})


class SignatureError(ValueError):
    """A signature (or a value given for it) does not fit the vocabulary; the message says how."""


@dataclass(frozen=True)
class Type:
    """A vocabulary type: a scalar, or an array (``depth`` 1) or 2-D array (``depth`` 2) of one."""

    scalar: str
    depth: int = 0

    def __str__(self) -> str:
        return self.scalar + "[]" * self.depth

    @property
    def element(self) -> Type:
        """The type of this array's elements."""
        return Type(self.scalar, self.depth - 1)


@dataclass(frozen=True)
class Param:
    name: str
    type: Type


@dataclass(frozen=True)
class Signature:
    """The function a function-style problem's submissions define."""

    name: str
    returns: Type
    params: tuple[Param, ...]

    def __str__(self) -> str:
        return f"{self.returns} {self.name}({', '.join(f'{p.type} {p.name}' for p in self.params)})"


def parse_type(text: Any) -> Type:
    """``"int[][]"`` -> Type("int", 2); SignatureError naming the vocabulary otherwise."""
    match = TYPE_PATTERN.match(text) if isinstance(text, str) else None
    if not match or match.group(1) not in SCALARS:
        raise SignatureError(f"unknown type {text!r}; use one of {', '.join(SCALARS)}, "
                             f"optionally followed by [] or [][]")
    depth = match.group(2).count("[")
    if depth > MAX_DEPTH:
        raise SignatureError(f"type {text!r} has {depth} dimensions; at most {MAX_DEPTH} are supported")
    return Type(match.group(1), depth)


def parse_signature(data: Any) -> Signature:
    """A Signature from a suite's ``signature:`` mapping; SignatureError saying what is wrong."""
    if not isinstance(data, dict):
        raise SignatureError("must be a mapping {name: solution, returns: TYPE, params: [{name: ..., type: ...}]}")
    unknown = set(data) - {"name", "returns", "params"}
    if unknown:
        raise SignatureError(f"unknown field(s) {', '.join(sorted(map(str, unknown)))}; "
                             f"the fields are name, returns and params")
    name = data.get("name", FUNCTION_NAME)
    if name != FUNCTION_NAME:
        raise SignatureError(f"field 'name' must be {FUNCTION_NAME!r} (every language's harness calls "
                             f"`{FUNCTION_NAME}`, as Programmers does), got {name!r}")
    if "returns" not in data:
        raise SignatureError("missing field 'returns' (the type the function returns)")
    returns = parse_type(data["returns"])
    raw_params = data.get("params")
    if not isinstance(raw_params, list):
        raise SignatureError("field 'params' must be a list of {name: ..., type: ...}")
    params = tuple(_param(raw, index) for index, raw in enumerate(raw_params, 1))
    _check_distinct_names(params, returns)
    return Signature(name, returns, params)


def _param(raw: Any, index: int) -> Param:
    if not isinstance(raw, dict) or set(raw) != {"name", "type"}:
        raise SignatureError(f"parameter #{index} must be a mapping {{name: ..., type: ...}}, got {raw!r:.60}")
    name = _identifier(raw["name"], f"parameter #{index}'s name")
    try:
        return Param(name, parse_type(raw["type"]))
    except SignatureError as error:
        raise SignatureError(f"parameter {name}: {error}") from None


def _identifier(value: Any, what: str) -> str:
    if not isinstance(value, str) or not IDENTIFIER.match(value):
        raise SignatureError(f"{what} must be an identifier (a letter, then letters, digits or _), got {value!r}")
    if value in RESERVED or value.lower().startswith("judge"):
        reason = "the judge's harness uses names starting with judge" if value.lower().startswith("judge") \
            else "it is reserved in a supported language"
        raise SignatureError(f"{what} {value!r} cannot be used: {reason}; choose another")
    return value


def _check_distinct_names(params: tuple[Param, ...], returns: Type) -> None:
    """Parameter names, and the length parameters C adds for arrays, must not collide."""
    seen: set[str] = set()
    for name in [*(name for param in params for name in (param.name, *length_names(param.name, param.type))),
                 *length_names("return", returns)]:
        if name in seen:
            raise SignatureError(f"parameter name {name!r} is used twice (C adds `<array>_len`, "
                                 f"`<array>_rows` and `<array>_cols` after arrays, `return_len` "
                                 f"or `return_rows` and `return_cols` for an array result)")
        seen.add(name)


def length_names(name: str, type_: Type) -> tuple[str, ...]:
    """The lengths that go with an array in C: after an array parameter (Programmers'
    convention), or as pointers the function sets when it returns an array."""
    if type_.depth == 1:
        return (f"{name}_len",)
    if type_.depth == 2:
        return (f"{name}_rows", f"{name}_cols")
    return ()


# ---------------------------------------------------------------------------------------------
# Values

def check_arguments(signature: Signature, args: list | tuple) -> None:
    """SignatureError naming the first argument that does not fit its parameter's type."""
    if len(args) != len(signature.params):
        raise SignatureError(f"{len(args)} arguments given, but {signature.name} takes "
                             f"{len(signature.params)} ({', '.join(p.name for p in signature.params)})")
    for param, value in zip(signature.params, args):
        problem = value_problem(param.type, value)
        if problem:
            raise SignatureError(f"argument {param.name} ({param.type}): {problem}")


def value_problem(type_: Type, value: Any) -> str | None:
    """Why ``value`` is not a value of ``type_``, or None when it is."""
    if type_.depth == 0:
        return _scalar_problem(type_.scalar, value)
    if not isinstance(value, list):
        return f"expected a list, got {value!r:.40}"
    if type_.depth == 2 and len({len(row) if isinstance(row, list) else -1 for row in value}) > 1:
        return "the rows of a 2-D array must all have the same length"
    for index, item in enumerate(value):
        problem = value_problem(type_.element, item)
        if problem:
            return f"[{index}]: {problem}"
    return None


def _scalar_problem(scalar: str, value: Any) -> str | None:
    if scalar == "bool":
        return None if isinstance(value, bool) else f"expected true or false, got {value!r:.40}"
    if scalar == "string":
        if not isinstance(value, str):
            return f"expected a string, got {value!r:.40}"
        if "\0" in value:
            return "strings may not contain NUL characters"
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return "strings must be valid Unicode text (no lone surrogates)"
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"expected a number, got {value!r:.40}"
    if scalar == "double":
        return None if math.isfinite(value) else f"doubles must be finite, got {value!r}"
    low, high = INT_RANGES[scalar]
    if not isinstance(value, int):
        return f"expected a whole number, got {value!r}"
    return None if low <= value <= high else f"{value} does not fit a {scalar} ({low} to {high})"
