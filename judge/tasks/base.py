"""What every task type provides (see judge/tasks/__init__.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from judge.model.vocabulary import Visibility

if TYPE_CHECKING:
    from judge.languages import Language
    from judge.model.problem import Case, Problem
    from judge.model.results import CaseResult, Prepared
    from judge.sandbox import Limits, Outcome

# How a prepared program is run once: (command, stdin, limits, program directory) -> Outcome.
Execute = Callable[[list[str], bytes, "Limits", Path], "Outcome"]


class TaskType:
    """How cases of one kind of problem are fed, answered, checked and shown."""

    name = ""  # the suite's `io` value; languages list the task types they support by it
    case_field = ""  # the suite field (and JSON key) holding a case's data: "input" or "args"
    default_checker = "tokens"
    value_label = ""  # what a case's value is called when shown: "input", "arguments"
    runs_warm = True  # whether a language's warm pool may run its cases
    # The wall clock's multiple of the time limit and its overshoot: 2 where the program waits
    # on a validator working beside it (an interactive run), as DOMjudge doubles it there.
    wall_factor = 1.0
    # Whether a write past the output limit stops the program (OLE at once), or only fails while
    # the program runs on, so that one that then runs out of time is TLE (see Limits).
    stops_at_output_limit = True

    def case_data(self, raw: dict, read: Callable[[str, type | tuple], Any]) -> dict:
        """The Case fields this task type reads from one raw suite case. ``read(key, kind[,
        default])`` reads a field of that type (SuiteError when it is wrong, or missing without
        a default)."""
        raise NotImplementedError

    def value(self, case: Case) -> Any:
        """A case's data as the reference solver, the validator and stress testing see it."""
        raise NotImplementedError

    def make_case(self, value: Any, name: str, visibility: Visibility = Visibility.SAMPLE) -> Case:
        """A case made from a value of the kind ``value`` returns (stress testing makes these)."""
        raise NotImplementedError

    def unusable_by(self, problem: Problem, language: Language) -> str | None:
        """Why ``language`` cannot be judged on ``problem`` (a usage error), or None."""
        return None

    def stdin(self, case: Case) -> bytes:
        """What the program is given on standard input."""
        return case.stdin_bytes()

    def run(self, execute: Execute, command: list[str], case: Case, limits: Limits, program_dir: Path) -> Outcome:
        """Run the prepared program on one case."""
        return execute(command, self.stdin(case), limits, program_dir)

    def judge_case(self, problem: Problem, prepared: Prepared, case: Case, execute: Execute) -> CaseResult | None:
        """A task type that decides a case's verdict its own way (a problem package's output
        validator, an interactive run) returns the case's result; None: the runner runs the case
        with ``run`` and checks the output with the problem's checker."""
        return None

    def reference_answer(self, reference: ModuleType, value: Any) -> Any:
        """The trusted reference solver's answer for a case's value."""
        raise NotImplementedError

    def answer_text(self, answer: Any) -> str:
        """An answer as the program's output would be written, for the checkers."""
        raise NotImplementedError

    def output_answer(self, output: str) -> Any:
        """A program's output read back as an answer, for a checker to compare another output with
        (the inverse of ``answer_text``)."""
        return output

    def show_value(self, value: Any) -> str:
        """A case's value for people (stress counterexamples, sample listings)."""
        raise NotImplementedError

    def show_answer(self, answer: Any) -> str:
        """An expected answer for people."""
        raise NotImplementedError

    def show_sample(self, name: str, value: Any, expected: Any) -> str:
        """A sample case and its expected answer, as `judge show` prints it."""
        raise NotImplementedError

    def describe(self) -> str:
        """The I/O style in a word or two, for `judge list`."""
        return self.name
