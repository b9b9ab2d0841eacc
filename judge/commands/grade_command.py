"""`judge grade SUBMISSIONS`: judge a class, SUBMISSIONS/<student>/<problem>.<ext>."""

from __future__ import annotations

import argparse
import json
import shlex
import sys
import tempfile
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from judge.authoring.explain import explain_class
from judge.classroom.assignment import check_problems, load_assignment, scale_to_points
from judge.classroom.cluster import Cluster, StartingCluster, add_cluster_arguments, is_local, options_from
from judge.classroom.deadlines import Policy, apply_lateness, parse_penalty, parse_time, snapshot_class
from judge.classroom.grading import grade_folder
from judge.classroom.rejudge import preview
from judge.classroom.similarity import compare_class
from judge.commands.common import (
    BUDGET_ENV,
    DEFAULT_EXPLAIN_SECONDS,
    EXIT_FAILED,
    EXIT_OK,
    add_cold_option,
    add_jobs_option,
    add_problems_option,
    add_weak_sandbox_option,
    explain_budget,
    open_store,
    positive_float,
    progress_bar,
    require_isolation,
)
from judge.commands.similarity_command import add_budget_options, budget_of
from judge.errors import UsageError
from judge.extension_points import GradeFilesFormat
from judge.formats.catalog import catalog
from judge.model.feedback import LEVELS as FEEDBACK_LEVELS
from judge.model.feedback import FeedbackPolicy, StudentView, at_least, level_for
from judge.model.verdict import Verdict
from judge.renderers import format_names, load_format
from judge.sandbox import sandbox_tier, weakness
from judge.text.terminal import fitted_table
from judge.text.visible_text import visible

DEFAULT_CLASS_BUDGET = 60.0  # seconds of wall time for all the counterexample searches of one `judge grade`


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("submissions", type=Path, help="a folder of student folders: SUBMISSIONS/<student>/<problem>.<ext>")
    parser.add_argument("--assignment", type=Path, metavar="FILE",
                        help="an assignment file (YAML): grade exactly its problems, scaled to its points, with "
                             "its deadline, languages and feedback (the options given here win over the file's)")
    add_jobs_option(parser, "submissions judged")
    parser.add_argument("--format", choices=format_names("grade"), default="table")
    parser.add_argument("--out", type=Path,
                        help="write the report here (gradescope: a folder, or results.json for one student)")
    parser.add_argument("--db", type=Path, help="results database (default .judge/results.db)")
    parser.add_argument("--cases", action="store_true",
                        help="after the table, each problem's cases with the share of the class that passed "
                             "them, the most failed first (json and html always carry them)")
    parser.add_argument("--canvas", metavar="ASSIGNMENT",
                        help="csv: in Canvas's gradebook import layout, the total as the column ASSIGNMENT")
    parser.add_argument("--similarity", action="store_true",
                        help="html: add which students' submissions share their code (as `judge similarity`)")
    add_budget_options(parser)
    parser.add_argument("--preview", action="store_true",
                        help="after a problem changed: show whose recorded verdicts and scores grading now "
                             "would change, and record nothing")
    parser.add_argument("--fail-under", type=float, metavar="SCORE",
                        help="exit 1 if any student's total is below SCORE (with --assignment: SCORE percent of "
                             "the assignment's points)")
    parser.add_argument("--deadline", metavar="TIME",
                        help="grade each student's work as it was at TIME (ISO 8601, e.g. 2026-12-01T23:59+01:00): "
                             "a git repository's last commit by then, else the files' modification times")
    parser.add_argument("--late-penalty", metavar="RATE",
                        help="with --deadline: grade later work too, its score reduced by RATE per day late (10%%/day)")
    parser.add_argument("--late-until", metavar="TIME", help="with --late-penalty: no work after TIME counts")
    parser.add_argument("--feedback", choices=FEEDBACK_LEVELS, metavar="LEVEL",
                        help="what every format shows of hidden cases: verdict (only), hints (and messages, "
                             "hints, descriptions), counterexamples or full (as graded; default: gradescope, "
                             "which students read, follows each problem's feedback policy, the others show all)")
    explaining = parser.add_mutually_exclusive_group()
    explaining.add_argument("--explain", type=positive_float, metavar="SECONDS",
                            help="for each submission that failed a hidden case, search for a small input of the "
                                 "judge's own that shows the fault (as judge run does), these many seconds of wall "
                                 f"time for the whole class (default {DEFAULT_CLASS_BUDGET:g}; each submission up to "
                                 f"${BUDGET_ENV}, else {DEFAULT_EXPLAIN_SECONDS:g}); what was found is kept in the "
                                 "results store")
    explaining.add_argument("--no-explain", action="store_true",
                            help="search for no such input (those the results store kept are still shown)")
    add_problems_option(parser)
    add_cold_option(parser)
    add_cluster_arguments(parser)
    add_weak_sandbox_option(parser, "grade")


