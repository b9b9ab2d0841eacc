"""Answers pass 1 at once, then never answers pass 2: the time limit applies to each pass."""
kind = input().strip()
value = input().strip()
if kind == "encode":
    print("a" if value == "0" else "b")
else:
    while True:
        pass
