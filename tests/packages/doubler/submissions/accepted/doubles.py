while True:
    number = int(input())
    if number == 0:
        break
    print(2 * number, flush=True)
