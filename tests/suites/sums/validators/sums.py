"""Input validator for `sums`: N, then N integers between -10^6 and 10^6."""


def validate(text: str) -> None:
    """Raise ValueError naming what is wrong with the input."""
    lines = text.split("\n")
    if len(lines) != 3 or lines[2] != "":
        raise ValueError("expected two lines")
    n = int(lines[0])
    if not 1 <= n <= 1000:
        raise ValueError(f"N must be between 1 and 1000, got {n}")
    values = [int(word) for word in lines[1].split()]
    if len(values) != n:
        raise ValueError(f"expected {n} integers, found {len(values)}")
    if any(abs(value) > 10**6 for value in values):
        raise ValueError("an integer is out of range")


INVALID_EXAMPLES = ["0\n\n", "2\n1\n", "1\n2000000\n"]
