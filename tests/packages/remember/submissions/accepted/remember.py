"""The number in base 26 with the letters a-z, most significant first; and back."""
kind = input().strip()
value = input().strip()
if kind == "encode":
    number, note = int(value), ""
    while True:
        number, digit = divmod(number, 26)
        note = chr(ord("a") + digit) + note
        if number == 0:
            break
    print(note)
else:
    number = 0
    for letter in value:
        number = number * 26 + ord(letter) - ord("a")
    print(number)
