"""The `judge` command: parses arguments and wires the pipeline steps together.

Heavy modules (Hypothesis, the sandbox, the languages) are imported inside the commands that need
them, so that `judge --help` and `judge list` start fast.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
from pathlib import Path

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """Bad arguments or configuration: printed as one line, exit status 2."""


def run() -> int:
    """The `judge` command: ``main`` on the command line's arguments, then a quick exit."""
    status = main()
    # What the judge built stays until the process ends anyway: left out of the collections
    # Python runs while tearing itself down, which took 40 ms of a command of a few seconds.
    gc.freeze()
    return status


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return EXIT_USAGE
    if getattr(args, "cold", False):
        from judge.runner import COLD_ENV
        os.environ[COLD_ENV] = "1"
    try:
        return args.handler(args)
    except KeyboardInterrupt:
        print("judge: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_FAILED
    except Exception as error:  # the known kinds become one line and exit 2; the rest propagate
        known = _known_errors()
        if isinstance(error, known):
            print(f"judge: error: {error}", file=sys.stderr)
            return EXIT_USAGE
        raise


def _known_errors() -> tuple[type[Exception], ...]:
    from judge.languages import UnknownLanguage
    from judge.planned_examples import StressError
    from judge.problem import SuiteError
    from judge.runner import UnsupportedSubmission
    from judge.sandbox import SandboxError
    from judge.store import StoreError
    return (UsageError, SuiteError, UnknownLanguage, UnsupportedSubmission, SandboxError, StoreError, StressError)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="judge", description="Judge solutions to programming problems "
                                     "against their case suites, safely and quickly.")
    parser.add_argument("--version", action="version", version=f"judge {_version()}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")

    run = commands.add_parser("run", help="judge one solution on a problem's cases")
    run.add_argument("problem", help="problem id (see `judge list`)")
    run.add_argument("solution", help="the solution's source file (.py .c .cpp .java .js)")
    run.add_argument("--format", choices=("table", "json"), default="table")
    run.add_argument("--case", action="append", metavar="NAME", help="run only this case (repeatable)")
    run.add_argument("--lang", help="language, when the extension does not say it")
    run.add_argument("-j", "--jobs", type=_positive_int, default=os.cpu_count() or 1,
                     help="cases run in parallel (default: CPU count; results are the same as -j 1)")
    run.add_argument("--db", type=Path, help="results database to record in (default .judge/results.db)")
    run.add_argument("--student", default=os.environ.get("USER") or "me", help="whose run this is, in the records")
    run.add_argument("--no-record", action="store_true", help="do not record the result")
    run.add_argument("--cold", action="store_true", help="start every Python run afresh (no warm server)")
    run.set_defaults(handler=command_run)

    grade = commands.add_parser("grade", help="judge a folder of submissions: SUBMISSIONS/<student>/<problem>.<ext>")
    grade.add_argument("submissions", type=Path)
    grade.add_argument("-j", "--jobs", type=_positive_int, default=os.cpu_count() or 1,
                       help="submissions judged in parallel (default: CPU count)")
    grade.add_argument("--format", choices=("table", "json", "junit", "markdown", "gradescope"), default="table")
    grade.add_argument("--out", type=Path, help="write the report here (gradescope: a folder, or results.json for one student)")
    grade.add_argument("--db", type=Path, help="results database (default .judge/results.db)")
    grade.add_argument("--fail-under", type=float, metavar="SCORE", help="exit 1 if any student's total is below SCORE")
    grade.add_argument("--cold", action="store_true", help="start every Python run afresh (no warm server)")
    grade.set_defaults(handler=command_grade)

    scoreboard = commands.add_parser("scoreboard", help="standings from every recorded result")
    scoreboard.add_argument("--db", type=Path, help="results database (default .judge/results.db)")
    scoreboard.add_argument("--mode", choices=("ioi", "icpc"), default="ioi")
    scoreboard.set_defaults(handler=command_scoreboard)

    listing = commands.add_parser("list", help="list the problems")
    listing.set_defaults(handler=command_list)

    show = commands.add_parser("show", help="print a problem's statement and samples")
    show.add_argument("problem")
    show.set_defaults(handler=command_show)

    doctor = commands.add_parser("doctor", help="check the languages' toolchains and the sandbox")
    doctor.set_defaults(handler=command_doctor)

    stress = commands.add_parser("stress", help="search for a small input on which a solution fails")
    stress.add_argument("problem")
    stress.add_argument("solution")
    stress.add_argument("--examples", type=_positive_int, default=200, help="inputs to try (default 200)")
    stress.add_argument("--seed", type=int, default=0, help="random seed; the same seed gives the same run")
    stress.add_argument("--time-limit", type=_positive_float, help="CPU seconds per run (default: the problem's)")
    stress.add_argument("--save", action="store_true", help="append the counterexample to the suite as a hidden case")
    stress.add_argument("-j", "--jobs", type=_positive_int, default=os.cpu_count() or 1,
                        help="examples judged at a time (default: CPU count; the result is the same as -j 1)")
    stress.add_argument("--format", choices=("table", "json"), default="table")
    stress.add_argument("--lang", help="language, when the extension does not say it")
    stress.add_argument("--cold", action="store_true", help="start every Python run afresh (no warm server)")
    stress.set_defaults(handler=command_stress)

    test = commands.add_parser("test", help="verify problem packages: suites, validators, reference, solutions")
    test.add_argument("problems", nargs="*", help="problem ids (default: all)")
    test.set_defaults(handler=command_test)
    return parser


