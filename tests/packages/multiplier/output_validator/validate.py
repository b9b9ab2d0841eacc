"""Accepts the exact double (multiplier 1) or one off by one (multiplier 0.5)."""
import sys

answer = int(open(sys.argv[2]).read())
try:
    got = int(sys.stdin.read())
except ValueError:
    sys.exit(43)
if abs(got - answer) > 1:
    sys.exit(43)
with open(sys.argv[3] + "/score_multiplier.txt", "w") as feedback:
    feedback.write("1\n" if got == answer else "0.5\n")
sys.exit(42)
