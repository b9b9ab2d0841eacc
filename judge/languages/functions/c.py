"""C's function style, in Programmers' convention: each array parameter is followed by its
lengths (``int aloc[], size_t aloc_len``; ``int** board, size_t board_rows, size_t board_cols``),
strings are ``const char*``.

A function that returns an array also takes pointers it sets to the result's lengths
(``size_t* return_len``, or ``size_t* return_rows, size_t* return_cols``): Programmers leaves the
length implicit, which a harness that does not know the answer cannot read.

The build: ``solution.c`` (the student's file, unchanged) is compiled with the expected
declaration forced in first (``-include judge_solution.h``), so a definition of another type is
"conflicting types"; ``judge_main.c`` reads the arguments and calls it. One gcc command
compiles and links both; a ``main`` in the student's file is then a duplicate ``main``.
"""

from __future__ import annotations

import re

from judge.languages.functions import LINK_MAIN_TWICE, FunctionStyle, harness_text, quoted
from judge.model.signature import Param, Signature, Type, length_names

SCALARS = {"int": "int", "long": "long long", "double": "double", "bool": "bool", "string": "const char*"}
RETURNED_SCALARS = {**SCALARS, "string": "char*"}
DECLARATION_FILE = "judge_solution.h"
MAIN_FILE = "judge_main.c"
RUNTIME_FILE = "judge_function_call.h"
SOURCE_NAME = "solution.c"


def parameter_declarations(param: Param) -> list[str]:
    """``int aloc[]``, ``size_t aloc_len``: the C parameters one signature parameter becomes."""
    scalar, depth = SCALARS[param.type.scalar], param.type.depth
    first = {0: f"{scalar} {param.name}", 1: f"{scalar} {param.name}[]", 2: f"{scalar}** {param.name}"}[depth]
    return [first, *(f"size_t {name}" for name in length_names(param.name, param.type))]


def return_type(type_: Type) -> str:
    return RETURNED_SCALARS[type_.scalar] + "*" * type_.depth


class CFunction(FunctionStyle):
    source_name = SOURCE_NAME

    def declaration(self, signature: Signature) -> str:
        params = [text for param in signature.params for text in parameter_declarations(param)]
        params += [f"size_t* {name}" for name in length_names("return", signature.returns)]
        return f"{return_type(signature.returns)} {signature.name}({', '.join(params) or 'void'})"

    def harness_files(self, signature: Signature) -> dict[str, bytes]:
        header = ("#ifndef JUDGE_SOLUTION_H\n#define JUDGE_SOLUTION_H\n#include <stdbool.h>\n"
                  f"#include <stddef.h>\n{self.declaration(signature)};\n#endif\n")
        return {DECLARATION_FILE: header.encode(), RUNTIME_FILE: harness_text("function_call_c.h"),
                MAIN_FILE: _main(signature).encode()}

    def compile_arguments(self, work: str) -> list[str]:
        """What follows the compiler and its flags: the forced declaration and both files."""
        return ["-include", f"{work}/{DECLARATION_FILE}", "-o", f"{work}/program",
                f"{work}/{SOURCE_NAME}", f"{work}/{MAIN_FILE}", "-lm"]

    def diagnose(self, message: str, signature: Signature) -> str | None:
        if LINK_MAIN_TWICE.search(message):
            return "main"
        if re.search(f"undefined reference to {quoted(signature.name)}", message):
            return "missing"
        if re.search(rf"{SOURCE_NAME}:\d+:\d+: error: .*{quoted(signature.name)}", message):
            return "mismatch"  # conflicting types, or static after the forced extern declaration
        return None


def _main(signature: Signature) -> str:
    """The generated ``main``: read each argument, call once, write the result."""
    # -std=c17 hides POSIX's dup and fdopen unless asked for them, before any system header.
    lines = ["#define _POSIX_C_SOURCE 200809L", f'#include "{DECLARATION_FILE}"', f'#include "{RUNTIME_FILE}"', "",
             "int main(void) {",
             "  judge_read_input();", "  judge_expect('[');"]
    arguments = []
    for index, param in enumerate(signature.params):
        if index:
            lines.append("  judge_expect(',');")
        lines += _read(param)
        arguments += [param.name, *length_names(param.name, param.type)]
    lines.append("  judge_expect(']');")
    returned = length_names("return", signature.returns)
    lines += [f"  size_t {name} = 0;" for name in returned]
    arguments += [f"&{name}" for name in returned]
    lines += ["  judge_begin_call();",
              f"  {return_type(signature.returns)} judge_result = {signature.name}({', '.join(arguments)});",
              f"  {_write(signature.returns, returned)};",
              "  return judge_finish();", "}", ""]
    return "\n".join(lines)


def _read(param: Param) -> list[str]:
    scalar, name, type_ = SCALARS[param.type.scalar], param.name, param.type
    lengths = length_names(name, type_)
    if type_.depth == 0:
        return [f"  {scalar} {name} = judge_read_{type_.scalar}();"]
    if type_.depth == 1:
        return [f"  size_t {lengths[0]};", f"  {scalar}* {name} = judge_read_{type_.scalar}_array(&{lengths[0]});"]
    return [f"  size_t {lengths[0]}, {lengths[1]};",
            f"  {scalar}** {name} = judge_read_{type_.scalar}_matrix(&{lengths[0]}, &{lengths[1]});"]


def _write(type_: Type, lengths: tuple[str, ...]) -> str:
    # A returned char* (array) is written through const pointers; the cast says so, warning-free.
    if type_.depth == 0:
        return f"judge_write_{type_.scalar}(judge_result)"
    element = SCALARS[type_.scalar]
    if type_.depth == 1:
        return f"judge_write_{type_.scalar}_array(({element} const*)judge_result, {lengths[0]})"
    return f"judge_write_{type_.scalar}_matrix(({element}* const*)judge_result, {lengths[0]}, {lengths[1]})"
