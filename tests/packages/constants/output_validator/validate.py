"""Accepts the team's output when it is {{factor}} times the input's n, as one number."""
import sys

n = int(open(sys.argv[1]).read())
got = sys.stdin.read().split()
sys.exit(42 if got == [str({{factor}} * n)] else 43)
