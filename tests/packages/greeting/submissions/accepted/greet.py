print(f"Hello, {input().strip()}!")
