n = int(input())
print(n * n if n % 2 == 0 else n * n - 1)  # right for even n only
