print(2 * int(input()) + 1)