def handle(args: argparse.Namespace) -> int:
    _check_options(args)
    output_format = load_format("grade", args.format)
    assignment = _assignment(args)
    policy = deadline_policy(args) or (assignment.policy if assignment else None)
    if policy is not None and assignment is not None and assignment.submissions is not None:
        policy = replace(policy, versions=assignment.submissions)  # a git repository keeps the versions
    if assignment is not None and args.feedback is None:
        args.feedback = assignment.feedback
    cluster = open_cluster(args)
    if cluster is None:  # (a cluster's workers judge in their own sandboxes)
        require_isolation(args.allow_weak_sandbox, "grading")
    try:
        store = open_store(args.db)
    except BaseException:
        if cluster:  # already starting
            cluster.close()
        raise
    bar = progress_bar(args.format == "table" and args.out is None, "submission")
    try:
        with snapshot(args.submissions, policy) as (folder, lateness):
            if args.preview:
                return _preview(args, folder, store, cluster, bar, assignment)
            report = _grade(args, folder, store, cluster, bar, assignment)
            if assignment is not None:
                scale_to_points(report, assignment)
                report.assignment = assignment
            if output_format.SHOWS_COUNTEREXAMPLES:
                _explain_failures(args, report, store, output_format.FOR_STUDENTS, cluster)
            if args.similarity:
                report.similarity = _similarity(args, folder)
        if policy is not None:
            apply_lateness(report, lateness, policy)
    except KeyboardInterrupt:
        again = "judge " + shlex.join(getattr(args, "command_line", ["grade", str(args.submissions)]))
        print(f"judge: grading stopped; the results recorded so far are kept in {store.path}; "
              f"`{again}` again resumes where it stopped", file=sys.stderr)
        raise
    finally:
        if bar:
            bar.close()
        store.close()
        if cluster:
            cluster.close()
    _withhold_feedback(report, args.feedback, output_format.FOR_STUDENTS,
                       hints=assignment.hints if assignment else True)
    _write_report(output_format, report, args.out, _render_options(args))
    return _fail_under(args.fail_under, report, assignment)


def _assignment(args: argparse.Namespace):
    """The assignment file's Assignment (--assignment), its problems checked against those in force."""
    if args.assignment is None:
        return None
    assignment = load_assignment(args.assignment)
    check_problems(assignment, args.assignment, list(catalog(args.problems).require_some()))
    return assignment


def _fail_under(threshold: float | None, report, assignment) -> int:
    """EXIT_FAILED, naming them, if any student's total is below ``threshold``: points, or with an
    assignment a percentage of its points."""
    if threshold is None:
        return EXIT_OK
    limit = threshold / 100 * assignment.total if assignment else threshold
    below = [student.student for student in report.students if student.total < limit]
    if not below:
        return EXIT_OK
    what = f"{threshold:g}% of {assignment.total:g} points ({limit:g})" if assignment else f"{threshold:g}"
    print(visible(f"judge: below {what}: {', '.join(below)}"), file=sys.stderr)
    return EXIT_FAILED


