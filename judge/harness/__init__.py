"""Files that run inside the sandbox next to a submission. They import nothing of the judge."""

SERVER_FILE = "server.py"
