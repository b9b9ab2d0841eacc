"""Input validator for `yutnori`: one line of ten dice rolls, each 1..5."""


def validate(text: str) -> None:
    """Raise ValueError naming what is wrong with the input."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) != 1:
        raise ValueError(f"expected one line of rolls, found {len(lines)} non-empty lines")
    tokens = lines[0].split()
    if len(tokens) != 10:
        raise ValueError(f"expected 10 rolls, found {len(tokens)}")
    for position, token in enumerate(tokens, 1):
        if token not in {"1", "2", "3", "4", "5"}:
            raise ValueError(f"roll {position} must be 1..5, got {token!r}")


# Malformed inputs the validator must reject (checked by `judge test`).
INVALID_EXAMPLES = ["1 2 3\n", "1 2 3 4 5 6 1 2 3 4\n", "1 2 3 4 5 0 1 2 3 4\n", "1 2 3 4 5\n1 2 3 4 5\n"]
