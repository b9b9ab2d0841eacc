"""The default output validator: its rules, and the same verdict as problemtools' compiled
default_validator on Hypothesis-generated outputs."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from problemtools_files import default_validator_binary, run_default_validator

from judge.formats.icpc.default_validator import FlagError, parse_float, validate


def ok(output: str, answer: str, *flags: str) -> bool:
    return validate(output.encode(), answer.encode(), list(flags)).ok


def test_tokens_ignore_amounts_of_whitespace_and_case_by_default():
    assert ok("Hello   World\n\n", "hello world\n")
    assert ok("1\n2", "1 2\n")
    assert not ok("hello", "hello world")
    assert not ok("hello world again", "hello world")


def test_case_sensitive_and_space_change_sensitive():
    assert not ok("Hello", "hello", "case_sensitive")
    assert ok("hello", "hello", "case_sensitive")
    assert not ok("1  2\n", "1 2\n", "space_change_sensitive")
    assert not ok("1 2", "1 2\n", "space_change_sensitive")
    assert ok("1 2\n", "1 2\n", "space_change_sensitive")


def test_float_tolerances_either_suffices_once_set():
    assert not ok("0.30000001", "0.3")  # no tolerance: tokens compare as strings
    assert ok("0.30000001", "0.3", "float_tolerance", "1e-6")
    assert ok("3.14e-2", "0.0314", "float_absolute_tolerance", "1e-9")
    assert ok("1000001", "1000000", "float_relative_tolerance", "1e-6")
    assert not ok("1000001", "1000000", "float_absolute_tolerance", "1e-6")
    assert ok("1000001", "1000000", "float_absolute_tolerance", "1e-6", "float_relative_tolerance", "1e-6")
    assert not ok("abc", "1.5", "float_tolerance", "1")  # a number was expected
    assert ok("ABC", "abc", "float_tolerance", "1")  # answer tokens that are not numbers compare as strings


def test_what_counts_as_a_float_follows_c():
    assert parse_float(b"1e5") == 1e5 and parse_float(b"0x1p3") == 8.0 and parse_float(b"-.5") == -0.5
    assert parse_float(b"1e") == 1.0  # scanf reads an exponent marker without digits
    for token in (b"inf", b"nan", b"1e400", b"0x", b"1,5", b"1_000", b".", b"1e5x"):
        assert parse_float(token) is None, token


def test_unknown_flags_are_refused():
    with pytest.raises(FlagError, match="unknown default validator flag 'float_tol'"):
        validate(b"1", b"1", ["float_tol", "1"])
    with pytest.raises(FlagError, match="needs a number"):
        validate(b"1", b"1", ["float_tolerance"])


def test_messages_say_where_and_what():
    result = validate(b"1 2\n3 5\n", b"1 2\n3 4\n")
    assert result.message.startswith("line 2, token 2 of the output (line 2 of the answer): expected '4', got '5'")
    # The token is counted on its own line, past blank lines and runs of spaces.
    result = validate(b"1 2\n\n  7   8   9 10\n", b"1 2\n7 8 0 10\n")
    assert result.message.startswith("line 3, token 3 of the output (line 2 of the answer): expected '0', got '9'")
    assert validate(b"1\n", b"1 2\n").message == \
        "line 2 of the output (line 1 of the answer): output ended while the answer has more (next answer token: '2')"


# ---------------------------------------------------------------------------------------------
# Against the reference implementation

NUMBERISH = "0123456789.eE+-xXpPaAfFinIN"
# Bytes that are not ASCII whitespace, so part of a token: NUL, other control bytes (\x1c-\x1f
# are whitespace to Python's str.split, not to C), DEL and bytes above ASCII.
CONTROL = [b"\0", b"\x01", b"\x07", b"\x08", b"\x0e", b"\x1b", b"\x1c", b"\x1f", b"\x7f", b"\x80", b"\xa0", b"\xff"]
token = st.one_of(
    st.text(alphabet=NUMBERISH, min_size=1, max_size=8).map(str.encode),
    st.text(alphabet="abcABC", min_size=1, max_size=4).map(str.encode),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(repr).map(str.encode),
    st.integers(-10**6, 10**6).map(str).map(str.encode),
    st.lists(st.sampled_from([*CONTROL, b"a", b"A", b"1", b"."]), min_size=1, max_size=4).map(b"".join),
)
mark = st.just(b"\0") | st.sampled_from(CONTROL)  # NUL half the time
# A token with control bytes in it: a number or a word with NUL or another one before, inside or after.
token_with_control = st.builds(lambda head, mark, tail: head + mark + tail, token | st.just(b""),
                               mark, token | st.just(b""))
space = st.sampled_from([b" ", b"  ", b"\n", b"\t", b" \n", b"\r\n", b"\x0b", b"\x0c"])


@st.composite
def texts(draw) -> bytes:
    tokens = draw(st.lists(token | token_with_control, max_size=6))
    parts = [draw(st.sampled_from([b"", b" ", b"\n"]))]
    for item in tokens:
        parts += [item, draw(space)]
    return b"".join(parts)


# How an output's token differs from the answer's: not at all, replaced, or with a control byte
# and more after it ("Hello world!\0Extra_stuff").
change = st.one_of(
    *[st.just(lambda piece: piece)] * 6,
    token.map(lambda new: lambda piece: new),
    st.builds(lambda mark, tail: lambda piece: piece + mark + tail, mark, token | st.just(b"")),
)


@st.composite
def answer_and_output(draw) -> tuple[bytes, bytes]:
    answer = draw(texts())
    if draw(st.booleans()):  # an output near the answer: mostly the same tokens, some changed
        pieces = re.split(rb"([ \t\n\v\f\r]+)", answer)  # tokens at even places, the space between at odd
        changed = [draw(change)(piece) if index % 2 == 0 and piece else piece for index, piece in enumerate(pieces)]
        return answer, b"".join(changed) + draw(st.sampled_from([b"", b"\n", b" ", b"\n\n"]))
    return answer, draw(texts())


flags = st.lists(st.sampled_from([["case_sensitive"], ["space_change_sensitive"],
                                  ["float_tolerance", "1e-6"], ["float_absolute_tolerance", "0.5"],
                                  ["float_relative_tolerance", "0.01"]]), max_size=3).map(
    lambda groups: [flag for group in groups for flag in group])


@pytest.fixture(scope="module")
def reference():
    return default_validator_binary()


def without_nul(output: bytes, answer: bytes) -> tuple[bytes, bytes]:
    """The pair with NUL replaced by a control byte found in neither: what problemtools judges as
    this validator judges the pair itself. problemtools compares tokens as C strings, which end at
    a NUL; any other byte that is not whitespace is compared as a byte of its token, as here."""
    spare = next(byte for byte in (b"\x02", b"\x03", b"\x04", b"\x05", b"\x06") if byte not in output + answer)
    return output.replace(b"\0", spare), answer.replace(b"\0", spare)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pair=answer_and_output(), options=flags)
def test_same_verdict_as_problemtools_default_validator(reference, pair, options):
    answer, output = pair
    with tempfile.TemporaryDirectory() as work:
        expected = run_default_validator(reference, *without_nul(output, answer), options, Path(work))
    assert expected in (42, 43)
    assert validate(output, answer, options).ok == (expected == 42), (output, answer, options)


def test_a_nul_byte_is_part_of_its_token_where_problemtools_ends_the_token(reference, tmp_path):
    """DOMjudge's test-hello-nullbyte.c: printf("Hello world!%cExtra_stuff...\n", 0)."""
    output, answer = b"Hello world!\0Extra_stuff...\n", b"Hello world!\n"
    result = validate(output, answer)
    assert not result.ok and "Extra_stuff" in result.message
    assert not validate(b"3\0junk\n", b"3\n", ["float_tolerance", "1e-6"]).ok  # not a number: junk follows
    assert validate(b"Hello world!\0Extra\n", b"hello WORLD!\0extra\n").ok
    # problemtools accepts both: its tokens are C strings, cut at the NUL.
    assert run_default_validator(reference, output, answer, [], tmp_path) == 42
    assert run_default_validator(reference, b"3\0junk\n", b"3\n", ["float_tolerance", "1e-6"], tmp_path) == 42
