"""Input validator for `pairsum`: N and T, then N integers, with at least one pair adding up to T."""


def validate(text: str) -> None:
    lines = text.split("\n")
    if len(lines) < 2:
        raise ValueError("expected two lines: N T, then N integers")
    head, values = lines[0].split(), lines[1].split()
    if len(head) != 2:
        raise ValueError(f"the first line must hold N and T, got {lines[0]!r}")
    count, target = int(head[0]), int(head[1])
    if not 2 <= count <= 100_000 or len(values) != count:
        raise ValueError(f"expected 2 <= N <= 100000 and N values on the second line, got N = {count} and "
                         f"{len(values)} values")
    numbers = [int(value) for value in values]
    seen = set()
    for value in numbers:
        if target - value in seen:
            return
        seen.add(value)
    raise ValueError("no two values add up to T")


INVALID_EXAMPLES = ["1 2\n2\n", "3 100\n1 2 3\n", "2 3\n1\n"]
