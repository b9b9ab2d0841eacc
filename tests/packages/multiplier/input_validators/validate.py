import re
import sys

sys.exit(42 if re.fullmatch(r"\d+\n", sys.stdin.read()) else 43)