def _explain_failures(args: argparse.Namespace, report, store, for_students: bool, cluster) -> None:
    """Counterexamples for the hidden failures of the problems whose feedback level shows them
    (see ``_withhold_feedback``), within the class's budget; searched here, so only where this
    machine's sandbox isolates (a cluster's workers judge in theirs)."""
    per_submission = explain_budget()
    if args.explain is not None and per_submission == 0:
        per_submission = DEFAULT_EXPLAIN_SECONDS  # asked for on the command line: over a machine's 0
    budget = DEFAULT_CLASS_BUDGET if args.explain is None else args.explain
    if args.no_explain or (cluster is not None and weakness(sandbox_tier())):
        budget = 0  # what the store kept is still shown

    def wanted(problem_id: str) -> bool:
        if args.feedback is None and not for_students:
            return True
        problem = report.loaded.get(problem_id)
        policy = problem.feedback if problem is not None else FeedbackPolicy()
        return at_least(args.feedback or level_for(policy, None), "counterexamples")

    def announce(count: int, seconds: float) -> None:
        print(f"judge: searching for failing inputs of the judge's own for {count} submission(s) with hidden "
              f"failures (up to {seconds:g} s in all; --no-explain skips this)", file=sys.stderr, flush=True)

    explain_class(report, store, budget, wanted, per_submission, on_search=announce)


def _withhold_feedback(report, asked: str | None, for_students: bool, hints: bool = True) -> None:
    """Take out of the report what the feedback level does not show of hidden cases (see
    judge/model/feedback.py): the level asked for (the teacher's, over any problem's policy), else for a
    format students read each problem's own policy; reports for the teacher alone keep everything.
    ``hints`` False (an assignment's ``hints: false``): the author's hints are never shown."""
    if asked is None and not for_students:
        return
    for student in report.students:
        for problem_id, result in student.results.items():
            problem = report.loaded.get(problem_id)
            level = asked or level_for(problem.feedback if problem is not None else FeedbackPolicy(), None)
            if problem is not None and hints:
                _attach_hints(problem, result.cases)
            student.results[problem_id] = StudentView(problem, level).result(result)


def _attach_hints(problem, cases) -> None:
    """The author's hints of the failed cases (the store keeps none: they are the problem's)."""
    by_name = {case.name: case for case in problem.cases}
    for result in cases:
        case = by_name.get(result.name)
        if case is not None and result.verdict != Verdict.AC:
            result.hint, result.description = case.hint, case.description


def _render_options(args: argparse.Namespace) -> dict:
    """What the chosen format's ``render`` takes besides the report, from the options given."""
    options = {}
    if args.cases:
        options["cases"] = True
    if args.canvas is not None:
        options["canvas"] = args.canvas
    return options


def _check_options(args: argparse.Namespace) -> None:
    """UsageError for options that cannot go together, before anything is judged."""
    if not args.submissions.is_dir():
        raise UsageError(f"{args.submissions} is not a folder; expected SUBMISSIONS/<student>/<problem>.<ext>")
    if args.cases and args.format != "table":
        raise UsageError(f"--cases is for the table format; the {args.format} format "
                         + ("always carries the per-case pass rates" if args.format in ("json", "html")
                            else "does not show them (json and html carry them)"))
    if args.canvas is not None and args.format != "csv":
        raise UsageError("--canvas writes Canvas's gradebook layout: use it with --format csv")
    if args.similarity and args.format != "html":
        raise UsageError(f"--similarity adds a section to the html report; for the {args.format} format run "
                         f"`judge similarity {args.submissions} --format json` (or table, html)")
    if args.preview and args.format not in ("table", "json"):
        raise UsageError(f"--preview prints a table or JSON (--format json) of what would change, not {args.format}")


