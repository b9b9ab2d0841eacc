"""`judge submit PROBLEM FILE`: send a solution to a course's judge (`judge serve`) and print its
rows as each case is decided, then the summary, as `judge run` prints them, exiting as `judge run`
does (0 on AC). No copy of the problem is needed here. Ctrl-C stops watching, not judging:
`judge status` shows the verdict later."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from judge.commands import EXIT_FAILED
from judge.course_server.client import SERVER_ENV, TOKEN_ENV, Client, connection
from judge.errors import UsageError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("problem", help="the problem's name on the course judge")
    parser.add_argument("file", type=Path, help="your solution's source file")
    parser.add_argument("--server", help=f"the course judge's address (default ${SERVER_ENV}, else `judge login`'s); "
                                         f"the token is ${TOKEN_ENV}, else `judge login`'s")


def handle(args: argparse.Namespace) -> int:
    if not args.file.is_file():
        raise UsageError(f"solution file {args.file} does not exist (or is not a file)")
    client = Client(*connection(args.server))
    sent = client.submit(args.problem, args.file)
    try:
        for event in client.rows(sent["rows"]):
            if "line" in event:
                print(event["line"], flush=True)
            elif event.get("queued"):
                print(f"judge: submission {sent['id']} queued ({event['queued']} waiting)", file=sys.stderr, flush=True)
            elif event.get("done"):
                return event["exit_status"]
    except KeyboardInterrupt:
        print(f"judge: stopped watching; submission {sent['id']} is still judged on the server: `judge status` "
              f"shows its verdict", file=sys.stderr)
        raise
    print(f"judge: the server stopped before judging submission {sent['id']}; `judge status` shows it "
          f"once it is judged", file=sys.stderr)
    return EXIT_FAILED
