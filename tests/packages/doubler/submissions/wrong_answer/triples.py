while True:
    number = int(input())
    if number == 0:
        break
    print(3 * number, flush=True)
