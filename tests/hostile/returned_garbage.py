"""Function style (footholds): writes bytes that are not JSON (nor UTF-8) as the returned value,
then leaves before the harness can write the real one: WA, never IE."""
import os


def solution(board, aloc, bloc):
    os.write(3, b"\xff\xfe\x00{\"a\": [1, 2" + b"\x1b]0;owned\x07")
    os._exit(0)
