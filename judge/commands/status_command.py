"""`judge status`: your submissions to a course's judge (`judge serve`), oldest first, with their
state and verdict; a teacher's token with --all lists the class's."""

from __future__ import annotations

import argparse
import datetime

from judge.commands import EXIT_OK
from judge.course_server.client import SERVER_ENV, Client, connection


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--server", help=f"the course judge's address (default ${SERVER_ENV}, else `judge login`'s)")
    parser.add_argument("--all", action="store_true", help="every student's submissions (a teacher's token)")


def handle(args: argparse.Namespace) -> int:
    client = Client(*connection(args.server))
    uploads = client.submissions(args.all)
    if not uploads:
        print("no submissions yet")
        return EXIT_OK
    print(f"{'#':>5}  {'when':16}  {'student':12}  {'problem':12}  {'file':20}  {'state':8}  verdict  score")
    for upload in uploads:
        when = datetime.datetime.fromtimestamp(upload["submitted_at"]).strftime("%Y-%m-%d %H:%M")
        score = f"{upload['score']:g}/{upload['max_score']:g}" if upload["score"] is not None else ""
        print(f"{upload['id']:>5}  {when:16}  {upload['student']:12}  {upload['problem']:12}  "
              f"{upload['file_name']:20}  {upload['state']:8}  {upload['verdict'] or '':7}  {score}")
    return EXIT_OK
