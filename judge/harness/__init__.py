"""Files that run inside the sandbox next to a submission. They import nothing of the judge."""

from pathlib import Path

HARNESS_DIR = Path(__file__).resolve().parent  # where the judge reads them from

SERVER_FILE = "server.py"
# The other languages' warm server: it execs the prepared command in each case's child.
EXEC_SERVER_FILE = "exec_server.py"
# Starts a Python script as the interpreter would, with exit() and quit() (python_start.py).
START_FILE = "start.py"
# Both compiled by the interpreter that runs them (see judge/languages/python.py).
SERVER_BYTECODE = "server.pyc"
START_BYTECODE = "start.pyc"
# A function-style Python program's caller (function_call.py), beside the submission.
FUNCTION_HARNESS_FILE = "harness.py"
