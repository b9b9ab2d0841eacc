# Right, and a different pair from the reference's: the last pair, searched from the right.
count, target = map(int, input().split())
values = list(map(int, input().split()))
seen = {}
for position in range(count, 0, -1):
    value = values[position - 1]
    if target - value in seen:
        print(position, seen[target - value])
        break
    seen.setdefault(value, position)
