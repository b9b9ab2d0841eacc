"""Files that run inside the sandbox next to a submission. They import nothing of the judge."""

SERVER_FILE = "server.py"
# Starts a Python script as the interpreter would, with exit() and quit() (python_start.py).
START_FILE = "start.py"
# Both compiled by the interpreter that runs them (see judge/languages/python.py).
SERVER_BYTECODE = "server.pyc"
START_BYTECODE = "start.pyc"
