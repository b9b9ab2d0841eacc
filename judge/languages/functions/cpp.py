"""C++'s function style: ``int solution(vector<vector<int>> board, vector<int> aloc, ...)``.

The student may take each parameter by value, by reference or by const reference, and may
include anything: so the call is compiled in the student's translation unit, by overload
resolution, not against a forced declaration. ``judge_bridge.cpp`` includes ``solution.cpp``
(the student's file, unchanged) and defines one function that calls ``solution`` with lvalues of
the declared types and returns the declared type; ``judge_main.cpp`` reads the arguments, calls
the bridge and writes the result. One g++ command compiles and links both; a ``main`` in the
student's file is then a duplicate ``main``.
"""

from __future__ import annotations

import re

from judge.languages.functions import LINK_MAIN_TWICE, FunctionStyle, harness_text, quoted
from judge.model.signature import Signature, Type

SCALARS = {"int": "int", "long": "long long", "double": "double", "bool": "bool", "string": "string"}
BRIDGE_FILE = "judge_bridge.cpp"
MAIN_FILE = "judge_main.cpp"
RUNTIME_FILE = "judge_function_call.hpp"
SOURCE_NAME = "solution.cpp"
BRIDGE_UNDEFINED = re.compile(f"undefined reference to {quoted('judge_bridge::call', '[(]')}")


def cpp_type(type_: Type, std: str = "") -> str:
    """``vector<vector<int>>`` (with ``std="std::"``, fully qualified, as the judge's files write it)."""
    text = f"{std}string" if type_.scalar == "string" else SCALARS[type_.scalar]
    for _ in range(type_.depth):
        text = f"{std}vector<{text}>"
    return text


class CppFunction(FunctionStyle):
    source_name = SOURCE_NAME

    def declaration(self, signature: Signature) -> str:
        params = ", ".join(f"{cpp_type(param.type)} {param.name}" for param in signature.params)
        return f"{cpp_type(signature.returns)} {signature.name}({params})"

    def harness_files(self, signature: Signature) -> dict[str, bytes]:
        return {BRIDGE_FILE: _bridge(signature).encode(), MAIN_FILE: _main(signature).encode(),
                RUNTIME_FILE: harness_text("function_call_cpp.hpp")}

    def compile_arguments(self, work: str) -> list[str]:
        """What follows the compiler and its flags: both translation units, linked together."""
        return ["-o", f"{work}/program", f"{work}/{BRIDGE_FILE}", f"{work}/{MAIN_FILE}", "-lm"]

    def diagnose(self, message: str, signature: Signature) -> str | None:
        if LINK_MAIN_TWICE.search(message):
            return "main"
        if re.search(rf"^{SOURCE_NAME}:\d+:\d+: error", message, re.MULTILINE):
            return None  # the student's own errors come first; the call may fail only because of them
        name = signature.name
        if re.search(f"{quoted(name)} was not declared in this scope; did you mean {quoted('Solution')}", message):
            return "method"  # LeetCode's `class Solution { public: ... }`
        if re.search(f"{quoted(name)} was not declared|undefined reference to {quoted(name, '[(]')}", message):
            return "missing"
        if BRIDGE_FILE in message:
            return "mismatch"
        if BRIDGE_UNDEFINED.search(message):
            # The bridge defines `call` after including the student's file, so a macro of theirs
            # that renames a type (`#define int long long`) changes its types, and main's call
            # to it finds no such function.
            return "macro"
        return None


def _bridge_declaration(signature: Signature) -> str:
    params = ", ".join(f"{cpp_type(param.type, 'std::')}& {param.name}" for param in signature.params)
    return f"{cpp_type(signature.returns, 'std::')} call({params})"


def _bridge(signature: Signature) -> str:
    arguments = ", ".join(param.name for param in signature.params)
    return "\n".join([
        "#include <string>", "#include <vector>", f'#include "{SOURCE_NAME}"', "",
        "namespace judge_bridge {", f"{_bridge_declaration(signature)} {{",
        f"  return {signature.name}({arguments});", "}", "}", ""])


def _main(signature: Signature) -> str:
    lines = [f'#include "{RUNTIME_FILE}"', "", f"namespace judge_bridge {{ {_bridge_declaration(signature)}; }}",
             "", "int main() {", "  judge_harness::Reader judge_in;", "  judge_in.expect('[');"]
    for index, param in enumerate(signature.params):
        if index:
            lines.append("  judge_in.expect(',');")
        lines += [f"  {cpp_type(param.type, 'std::')} {param.name};", f"  judge_in.read({param.name});"]
    arguments = ", ".join(param.name for param in signature.params)
    lines += ["  judge_in.expect(']');", "  judge_harness::begin_call();",
              f"  {cpp_type(signature.returns, 'std::')} judge_result = judge_bridge::call({arguments});",
              "  judge_harness::write(judge_result);", "  return judge_harness::finish();", "}", ""]
    return "\n".join(lines)
