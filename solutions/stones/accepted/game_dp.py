# Dynamic programming over the game: a position is winning if some move leads to a losing one.
n = int(input())
win = [False] * (n + 1)
for stones in range(1, n + 1):
    win[stones] = any(take <= stones and not win[stones - take] for take in (1, 3))
print("SK" if win[n] else "CY")
