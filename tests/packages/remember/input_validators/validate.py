"""A case's input (the first pass's): "encode", then a number from 0 to 999999999."""
import re
import sys

text = sys.stdin.read()
match = re.fullmatch(r"encode\n(0|[1-9][0-9]{0,8})\n", text)
sys.exit(42 if match else 43)
