"""`judge serve --problems DIR --db DB`: a course's judge over HTTP. Students send their files
(`judge submit`, or the page at the printed address) and read back what their assignment's
feedback level shows; the hidden cases, references and checkers never leave this machine.
Tokens come from `judge roster issue`."""

from __future__ import annotations

import argparse
from pathlib import Path

from judge.classroom.assignment import check_problems, load_assignment
from judge.classroom.store import DEFAULT_DB
from judge.commands import EXIT_OK
from judge.commands.common import add_problems_option, add_weak_sandbox_option, positive_int, require_isolation
from judge.course_server.course import Course, Limits
from judge.course_server.serving import serve
from judge.course_server.tokens import roster_names
from judge.errors import UsageError
from judge.formats.catalog import catalog

DEFAULTS = Limits()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_problems_option(parser)
    parser.add_argument("--db", type=Path, default=DEFAULT_DB,
                        help=f"the course's store: uploads, results and tokens (default {DEFAULT_DB})")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; behind a reverse proxy keep it so)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    parser.add_argument("--assignment", type=Path, action="append", default=[], metavar="FILE",
                        help="an assignment file (repeatable): only its problems are open, with its feedback "
                             "level, hints, languages and submissions per problem")
    parser.add_argument("--roster", type=Path, metavar="CSV",
                        help="only the students of this roster (its 'student' column) may submit, and teachers; "
                             "the tokens come from `judge roster issue`")
    parser.add_argument("--workers", type=positive_int, default=1,
                        help="submissions judged at once (default 1)")
    parser.add_argument("-j", "--jobs", type=positive_int, default=1,
                        help="cases of one submission run in parallel (default 1)")
    parser.add_argument("--max-upload", type=positive_int, default=DEFAULTS.upload_bytes, metavar="BYTES",
                        help=f"largest file accepted (default {DEFAULTS.upload_bytes})")
    parser.add_argument("--min-interval", type=float, default=DEFAULTS.seconds_between, metavar="SECONDS",
                        help=f"a student's submissions at most this often (default {DEFAULTS.seconds_between:g}; 0: "
                             "no rate limit)")
    parser.add_argument("--max-queued", type=positive_int, default=DEFAULTS.queued_per_student, metavar="N",
                        help=f"a student's submissions waiting at once (default {DEFAULTS.queued_per_student})")
    parser.add_argument("--explain", type=float, default=0.0, metavar="SECONDS",
                        help="when a submission fails a hidden case, search this long for a small input of the "
                             "judge's own that shows the fault, where the feedback level shows one (default 0: no "
                             "search; each search holds a worker that long)")
    parser.add_argument("--certfile", type=Path, help="TLS certificate (PEM), to serve HTTPS without a proxy")
    parser.add_argument("--keyfile", type=Path, help="its private key (PEM)")
    add_weak_sandbox_option(parser, "serve")


def handle(args: argparse.Namespace) -> int:
    if (args.certfile is None) != (args.keyfile is None):
        raise UsageError("--certfile and --keyfile go together: pass both to serve HTTPS, or neither")
    for option, path in (("--certfile", args.certfile), ("--keyfile", args.keyfile)):
        if path is not None and not path.is_file():
            raise UsageError(f"{option} {path}: no such file")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port must be between 0 and 65535, got {args.port}")
    if args.explain < 0:
        raise UsageError(f"--explain must be 0 or more seconds, got {args.explain:g}")
    if args.min_interval < 0:
        raise UsageError(f"--min-interval must be 0 or more seconds, got {args.min_interval:g}")
    require_isolation(args.allow_weak_sandbox, "serving a course's judge")
    known = list(catalog(args.problems).require_some())
    assignments = []
    for path in args.assignment:
        assignment = load_assignment(path)
        check_problems(assignment, path, known)
        assignments.append(assignment)
    limits = Limits(args.max_upload, args.min_interval, args.max_queued)
    roster = frozenset(roster_names(args.roster)) if args.roster is not None else None
    course = Course(args.problems, args.db, assignments, limits, workers=args.workers, jobs=args.jobs,
                    explain_seconds=args.explain, roster=roster)
    serve(course, args.host, args.port, args.certfile, args.keyfile)
    return EXIT_OK

