a, b = map(int, input().split())  # ValueError on 0.5
print(a + b)