def _grade(args: argparse.Namespace, folder: Path, store, cluster, bar, assignment=None):
    return grade_folder(folder, store, jobs=args.jobs, problems_dir=args.problems, backend=cluster,
                        on_start=bar.start if bar else None, on_done=bar.advance if bar else None,
                        only=assignment.problems if assignment else None,
                        languages=assignment.languages if assignment else ())


def _similarity(args: argparse.Namespace, folder: Path):
    return compare_class(folder, catalog(args.problems).require_some(), budget=budget_of(args))


def _preview(args: argparse.Namespace, folder: Path, store, cluster, bar, assignment=None) -> int:
    """Print which recorded verdicts and scores grading now would change; record nothing."""
    changes = preview(folder, store, lambda scratch: _grade(args, folder, scratch, cluster, bar, assignment))
    if bar:
        bar.close()
    changed = [change for change in changes if change.changed and change.before]
    new = [change for change in changes if change.before is None]
    if args.format == "json":
        print(json.dumps({"changes": [{"student": c.student, "problem": c.problem, "before": c.before,
                                       "after": {"verdict": c.verdict, "score": c.score}} for c in changed],
                          "unchanged": len(changes) - len(changed) - len(new),
                          "never_judged": [{"student": c.student, "problem": c.problem} for c in new]}, indent=2))
        return EXIT_OK
    rows = [[c.student, c.problem, f"{c.before['score']:g} {c.before['verdict']}", f"{c.score:g} {c.verdict}"]
            for c in changed]
    print(fitted_table(rows, ["student", "problem", "recorded", "would be"], shrinkable=[0]) if rows
          else "no recorded verdict or score would change")
    print(f"\n{len(changes) - len(changed) - len(new)} rejudged the same; {len(new)} never judged before; "
          f"nothing was recorded (grade without --preview to record)")
    return EXIT_OK


def _write_report(output_format, report, out: Path | None, options: dict) -> None:
    """Print the report, or write it to ``out``; a format writing many files gets a folder.
    ``options``: what the format's ``render`` takes besides the report."""
    if isinstance(output_format, GradeFilesFormat):
        out = out or output_format.DEFAULT_OUT
        written = output_format.write(report, out)
        print(f"wrote {len(written)} file(s) under {out}", file=sys.stderr)
        return
    text = output_format.render(report, **options)
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
        print(f"wrote {out}", file=sys.stderr)
    else:
        print(text)


def deadline_policy(args: argparse.Namespace):
    """The deadline to grade against (--deadline, --late-penalty, --late-until), or None."""
    if args.deadline is None:
        if args.late_penalty or args.late_until:
            raise UsageError("--late-penalty and --late-until need --deadline TIME")
        return None
    if args.late_until and not args.late_penalty:
        raise UsageError("--late-until needs --late-penalty RATE: without a penalty no late work counts")
    policy = Policy(parse_time(args.deadline, "--deadline"),
                    parse_penalty(args.late_penalty) if args.late_penalty else 0.0,
                    parse_time(args.late_until, "--late-until") if args.late_until else None)
    if policy.late_until is not None and policy.late_until < policy.deadline:
        raise UsageError(f"--late-until {args.late_until} is before --deadline {args.deadline}")
    return policy


@contextmanager
def snapshot(submissions: Path, policy):
    """The folder to grade (SUBMISSIONS itself, or with a deadline the versions it chooses,
    copied out) and how late each student's work is."""
    if policy is None:
        yield submissions, {}
        return

    with tempfile.TemporaryDirectory(prefix="judge-deadline-") as scratch:
        into = Path(scratch) / submissions.resolve().name
        into.mkdir()
        yield into, snapshot_class(submissions, policy, into)


def open_cluster(args: argparse.Namespace):
    """The Dask cluster to judge on (--cluster), or None to judge here. A local:N cluster's
    workers start while the class is read; a scheduler elsewhere is reached first, so that an
    unreachable one is the command's only word."""
    options = options_from(args)
    if options is None:
        return None
    return StartingCluster(options, cold=args.cold) if is_local(options.address) else Cluster(options, cold=args.cold)
