# A results list after @EXPECTED_SCORE@ reads as @EXPECTED_RESULTS@ (as in DOMjudge).
# @EXPECTED_SCORE@: CORRECT
print(input())
