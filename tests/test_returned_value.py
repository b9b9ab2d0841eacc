"""The bounded decoder of function-style returned values: depth and size bounds, strings that
hold brackets, and every malformed text an UnreadableValue (never RecursionError)."""

from __future__ import annotations

import pytest

from judge.model.returned_value import MAX_DEPTH, UnreadableValue, decode_returned_value, nesting_depth


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_values_up_to_the_depth_bound_are_read():
    assert decode_returned_value(nested(MAX_DEPTH)) is not None
    assert decode_returned_value('{"a": [1, {"b": [2.5, null]}], "c": "x"}') == {"a": [1, {"b": [2.5, None]}], "c": "x"}
    assert decode_returned_value("[" + ",".join(["[1]"] * 5000) + "]")[-1] == [1]  # many brackets, shallow


def test_deeper_values_are_refused_without_recursing():
    with pytest.raises(UnreadableValue, match=r"nested 101 levels deep \(at most 100\)"):
        decode_returned_value(nested(MAX_DEPTH + 1))
    for text in ("[" * 200_000, '{"a":' * 200_000, "[" * 5000 + '"never closed'):
        with pytest.raises(UnreadableValue, match="levels deep"):
            decode_returned_value(text)


def test_brackets_inside_strings_do_not_count():
    text = '["' + "[" * 500 + '\\"' + "{" * 500 + '"]'
    assert nesting_depth(text) == 1
    assert decode_returned_value(text) == ["[" * 500 + '"' + "{" * 500]
    assert nesting_depth('[[1], "' + "[" * 300) == 2  # an unclosed string: what follows is inside it


def test_malformed_and_oversized_values_are_unreadable():
    for text in ("", "oops", "[1, 2", "\ufffd\x00{", "1" * 5000):
        with pytest.raises(UnreadableValue, match="not JSON"):
            decode_returned_value(text)
    with pytest.raises(UnreadableValue, match=r"11 characters long \(at most 10\)"):
        decode_returned_value("[1,2,3,4,5]", max_chars=10)
