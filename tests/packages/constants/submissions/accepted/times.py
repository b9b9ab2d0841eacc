from bounds import FACTOR, MAX_N

n = int(input())
assert n <= MAX_N
print(FACTOR * n)
