"""The problem setter's own code and the judge's stand-ins for it: the reference solver, validator
and strategies of a suite (Python files loaded in the judge), the checkers, and the Hypothesis
search that drives a strategy."""
