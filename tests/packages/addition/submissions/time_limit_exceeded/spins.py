a, b = map(float, input().split())
while True:
    a += 1
