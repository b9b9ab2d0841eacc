"""Input validator for `stones`: one integer 1 <= N <= 1000."""


def validate(text: str) -> None:
    """Raise ValueError naming what is wrong with the input."""
    tokens = text.split()
    if len(tokens) != 1:
        raise ValueError(f"expected exactly one integer, found {len(tokens)} tokens")
    if not tokens[0].isdigit():
        raise ValueError(f"N must be a positive integer, got {tokens[0]!r}")
    if not 1 <= int(tokens[0]) <= 1000:
        raise ValueError(f"N must be between 1 and 1000, got {tokens[0]}")


# Malformed inputs the validator must reject (checked by `judge test`).
INVALID_EXAMPLES = ["0\n", "1001\n", "5 6\n", "five\n", ""]
