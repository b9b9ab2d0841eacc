input()
print("seventeen")
