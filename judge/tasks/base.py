"""What a task type is handed to run a case (``Execute``), and the defaults the built-in task types
inherit (``TaskType``; the contract is ``judge.extension_points.TaskType``)."""

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
    """The defaults the built-in task types inherit; what a task type provides is declared by
    ``judge.extension_points.TaskType``, whose docstrings say what each part does."""

    name = ""
    case_field = ""
    default_checker = "tokens"
    value_label = ""
    runs_warm = True
    wall_factor = 1.0
    # Whether a write past the output limit stops the program (OLE at once), or only fails while
    # the program runs on, so that one that then runs out of time is TLE (see Limits).
    stops_at_output_limit = True

    def case_data(self, raw: dict, read: Callable[[str, type | tuple], Any]) -> dict:
        raise NotImplementedError

    def value(self, case: Case) -> Any:
        raise NotImplementedError

    def make_case(self, value: Any, name: str, visibility: Visibility = Visibility.SAMPLE) -> Case:
        raise NotImplementedError

    def unusable_by(self, problem: Problem, language: Language) -> str | None:
        return None  # every language that supports the task type

    def stdin(self, case: Case) -> bytes:
        return case.stdin_bytes()

    def run(self, execute: Execute, command: list[str], case: Case, limits: Limits, program_dir: Path) -> Outcome:
        return execute(command, self.stdin(case), limits, program_dir)

    def judge_case(self, problem: Problem, prepared: Prepared, case: Case, execute: Execute) -> CaseResult | None:
        return None  # the runner runs the case and checks its output

    def reference_answer(self, reference: ModuleType, value: Any) -> Any:
        raise NotImplementedError

    def answer_text(self, answer: Any) -> str:
        raise NotImplementedError

    def output_answer(self, output: str) -> Any:
        return output

    def show_value(self, value: Any) -> str:
        raise NotImplementedError

    def show_answer(self, answer: Any) -> str:
        raise NotImplementedError

    def show_sample(self, name: str, value: Any, expected: Any) -> str:
        raise NotImplementedError

    def describe(self) -> str:
        return self.name
