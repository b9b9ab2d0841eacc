# Rounds to a whole number: 0.75 is not 1.
a, b = map(float, input().split())
print(round(a + b))
