# Tries to reach a server on the host's loopback; the port comes on stdin.
import socket
import sys

port = int(sys.stdin.read())
try:
    socket.create_connection(("127.0.0.1", port), timeout=2).close()
    print("CONNECTED", port)
except OSError as error:
    print("refused:", error)
