#!/usr/bin/env python3
"""A group's verdict and score from its sub-results ("VERDICT SCORE" lines on stdin), as the
flags ask: sum (the default), min or max of the scores, times weight=N; the first failure's
verdict with first_error, else the worst; accept_if_any_accepted; ignore_sample (the last
sub-result only, which is secret's when the sample group comes first)."""
import sys

SEVERITY = ["JE", "RTE", "MLE", "TLE", "OLE", "WA", "AC"]  # worst first
SCORES = {"sum": sum, "min": min, "max": max}

flags = sys.argv[1:]
results = [line.split() for line in sys.stdin.read().splitlines() if line.strip()]
if "ignore_sample" in flags:
    results = results[-1:]
verdicts = [verdict for verdict, _ in results]
scores = [float(score) for _, score in results]

weight = 1.0
combine = sum
for flag in flags:
    if flag.startswith("weight="):
        weight = float(flag.partition("=")[2])
    combine = SCORES.get(flag, combine)

failures = [verdict for verdict in verdicts if verdict != "AC"]
if "accept_if_any_accepted" in flags and "AC" in verdicts or not failures:
    verdict = "AC"
elif "first_error" in flags:
    verdict = failures[0]
else:
    verdict = min(failures, key=SEVERITY.index)
print(verdict, combine(scores) * weight if scores else 0)
