n = int(input())
print(n * n if n % 2 == 1 else n * n + 1)  # right for odd n only
