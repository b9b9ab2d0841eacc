"""Text from a submission, a student's file name or a problem's programs, made safe to show: every
character that would act instead of being seen is written as a visible escape.

A terminal obeys control characters (ESC starts sequences that clear the screen or set its
title), and a terminal or browser reverses text after a bidirectional override (U+202E), so a
name can read as another. Shown instead: C0 controls (except the newline and the tab, which lay
out text), DEL and C1 controls as ``\\x1b``; bidirectional marks, embeddings, overrides and
isolates as ``\\u202e``; a lone surrogate (a file name's byte that is not UTF-8, as Python reads
it) as the byte, ``\\xff``. Everything else, backslashes included, is shown as it is. XML 1.0
forbids the same control characters even as character references, so the JUnit report uses this
too; JSON output keeps the true strings.
"""

from __future__ import annotations

import re

_ACTING = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]")
_ACTING_IN_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]")


def _escape(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the undecodable byte itself
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def visible(text: str, *, one_line: bool = False) -> str:
    """``text`` with its control characters and bidirectional formatting shown as escapes;
    ``one_line``: the newline and the tab too (for a table cell or a single line of a message)."""
    pattern = _ACTING_IN_LINE if one_line else _ACTING
    return pattern.sub(lambda match: _escape(match.group()), text)
