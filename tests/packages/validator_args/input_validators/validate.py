"""Valid input: one line with one integer from 1 to MAX (the argument `--max MAX`, else 1000)."""
import re
import sys

arguments = sys.argv[1:]
top = int(arguments[arguments.index("--max") + 1]) if "--max" in arguments else 1000
text = sys.stdin.read()
sys.exit(42 if re.fullmatch(r"\d+\n", text) and 1 <= int(text) <= top else 43)
