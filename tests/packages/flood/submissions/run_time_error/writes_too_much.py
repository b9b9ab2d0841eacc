# Answers, then writes 2 MiB of blanks (twice the limit): the write past the limit raises. OLE.
print(int(input()))
print(" " * (2 << 20))
