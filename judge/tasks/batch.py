"""Batch (standard I/O): the program reads the case's input on stdin and writes its answer."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from judge.model.problem import Case
from judge.model.vocabulary import TaskStyle, Visibility
from judge.tasks.base import TaskType


class Batch(TaskType):
    name = TaskStyle.STDIO
    case_field = "input"
    default_checker = "tokens"
    value_label = "input"

    def case_data(self, raw, read) -> dict:
        return {"input": read("input", str), "expected": read("output", str, None)}

    def value(self, case: Case) -> str:
        return case.input or ""

    def make_case(self, value: Any, name: str, visibility: Visibility = Visibility.SAMPLE) -> Case:
        return Case(name=name, input=value, visibility=visibility)

    def reference_answer(self, reference: ModuleType, value: Any) -> Any:
        return reference.solve(value or "")

    def answer_text(self, answer: Any) -> str:
        return str(answer)

    def show_value(self, value: Any) -> str:
        return str(value).rstrip("\n")

    def show_answer(self, answer: Any) -> str:
        return str(answer).rstrip("\n")

    def show_sample(self, name: str, value: Any, expected: Any) -> str:
        return f"## {name}\ninput:\n{self.show_value(value)}\noutput:\n{str(expected).rstrip()}\n"
