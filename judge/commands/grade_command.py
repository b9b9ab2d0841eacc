"""`judge grade SUBMISSIONS`: judge a class, SUBMISSIONS/<student>/<problem>.<ext>."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from judge.commands.common import (
    EXIT_FAILED,
    EXIT_OK,
    add_cold_option,
    add_jobs_option,
    add_problems_option,
    add_weak_sandbox_option,
    open_store,
    progress_bar,
    require_isolation,
)
from judge.errors import UsageError
from judge.visible_text import visible

NAME = "grade"
HELP = "judge a folder of submissions: SUBMISSIONS/<student>/<problem>.<ext>"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from judge.cluster import add_cluster_arguments  # Dask itself is imported only with --cluster
    from judge.renderers import format_names

    parser.add_argument("submissions", type=Path, help="a folder of student folders: SUBMISSIONS/<student>/<problem>.<ext>")
    add_jobs_option(parser, "submissions judged")
    parser.add_argument("--format", choices=format_names("grade"), default="table")
    parser.add_argument("--out", type=Path,
                        help="write the report here (gradescope: a folder, or results.json for one student)")
    parser.add_argument("--db", type=Path, help="results database (default .judge/results.db)")
    parser.add_argument("--fail-under", type=float, metavar="SCORE", help="exit 1 if any student's total is below SCORE")
    add_problems_option(parser)
    add_cold_option(parser)
    add_cluster_arguments(parser)
    add_weak_sandbox_option(parser, "grade")


def handle(args: argparse.Namespace) -> int:
    from judge.grading import grade_folder
    from judge.renderers import load_format

    if not args.submissions.is_dir():
        raise UsageError(f"{args.submissions} is not a folder; expected SUBMISSIONS/<student>/<problem>.<ext>")
    output_format = load_format("grade", args.format)
    cluster = open_cluster(args)
    if cluster is None:  # (a cluster's workers judge in their own sandboxes)
        require_isolation(args.allow_weak_sandbox, "grading")
    store = open_store(args.db)
    bar = progress_bar(args.format == "table" and args.out is None, "submission")
    try:
        report = grade_folder(args.submissions, store, jobs=args.jobs, problems_dir=args.problems, cluster=cluster,
                              on_start=bar.start if bar else None, on_done=bar.advance if bar else None)
    except KeyboardInterrupt:
        again = f"judge grade {args.submissions}" + (f" --db {args.db}" if args.db else "")
        print(f"judge: grading stopped; the results recorded so far are kept in {store.path}; "
              f"`{again}` again resumes where it stopped", file=sys.stderr)
        raise
    finally:
        if bar:
            bar.close()
        store.close()
        if cluster:
            cluster.close()
    _write_report(output_format, report, args.out)
    if args.fail_under is not None and any(student.total < args.fail_under for student in report.students):
        below = [s.student for s in report.students if s.total < args.fail_under]
        print(visible(f"judge: below {args.fail_under:g}: {', '.join(below)}"), file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


def _write_report(output_format, report, out: Path | None) -> None:
    """Print the report, or write it to ``out``; a format writing many files gets a folder."""
    if hasattr(output_format, "write"):
        out = out or output_format.DEFAULT_OUT
        written = output_format.write(report, out)
        print(f"wrote {len(written)} file(s) under {out}", file=sys.stderr)
        return
    text = output_format.render(report)
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
        print(f"wrote {out}", file=sys.stderr)
    else:
        print(text)


def open_cluster(args: argparse.Namespace):
    """The Dask cluster to judge on (--cluster), or None to judge here."""
    from judge.cluster import Cluster, options_from

    options = options_from(args)
    return Cluster(options, cold=args.cold) if options else None
