"""Files that run inside the sandbox next to a submission. They import nothing of the judge."""

SERVER_FILE = "server.py"
# The server compiled by the interpreter that runs it (see judge/languages/python.py).
SERVER_BYTECODE = "server.pyc"
