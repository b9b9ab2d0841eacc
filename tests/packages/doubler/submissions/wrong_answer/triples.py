import sys

for line in sys.stdin:  # ends quietly when the validator hangs up
    number = int(line)
    if number == 0:
        break
    print(3 * number, flush=True)
