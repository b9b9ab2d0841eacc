n = int(input()
print("SK" if n % 2 else "CY")
