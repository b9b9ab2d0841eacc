"""JavaScript's function style: ``function solution(board, aloc, bloc)``, called by
``judge/harness/function_call.js`` with the case's arguments (numbers, booleans, strings, arrays)."""

from __future__ import annotations

from judge.languages.functions import FunctionStyle
from judge.model.signature import Signature


class JavaScriptFunction(FunctionStyle):
    needs_signature = False
    takes_signature = False

    def declaration(self, signature: Signature) -> str:
        return f"function {signature.name}({', '.join(param.name for param in signature.params)})"
