"""Prints a pair of numbers to add."""
print(2, 3)
