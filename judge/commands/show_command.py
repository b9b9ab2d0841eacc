"""`judge show PROBLEM`: a problem's statement, limits and sample cases."""

from __future__ import annotations

import argparse

from judge.commands.common import EXIT_OK, add_problems_option

NAME = "show"
HELP = "print a problem's statement and samples"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("problem")
    add_problems_option(parser)


def handle(args: argparse.Namespace) -> int:
    from judge.catalog import load_problem
    from judge.reference import expected_output

    problem = load_problem(args.problem, args.problems)
    if problem.package is not None:
        from judge.icpc.show import render_package
        print(render_package(problem))
        return EXIT_OK
    statement = problem.statement.strip()
    if not statement.startswith("#"):  # a statement with its own title heading is not given a second
        print(f"# {problem.title} ({problem.id})\n")
    print((statement or "(no statement)") + "\n")
    print(f"Limits: {problem.time_limit:g} s CPU per case, {problem.memory_limit >> 20} MiB memory.\n")
    if problem.signature:
        print(render_declarations(problem.signature) + "\n")
    for case in problem.cases:
        if case.visibility == "sample":
            print(problem.task.show_sample(case.name, problem.task.value(case), expected_output(problem, case)))
    return EXIT_OK


def render_declarations(signature) -> str:
    """What a submission declares, in every language that can call a function."""
    from judge.languages import declarations

    lines = [f"Declaration ({signature}):"]
    lines += [f"  {language:<11} {declaration}" for language, declaration in declarations(signature).items()]
    return "\n".join(lines)
