"""Function call: the submission defines ``solution(...)``; a harness in the sandbox calls it
with the case's arguments (sent as JSON on stdin) and prints the return value as JSON. Typed
languages build their harness from the problem's signature (``judge/model/signature.py``)."""

from __future__ import annotations

import copy
import json
from types import ModuleType
from typing import Any

from judge.languages import LANGUAGES
from judge.model.problem import Case
from judge.model.returned_value import decode_returned_value
from judge.model.vocabulary import TaskStyle, Visibility
from judge.tasks.base import TaskType


class FunctionCall(TaskType):
    name = TaskStyle.FUNCTION
    case_field = "args"
    default_checker = "data"
    value_label = "arguments"

    def case_data(self, raw, read) -> dict:
        return {"args": tuple(read("args", list)), "expected": raw.get("expected")}

    def unusable_by(self, problem, language) -> str | None:
        style = language.function_style
        if problem.signature is None and style is not None and style.needs_signature:
            usable = [name for name, lang in LANGUAGES.items()
                      if lang.function_style is not None and not lang.function_style.needs_signature]
            return (f"{problem.id} gives no typed signature, which {language.name} needs to call its function; "
                    f"submit it in {' or '.join(usable)}, or add `signature:` to its suite")
        return None

    def value(self, case: Case) -> list:
        return list(case.args or ())

    def make_case(self, value: Any, name: str, visibility: Visibility = Visibility.SAMPLE) -> Case:
        return Case(name=name, args=tuple(value), visibility=visibility)

    def reference_answer(self, reference: ModuleType, value: Any) -> Any:
        # Deep-copied, so a solver that mutates its arguments cannot change the case.
        return reference.solution(*copy.deepcopy(list(value or ())))

    def answer_text(self, answer: Any) -> str:
        return json.dumps(answer)

    def output_answer(self, output: str) -> Any:
        return decode_returned_value(output)

    def show_value(self, value: Any) -> str:
        return json.dumps(value)

    def show_answer(self, answer: Any) -> str:
        return json.dumps(answer)

    def show_sample(self, name: str, value: Any, expected: Any) -> str:
        arguments = ", ".join(json.dumps(argument) for argument in value)
        return f"## {name}\nsolution({arguments}) == {json.dumps(expected)}\n"

    def describe(self) -> str:
        return "function"
