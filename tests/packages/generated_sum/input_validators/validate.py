"""Valid input: one line of two integers of at most 10^9 in absolute value."""
import sys

words = sys.stdin.read().split("\n")
numbers = words[0].split()
if len(words) != 2 or words[1] or len(numbers) != 2 or any(abs(int(n)) > 10**9 for n in numbers):
    print("expected one line of two integers within 10^9", file=sys.stderr)
    sys.exit(43)
sys.exit(42)
