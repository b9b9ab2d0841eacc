# Typical mistake: the parity is the wrong way round.
n = int(input())
print("SK" if n % 2 == 0 else "CY")
