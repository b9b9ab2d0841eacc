"""`judge login --server URL`: keep a course judge's address and your token (asked for, not echoed)
in your configuration file, for `judge submit` and `judge status`."""

from __future__ import annotations

import argparse
import getpass
import os
import sys

from judge.commands import EXIT_OK
from judge.course_server.client import CONFIG_ENV, TOKEN_ENV, Client, save_login
from judge.errors import UsageError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--server", required=True, help="the course judge's address, as your teacher gave it")
    parser.add_argument("--token", help=f"your token (default ${TOKEN_ENV}, else asked for, or read from standard input "
                                        f"when it is piped); the file is "
                                        f"${CONFIG_ENV}, else your system's configuration folder")


def handle(args: argparse.Namespace) -> int:
    token = args.token or os.environ.get(TOKEN_ENV) or _asked_token()
    if not token:
        raise UsageError("no token given; your teacher gives you one")
    server = args.server.rstrip("/")
    Client(server, token).submissions()  # the server knows the token: else its sentence, and nothing kept
    path = save_login(server, token)
    print(f"logged in to {server}; kept in {path}")
    return EXIT_OK


def _asked_token() -> str:
    # Piped in (`judge login --server URL < token.txt`), it is read as it comes: getpass would warn
    # that it cannot hide what no one types.
    if not sys.stdin.isatty():
        return sys.stdin.readline().strip()
    return getpass.getpass("token: ").strip()
