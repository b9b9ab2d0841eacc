def square(n):
    return n * abs(n) if n > 0 else n * 2
