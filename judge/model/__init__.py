"""What the judge talks about, as data: a problem and its cases, a run's results and verdicts,
scores, feedback levels, function signatures and the judge's vocabulary. Pure: nothing here runs
a program or reads a problem's files."""
