# Allocates and touches memory without bound.
blocks = []
while True:
    blocks.append(bytearray(1 << 20))
