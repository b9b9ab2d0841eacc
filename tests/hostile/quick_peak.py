# Touches 200 MiB, under a 128 MiB limit, then answers and ends before the judge's next look at
# it: the peak must still be seen (it is in the usage of the process that reaped it).
block = bytearray(200 << 20)
for offset in range(0, len(block), 4096):
    block[offset] = 1
n = int(input())
print("SK" if n % 2 else "CY")
