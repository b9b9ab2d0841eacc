"""Python's function style: ``def solution(board: list[list[int]], ...) -> int``, called by
``judge/harness/function_call.py`` with the case's arguments, typed or not."""

from __future__ import annotations

import ast

from judge.languages.functions import FunctionStyle
from judge.model.signature import Signature, Type

SCALARS = {"int": "int", "long": "int", "double": "float", "bool": "bool", "string": "str"}


def python_type(type_: Type) -> str:
    text = SCALARS[type_.scalar]
    for _ in range(type_.depth):
        text = f"list[{text}]"
    return text


class PythonFunction(FunctionStyle):
    needs_signature = False  # the harness calls solution(*args), typed or not
    takes_signature = True  # to check the submission's def against it, when the problem has one

    def declaration(self, signature: Signature) -> str:
        params = ", ".join(f"{param.name}: {python_type(param.type)}" for param in signature.params)
        return f"def {signature.name}({params}) -> {python_type(signature.returns)}"

    def interface_problem(self, code: bytes, signature: Signature) -> str | None:
        """"missing" when nothing at the top level is called ``solution`` ("method" when a class
        defines it, as LeetCode's ``class Solution`` does), "mismatch" when a
        top-level ``def solution`` cannot take the signature's arguments; None otherwise (also
        when ``solution`` is bound some other way, which only running it can tell)."""
        try:
            tree = ast.parse(code)
        except (SyntaxError, ValueError):
            return None  # the syntax check reports it
        bound = [node for node in tree.body if signature.name in _names_bound(node)]
        if not bound:
            return "method" if _in_a_class(tree, signature.name) else "missing"
        last = bound[-1]
        if isinstance(last, (ast.FunctionDef, ast.AsyncFunctionDef)) and last.name == signature.name:
            return None if _accepts(last.args, len(signature.params)) else "mismatch"
        return None


def _in_a_class(tree: ast.Module, name: str) -> bool:
    """Whether a top-level class defines a method called ``name``."""
    return any(isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == name
               for node in tree.body if isinstance(node, ast.ClassDef) for item in node.body)


def _names_bound(node: ast.stmt) -> set[str]:
    """The names a top-level statement binds (def, class, assignment, import, ...)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(alias.asname or alias.name).split(".")[0] for alias in node.names}
    return {target.id for target in ast.walk(node) if isinstance(target, ast.Name) and isinstance(target.ctx, ast.Store)}


def _accepts(arguments: ast.arguments, count: int) -> bool:
    """Whether a function with these parameters can be called with ``count`` positional arguments."""
    positional = len(arguments.posonlyargs) + len(arguments.args)
    required = positional - len(arguments.defaults)
    keyword_only_required = sum(default is None for default in arguments.kw_defaults)
    if keyword_only_required:
        return False
    return required <= count and (count <= positional or arguments.vararg is not None)
