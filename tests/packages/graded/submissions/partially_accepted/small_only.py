n = int(input())
print(2 * n if n < 10 else n)
