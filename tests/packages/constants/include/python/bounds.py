"""Included with every Python submission: the problem's bounds, from its constants."""
MAX_N = {{max_n}}
FACTOR = {{factor}}
