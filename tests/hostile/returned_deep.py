"""Function style (footholds): writes 200,000 nested `[` where the harness writes the returned
value (its result descriptor, fd 3) and leaves before the harness can. The judge must read it
without recursing: WA, never IE."""
import os


def solution(board, aloc, bloc):
    os.write(3, b"[" * 200_000)
    os._exit(0)
