"""A test data group's verdict and score from its sub-results, one "VERDICT SCORE" line each on
standard input: accepted if any sub-result is, else the first one's verdict; the scores summed.
Flags: ignore_sample (only the last sub-result counts: secret's, at the top), cap N (the score
at most N)."""

import sys

flags = sys.argv[1:]
results = [line.split() for line in sys.stdin if line.strip()]
if "ignore_sample" in flags:
    results = results[-1:]
cap = float(flags[flags.index("cap") + 1]) if "cap" in flags else float("inf")
verdicts = [verdict for verdict, _ in results]
score = min(sum(float(score) for _, score in results), cap)
print("AC" if "AC" in verdicts else verdicts[0], score)
