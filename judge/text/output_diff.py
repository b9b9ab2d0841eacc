"""Where a program's output first differs from the expected one, for showing people (the
checkers decide the verdict; this only points at the place). Lines are compared as the default
checker reads them: trailing whitespace of a line and trailing blank lines do not count."""

from __future__ import annotations

from dataclasses import dataclass

from judge.text.terminal import ELLIPSIS, cut
from judge.text.visible_text import visible


def expected_label(one_right_output: bool) -> str:
    """What the expected output is called where it is shown beside a program's: where other
    outputs may be right too (``Problem.one_right_output``), it is one right output of several."""
    return "expected" if one_right_output else "expected (one right output; the checker may accept others)"


@dataclass(frozen=True)
class Difference:
    line: int  # 0-based index of the first differing line
    column: int  # 0-based index of the first differing character in that line


def comparable_lines(text: str) -> list[str]:
    """``text``'s lines without trailing whitespace, trailing blank lines dropped."""
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def first_difference(expected: str, got: str) -> Difference | None:
    """The first place where ``got`` differs from ``expected``; None when they read the same."""
    want, have = comparable_lines(expected), comparable_lines(got)
    for index in range(max(len(want), len(have))):
        a = want[index] if index < len(want) else None
        b = have[index] if index < len(have) else None
        if a != b:
            return Difference(index, _common_prefix(a or "", b or ""))
    return None


def _common_prefix(a: str, b: str) -> int:
    length = 0
    for x, y in zip(a, b):
        if x != y:
            break
        length += 1
    return length


def excerpt(text: str, difference: Difference | None, width: int, context: int = 1,
            head: int = 5) -> list[str]:
    """A few lines of ``text`` for a terminal ``width`` wide: around the difference (``context``
    lines each side, the differing one marked with ``>`` and a caret under its first differing
    character), or its first ``head`` lines when there is none."""
    lines = comparable_lines(text)
    if not lines:
        return ["  (nothing)"]
    if difference is None:
        start, stop = 0, min(len(lines), head)
    else:
        start, stop = max(0, difference.line - context), min(len(lines), difference.line + context + 1)
    number_width = len(str(stop))
    text_width = max(10, width - number_width - 5)
    shown = [f"  ({start} lines before)"] if start else []
    for index in range(start, stop):
        marked = difference is not None and index == difference.line
        if marked:  # the caret stays under its character once the controls before it are escapes
            line = lines[index]
            column = len(visible(line[:difference.column], one_line=True))
            line, caret = window(visible(line, one_line=True), column, text_width)
        else:
            line, caret = cut(lines[index], text_width), None
        shown.append(f"{'>' if marked else ' '} {index + 1:>{number_width}} | {line}")
        if caret is not None:
            shown.append(" " * (number_width + 5 + caret) + "^")
    if difference is not None and difference.line >= len(lines):
        shown.append(f"> {'':>{number_width}} | (ends after line {len(lines)})")
    if stop < len(lines):
        shown.append(f"  ({len(lines) - stop} more lines)")
    return shown


def window(line: str, column: int, width: int) -> tuple[str, int]:
    """``line`` cut to ``width`` characters so that ``column`` stays visible; returns the text
    and where ``column`` lands in it."""
    if len(line) <= width:
        return line, column
    start = 0 if column < width - 10 else column - width // 2
    shown = line[start:]
    prefix = ELLIPSIS if start else ""
    shown = prefix + shown
    if len(shown) > width:
        shown = shown[:width - 1] + ELLIPSIS
    return shown, column - start + len(prefix)
