"""Checker for `pairsum`: any two positions i < j whose values add up to T are right.

The judge gives a custom checker the case's input when it asks for it by name (``input``);
``expected`` is the reference's answer, which this checker does not need.
"""


def check(got: str, expected: str, *, input: str) -> tuple[bool, str]:
    tokens = input.split()
    count, target = int(tokens[0]), int(tokens[1])
    values = [int(token) for token in tokens[2:2 + count]]
    answer = got.split()
    if len(answer) != 2 or not all(token.lstrip("-").isdigit() for token in answer):
        return False, f"expected two positions, got {got.strip()[:40]!r}"
    first, second = map(int, answer)
    if not 1 <= first < second <= count:
        return False, f"positions must satisfy 1 <= i < j <= {count}, got {first} {second}"
    total = values[first - 1] + values[second - 1]
    if total != target:
        return False, f"a_{first} + a_{second} = {total}, not {target}"
    return True, ""
