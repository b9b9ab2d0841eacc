"""Reading a function-style submission's returned value: JSON its harness wrote in the sandbox.

The submission can write anything in the harness's place, so the text is decoded with bounds:
at most ``MAX_DEPTH`` nested lists and objects (Python's own decoder recurses once per level and
fails with RecursionError, which would make the case the judge's fault) and at most ``MAX_CHARS``
characters (every decoded value is held in the judge's memory). Anything else is the student's:
``UnreadableValue``, with a short message saying why.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

MAX_DEPTH = 100
MAX_CHARS = 16 << 20  # the default output limit: a returned value is a case's output

# JSON strings (which may hold brackets), then everything that is not a bracket.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)  # unrolled: linear on long strings
_NOT_BRACKET = re.compile(r"[^\[\]{}\"]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class UnreadableValue(ValueError):
    """The returned value is not JSON, or is nested too deep or too large to read."""


def decode_returned_value(text: str, max_depth: int = MAX_DEPTH, max_chars: int = MAX_CHARS) -> Any:
    """The JSON value in ``text``; UnreadableValue if it is malformed, deeper than ``max_depth``
    or longer than ``max_chars``."""
    if len(text) > max_chars:
        raise UnreadableValue(f"the returned value is {len(text)} characters long (at most {max_chars})")
    # Only a text with more brackets than the bound can nest deeper than it.
    depth = nesting_depth(text) if text.count("[") + text.count("{") > max_depth else 0
    if depth > max_depth:
        raise UnreadableValue(f"the returned value is nested {depth} levels deep (at most {max_depth})")
    try:
        return json.loads(text)
    except RecursionError as error:  # a backstop: the depth check above should have caught it
        raise UnreadableValue("the returned value is nested too deep to read") from error
    except ValueError as error:
        raise UnreadableValue(f"the returned value is not JSON ({error})") from error


def nesting_depth(text: str) -> int:
    """How deeply ``text``'s lists and objects nest, counted without decoding (brackets inside
    strings do not count; after a string that is never closed, nothing does)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text)).partition('"')[0]
    return max(accumulate(_STEP[char] for char in brackets), default=0)
