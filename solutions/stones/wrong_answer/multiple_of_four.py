# Typical mistake: treating it like the 1-2-3 take-away game (losing positions every 4 stones).
n = int(input())
print("CY" if n % 4 == 0 else "SK")
