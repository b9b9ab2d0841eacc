"""Python's function style: ``def solution(board: list[list[int]], ...) -> int``, called by
``judge/harness/function_call.py`` with the case's arguments, typed or not."""

from __future__ import annotations

from judge.languages.functions import FunctionStyle
from judge.signature import Signature, Type

SCALARS = {"int": "int", "long": "int", "double": "float", "bool": "bool", "string": "str"}


def python_type(type_: Type) -> str:
    text = SCALARS[type_.scalar]
    for _ in range(type_.depth):
        text = f"list[{text}]"
    return text


class PythonFunction(FunctionStyle):
    needs_signature = False

    def declaration(self, signature: Signature) -> str:
        params = ", ".join(f"{param.name}: {python_type(param.type)}" for param in signature.params)
        return f"def {signature.name}({params}) -> {python_type(signature.returns)}"
