"""`judge run PROBLEM SOLUTION`: judge one solution on a problem's cases."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from judge.commands.common import (
    BUDGET_ENV,
    DEFAULT_EXPLAIN_SECONDS,
    EXIT_FAILED,
    EXIT_OK,
    add_cold_option,
    add_jobs_option,
    add_language_option,
    add_problems_option,
    add_weak_sandbox_option,
    explain_budget,
    open_store,
    positive_float,
    readable_source,
    require_isolation,
    warn_if_weak,
)
from judge.errors import UsageError
from judge.extension_points import RowsFormat
from judge.formats import format_of
from judge.formats.catalog import find_problem
from judge.model.feedback import DEFAULT_LEVEL, LEVELS, StudentView, at_least, level_for, shown_names
from judge.model.verdict import Verdict
from judge.model.vocabulary import Visibility
from judge.renderers import format_names, load_format
from judge.renderers.case_stream import CaseStream, decide_unrun, status_stream
from judge.renderers.case_view import sample_view
from judge.renderers.report import SHOW_COUNTEREXAMPLE, cases_to_json, render_case_in_full
from judge.runner import judge_submission


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("problem", help="problem name (see `judge list`), suite file or package folder")
    parser.add_argument("solution", help="the solution's source file (for a problem package: or a folder of files)")
    parser.add_argument("--format", choices=format_names("run"), default="table")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--case", action="append", metavar="NAME",
                       help="run only this case (repeatable); a hidden case by name or as reports number it, 'hidden 2'")
    which.add_argument("--samples", action="store_true", help="run the sample cases only")
    parser.add_argument("-x", "--fail-fast", action="store_true",
                        help="stop at the first case that fails (the cases then run one at a time, in order)")
    parser.add_argument("--show", metavar="CASE",
                        help=f"run one sample case and print its input, expected and actual output in full; "
                             f"`--show {SHOW_COUNTEREXAMPLE}`: run every case and print all of the counterexample "
                             f"found for a failed hidden case")
    add_language_option(parser)
    add_jobs_option(parser, "cases run")
    add_problems_option(parser)
    parser.add_argument("--db", type=Path, help="results database to record in (default .judge/results.db)")
    parser.add_argument("--student", help="whose run this is, in the records (default: $USER); judging someone "
                        "else's code needs a sandbox that hides this machine's files, and refuses a symbolic link")
    add_weak_sandbox_option(parser, "judge someone else's code")
    parser.add_argument("--no-record", action="store_true", help="do not record the result")
    add_cold_option(parser)
    parser.add_argument("--time-limit", type=positive_float, help="CPU seconds per case (default: the problem's)")
    parser.add_argument("--feedback", choices=LEVELS, metavar="LEVEL",
                        help=f"what to show of hidden cases: {', '.join(LEVELS)} (default: the problem's "
                             f"feedback policy, else {DEFAULT_LEVEL}); it can ask for less than the policy, not more")
    explaining = parser.add_mutually_exclusive_group()
    explaining.add_argument("--explain", type=positive_float, default=None, metavar="SECONDS",
                            help="when a hidden case fails, search this long (wall time) for a small input of "
                                 f"the judge's own that shows the fault (default ${BUDGET_ENV}, else "
                                 f"{DEFAULT_EXPLAIN_SECONDS:g}; 0 there: no search)")
    explaining.add_argument("--no-explain", action="store_true", help="do not search for such an input")


def handle(args: argparse.Namespace) -> int:
    problem = find_problem(args.problem, args.problems).load_to_judge(args.time_limit)
    problem_format = format_of(problem)
    # A package's own example submission may link to its files; a student's folder never does.
    own_folder = not args.student and Path(args.solution).is_dir() and problem_format.own_folder(problem, Path(args.solution))
    source = readable_source(args.solution, directory_allowed=problem_format.accepts_directory_submissions,
                             own=not args.student, follow_file_links=own_folder)
    if args.student:
        require_isolation(args.allow_weak_sandbox, f"judging {args.student}'s code")
    else:
        args.student = os.environ.get("USER") or "me"
        warn_if_weak()
    args.feedback = level_for(problem.feedback, args.feedback)
    whole_counterexample = args.show == SHOW_COUNTEREXAMPLE and not _has_case(problem, args.show)
    if args.show and not whole_counterexample:
        return _show_case(args, problem, source)
    if whole_counterexample and (args.no_explain or not at_least(args.feedback, "counterexamples")):
        why = "--no-explain asks for no search" if args.no_explain else f"the feedback level {args.feedback} shows none"
        raise UsageError(f"--show {SHOW_COUNTEREXAMPLE} shows the counterexample a search finds, but {why}")
    cases = _chosen_cases(args, problem)
    renderer = load_format("run", args.format)
    view = StudentView(problem, args.feedback)
    result = _judge_streaming(args, problem, source, cases, renderer, view)
    result.feedback = args.feedback
    if args.explain is None:
        args.explain = explain_budget() or (DEFAULT_EXPLAIN_SECONDS if whole_counterexample else 0)
    if not args.no_explain and args.explain > 0 and at_least(args.feedback, "counterexamples"):
        result.explanation = _explain(args, problem, source, result)
    shown = view.result(result)  # the whole result is what is recorded
    if not _streams_rows(renderer):
        rest = renderer.render(shown, problem)  # JSON holds all of the counterexample anyway
    elif whole_counterexample:
        rest = renderer.render_after_rows(shown, problem, whole_counterexample=True)
    else:
        rest = renderer.render_after_rows(shown, problem)
    print(rest)
    if not args.no_record and cases is None and not result.partial:
        from judge.classroom.store import record_run  # deferred: sqlite3, for recorded runs alone

        store = open_store(args.db)
        record_run(store, args.student or os.environ.get("USER") or "me", problem, source, result, own_folder)
        store.close()
    return EXIT_OK if result.verdict == Verdict.AC else EXIT_FAILED


def _has_case(problem, name: str) -> bool:
    return any(case.name == name for case in problem.cases)


def _chosen_cases(args: argparse.Namespace, problem) -> list | None:
    """The cases --case or --samples name; None: all of them."""
    if args.case:
        numbered = {shown: name for name, shown in shown_names(problem).items()}  # "hidden 2", as reports show it
        return [problem.case(numbered.get(name, name)) for name in args.case]
    if args.samples:
        samples = [case for case in problem.cases if case.visibility == Visibility.SAMPLE]
        if not samples:
            raise UsageError(f"{problem.id} has no sample cases; run it without --samples, or name cases with --case")
        return samples
    return None


def _streams_rows(renderer) -> bool:
    """Whether the format prints its rows as cases are decided (the table) rather than all at the end."""
    return isinstance(renderer, RowsFormat)


def _judge_streaming(args: argparse.Namespace, problem, source: Path, cases: list | None, renderer,
                     view: StudentView):
    """judge_submission, with each case's row printed as it is decided (judge/renderers/case_stream.py),
    as ``view`` shows it; stopped by a signal, what was decided is shown before the judge ends."""
    planned = cases if cases is not None else problem.cases
    names = [view.shown_name(case.name) for case in planned]
    table = renderer.row_table(names) if _streams_rows(renderer) else None
    stream = CaseStream(table, names, status=status_stream())

    def decided(case) -> None:  # shown as the feedback level allows, from its first row on
        stream.decided(view.case(case))

    try:
        with stream:
            result = judge_submission(problem, source, args.lang, cases=cases, jobs=args.jobs,
                                      on_case=decided, stop_on_failure=args.fail_fast)
            decide_unrun(stream, result, view.case, table)
    except KeyboardInterrupt as stop:
        _show_stopped(stream, table is not None, problem, source, stop)
        raise
    return result


def _show_stopped(stream, rows_shown: bool, problem, source: Path, stop: KeyboardInterrupt) -> None:
    """What a stopped run decided: the rows not shown yet (the table) or the partial JSON."""
    signal_name = stop.args[0] if stop.args else "SIGINT"
    if rows_shown:
        stream.flush_out_of_order()
        print(f"\nstopped by {signal_name}: {stream.count} of {len(stream.names)} cases decided (above); "
              f"no verdict and no score", flush=True)
        return
    decided = [stream.decided_results[name] for name in stream.names if name in stream.decided_results]
    print(json.dumps({"problem": problem.id, "submission": str(source), "stopped_by": signal_name,
                      "partial": True, "cases": cases_to_json(decided)}, indent=2, ensure_ascii=False), flush=True)


def _explain(args: argparse.Namespace, problem, source: Path, result):
    """The counterexample search's outcome for the hidden failures (see judge/authoring/explain.py)."""
    # deferred: the search's machinery (Hypothesis's driver, multiprocessing) costs a plain run a
    # third of its imports, and the search runs only when asked for
    from judge.authoring.explain import explain, hidden_failures

    if hidden_failures(result) and sys.stderr.isatty():
        print(f"searching for an input that shows the hidden failure (up to {args.explain:g} s)...",
              file=sys.stderr, flush=True)
    return explain(problem, source, result, args.explain, args.lang)


def _show_case(args: argparse.Namespace, problem, source: Path) -> int:
    """`judge run --show CASE`: one sample case in full; a hidden one only at the "full" feedback level."""
    case = problem.case(args.show)
    if case.visibility != Visibility.SAMPLE and args.feedback != "full":
        samples = ", ".join(c.name for c in problem.cases if c.visibility == Visibility.SAMPLE) or "none"
        raise UsageError(f"case {case.name} of {problem.id} is hidden; only sample cases can be shown "
                         f"(samples: {samples})")
    result = judge_submission(problem, source, args.lang, cases=[case], jobs=1)
    print(render_case_in_full(result, sample_view(problem, case, result.cases[0], reveal_hidden=True)))
    return EXIT_OK if result.verdict == Verdict.AC else EXIT_FAILED
