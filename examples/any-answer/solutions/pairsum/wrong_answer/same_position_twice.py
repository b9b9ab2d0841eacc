# Wrong: may pair a value with itself (4 + 4 = 8 from one 4), and prints i = j.
count, target = map(int, input().split())
values = list(map(int, input().split()))
for i in range(count):
    if target - values[i] in values:
        print(i + 1, values.index(target - values[i]) + 1)
        break
