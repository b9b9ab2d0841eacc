"""One line with an integer n, 1 <= n <= {{max_n}}; with `--limit L` (test_group.yaml's
input_validator_args, where L is {{max_n}} substituted), also n <= L."""
import re
import sys

text = sys.stdin.read()
if not re.fullmatch(r"[1-9][0-9]*\n", text):
    sys.exit(43)
n = int(text)
limit = int(sys.argv[sys.argv.index("--limit") + 1]) if "--limit" in sys.argv else {{max_n}}
sys.exit(42 if 1 <= n <= min(limit, {{max_n}}) else 43)
