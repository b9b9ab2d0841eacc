"""Writes the least significant letter first but reads the most significant first: right on
one-letter notes only, wrong in pass 2 of the others."""
kind = input().strip()
value = input().strip()
if kind == "encode":
    number, note = int(value), ""
    while True:
        number, digit = divmod(number, 26)
        note += chr(ord("a") + digit)
        if number == 0:
            break
    print(note)
else:
    number = 0
    for letter in value:
        number = number * 26 + ord(letter) - ord("a")
    print(number)
