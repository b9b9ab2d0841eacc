"""`judge roster issue ROSTER.csv --db DB`: a token for each student of a course's judge (`judge
serve`), printed once as ``student,token`` lines, stored only hashed; `judge roster revoke NAME`
takes a student's tokens back."""

from __future__ import annotations

import argparse
from pathlib import Path

from judge.classroom.store import DEFAULT_DB, Store
from judge.commands import EXIT_OK
from judge.course_server.submissions import CourseStore
from judge.course_server.tokens import STUDENT, TEACHER, check_name, issue, roster_names
from judge.errors import UsageError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(title="actions", dest="action", metavar="ACTION", required=True)
    issuing = actions.add_parser("issue", help="print a new token for each student of ROSTER (CSV, a 'student' "
                                               "column) and for each --teacher, as student,token lines")
    issuing.add_argument("roster", type=Path, nargs="?", help="CSV with a 'student' column")
    issuing.add_argument("--teacher", action="append", default=[], metavar="NAME",
                         help="also issue a teacher's token for NAME (repeatable)")
    _add_db(issuing)
    revoking = actions.add_parser("revoke", help="revoke every token of these students (or teachers)")
    revoking.add_argument("names", nargs="+", metavar="NAME")
    _add_db(revoking)


def _add_db(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", type=Path, default=DEFAULT_DB,
                        help=f"the course's store, as `judge serve --db` uses it (default {DEFAULT_DB})")


def handle(args: argparse.Namespace) -> int:
    if args.action == "issue" and args.roster is None and not args.teacher:
        raise UsageError("name a roster CSV (with a 'student' column) or a --teacher NAME to issue tokens for")
    students = roster_names(args.roster) if args.action == "issue" and args.roster else []
    for name in args.teacher if args.action == "issue" else args.names:
        check_name(name)
    Store(args.db).close()  # the results store's own tables first: the file is one the judge knows
    store = CourseStore(args.db)
    try:
        if args.action == "issue":
            wanted = [(name, STUDENT) for name in students] + [(name, TEACHER) for name in args.teacher]
            for name, role in wanted:  # every name checked before any token is issued
                check_one_role(store, name, role, wanted)
            for name, role in wanted:
                print(f"{name},{issue(store, name, role)}")
            return EXIT_OK
        for name in args.names:
            count = store.revoke_tokens(name)
            print(f"{name}: {count} token(s) revoked" if count else f"{name}: no token in force")
        return EXIT_OK
    finally:
        store.close()


def check_one_role(store: CourseStore, name: str, role: str, wanted: list[tuple[str, str]]) -> None:
    """A name is a student's or a teacher's, never both: the server keeps submissions by name, so
    a student sharing a teacher's name would list the teacher's submissions as their own."""
    other = TEACHER if role == STUDENT else STUDENT
    if other in store.roles(name) or (name, other) in wanted:
        raise UsageError(f"{name} would be both a student and a teacher; give the teacher another name "
                         f"(submissions are kept by name)")