def _positive(kind: type, name: str):
    """An argparse type: a positive number of ``kind`` (int or float)."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {name}") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive, got {text}")
        return value
    return parse


_positive_int = _positive(int, "a whole number")
_positive_float = _positive(float, "a number")


def _version() -> str:
    from judge import __version__
    return __version__


def readable_source(path_text: str) -> Path:
    """The solution file, or a UsageError saying why it cannot be used."""
    path = Path(path_text)
    if not path.exists():
        raise UsageError(f"solution file {path_text} does not exist")
    if not path.is_file():
        raise UsageError(f"{path_text} is not a file; give the solution's source file")
    try:
        with open(path, "rb"):
            pass
    except OSError as error:
        raise UsageError(f"cannot read {path_text}: {error.strerror}") from None
    return path


# ---------------------------------------------------------------------------------------------

def command_run(args: argparse.Namespace) -> int:
    from judge.problem import load_problem
    from judge.report import render_json, render_table
    from judge.runner import judge_submission

    problem = load_problem(args.problem)
    source = readable_source(args.solution)
    cases = [problem.case(name) for name in args.case] if args.case else None
    result = judge_submission(problem, source, args.lang, cases=cases, jobs=args.jobs)
    print(render_json(result) if args.format == "json" else render_table(result))
    if not args.no_record and cases is None:
        from judge.store import record_run
        store = open_store(args.db)
        record_run(store, args.student, problem, source, result)
        store.close()
    return EXIT_OK if result.verdict == "AC" else EXIT_FAILED


def open_store(path: Path | None):
    from judge.store import DEFAULT_DB, Store
    return Store(path or DEFAULT_DB)


def command_grade(args: argparse.Namespace) -> int:
    from judge import grade_report
    from judge.grading import grade_folder

    if not args.submissions.is_dir():
        raise UsageError(f"{args.submissions} is not a folder; expected SUBMISSIONS/<student>/<problem>.<ext>")
    if args.format == "gradescope" and args.out is None:
        args.out = Path("gradescope")
    store = open_store(args.db)
    bar = _progress_bar(args.format == "table" and args.out is None)
    try:
        report = grade_folder(args.submissions, store, jobs=args.jobs,
                              on_start=bar.start if bar else None, on_done=bar.advance if bar else None)
    finally:
        if bar:
            bar.close()
        store.close()
    if args.format == "gradescope":
        written = grade_report.write_gradescope(report, args.out)
        print(f"wrote {len(written)} Gradescope results file(s) under {args.out}", file=sys.stderr)
    else:
        render = {"table": grade_report.render_table, "json": grade_report.render_json,
                  "junit": grade_report.render_junit, "markdown": grade_report.render_markdown}[args.format]
        text = render(report)
        if args.out:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(text if text.endswith("\n") else text + "\n", encoding="utf-8")
            print(f"wrote {args.out}", file=sys.stderr)
        else:
            print(text)
    if args.fail_under is not None and any(student.total < args.fail_under for student in report.students):
        below = [s.student for s in report.students if s.total < args.fail_under]
        print(f"judge: below {args.fail_under:g}: {', '.join(below)}", file=sys.stderr)
        return EXIT_FAILED
    return EXIT_OK


class _Progress:
    """A tqdm bar on stderr, made once the number of submissions is known."""

    def __init__(self) -> None:
        self.bar = None

    def start(self, total: int) -> None:
        from tqdm import tqdm
        self.bar = tqdm(total=total, unit="submission", file=sys.stderr, leave=False)

    def advance(self, entry) -> None:
        if self.bar is not None:
            self.bar.update(1)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _progress_bar(wanted: bool) -> _Progress | None:
    """A bar only for people: not when output is piped or machine-readable."""
    return _Progress() if wanted and sys.stderr.isatty() and sys.stdout.isatty() else None


def command_scoreboard(args: argparse.Namespace) -> int:
    from judge.grade_report import render_scoreboard
    from judge.scoreboard import icpc_standings, ioi_standings

    store = open_store(args.db)
    history = store.history()
    store.close()
    standings = icpc_standings if args.mode == "icpc" else ioi_standings
    print(render_scoreboard(*standings(history), args.mode))
    return EXIT_OK


def command_list(args: argparse.Namespace) -> int:
    from tabulate import tabulate

    from judge.problem import known_problems, load_problem

    rows = []
    for problem_id in known_problems():
        problem = load_problem(problem_id)
        rows.append([problem.id, problem.title, problem.io, f"{problem.time_limit:g} s",
                     f"{problem.memory_limit >> 20} MiB", len(problem.cases)])
    print(tabulate(rows, headers=["id", "title", "I/O", "time", "memory", "cases"], disable_numparse=True))
    return EXIT_OK


def command_show(args: argparse.Namespace) -> int:
    import json

    from judge.problem import load_problem
    from judge.reference import expected_output

    problem = load_problem(args.problem)
    print(f"# {problem.title} ({problem.id})\n")
    print(problem.statement.rstrip() + "\n")
    print(f"Limits: {problem.time_limit:g} s CPU per case, {problem.memory_limit >> 20} MiB memory.\n")
    for case in problem.cases:
        if case.visibility != "sample":
            continue
        expected = expected_output(problem, case)
        if problem.io == "function":
            print(f"## {case.name}\nsolution({', '.join(json.dumps(a) for a in case.args)}) == {json.dumps(expected)}\n")
        else:
            print(f"## {case.name}\ninput:\n{case.input.rstrip()}\noutput:\n{str(expected).rstrip()}\n")
    return EXIT_OK


def command_doctor(args: argparse.Namespace) -> int:
    from tabulate import tabulate

    from judge.languages import LANGUAGES, LanguageUnavailable
    from judge.sandbox import TIERS, probe_tier, sandbox_tier

    rows = []
    missing = 0
    for language in LANGUAGES.values():
        try:
            rows.append([language.name, " ".join(language.extensions), "ok", language.version()])
        except LanguageUnavailable as error:
            missing += 1
            rows.append([language.name, " ".join(language.extensions), "unavailable", str(error)])
    print(tabulate(rows, headers=["language", "extensions", "status", "toolchain"]))
    print()
    tier = sandbox_tier()
    print(f"sandbox tier: {tier}")
    for name in TIERS:
        reason = probe_tier(name)
        print(f"  {name:8} {'available' if reason is None else 'unavailable: ' + reason}")
    return EXIT_FAILED if missing else EXIT_OK


def command_stress(args: argparse.Namespace) -> int:
    from judge.planned_examples import PlannedExamples
    from judge.problem import project_root
    from judge.reference import strategy_path

    # The generator process starts before anything else loads: it has Hypothesis to import.
    planned = None
    if args.jobs > 1:
        planned = PlannedExamples(strategy_path(project_root(), args.problem), args.examples, args.seed)
    try:
        return _stress_and_report(args, planned)
    finally:
        if planned:
            planned.close()


def _stress_and_report(args: argparse.Namespace, planned) -> int:
    import json

    from judge.problem import load_problem
    from judge.stress import save_counterexample, stress

    problem = load_problem(args.problem)
    source = readable_source(args.solution)
    show_progress = args.format == "table" and sys.stderr.isatty()

    def progress(count: int) -> None:
        print(f"\rexample {count}/{args.examples}", end="", file=sys.stderr, flush=True)

    result = stress(problem, source, examples=args.examples, seed=args.seed, time_limit=args.time_limit,
                    language_name=args.lang, on_example=progress if show_progress else None, jobs=args.jobs,
                    planned=planned)
    if show_progress:
        print("\r" + " " * 30 + "\r", end="", file=sys.stderr)
    saved = save_counterexample(problem, result, args.seed) if args.save and result.found else None
    if args.format == "json":
        print(json.dumps(result.to_json(problem.io), indent=2, ensure_ascii=False))
    else:
        print(render_stress(result, problem.io, saved))
    return EXIT_FAILED if result.found else EXIT_OK


def render_stress(result, io: str, saved: str | None) -> str:
    import json

    if not result.found:
        return f"No difference found in {result.examples_run} examples ({result.problem}, {result.submission})."
    example = result.counterexample
    if example.input is None:
        return f"{example.verdict} before any example could run:\n{example.message}"
    shown = (lambda value: value.rstrip("\n")) if io == "stdio" else json.dumps
    lines = [f"{example.verdict} after {result.examples_run} examples; smallest failing input found:", "",
             "input:" if io == "stdio" else "arguments:", shown(example.input), "",
             "expected:", shown(example.expected), "", "got:", example.got.rstrip("\n") or "(nothing)", "",
             f"{example.verdict}: {example.message}"]
    if saved:
        lines.append(f"\nsaved to the suite as hidden case {saved}")
    return "\n".join(lines)


def command_test(args: argparse.Namespace) -> int:
    from judge.packages import render_checks, verify_problems

    checks = verify_problems(args.problems or None)
    print(render_checks(checks))
    return EXIT_OK if all(check.ok for check in checks) else EXIT_FAILED


if __name__ == "__main__":
    sys.exit(main())
