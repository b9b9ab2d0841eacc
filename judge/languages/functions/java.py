"""Java's function style, as Programmers presents it: ``class Solution { public int
solution(int[][] board, int[] aloc, int[] bloc) }`` -- an instance method; any imports; any file
name (the file is named after its public class, if it has one).

The build: the student's file, unchanged, and the generated ``JudgeHarness.java`` (its ``main``
reads the arguments, calls ``new Solution().solution(...)`` and writes the result, followed by
the fixed reader and writer ``JudgeJson``), compiled by one javac command. A mismatch shows as a
javac error in the harness, which is explained with the expected declaration.
"""

from __future__ import annotations

import re

from judge.languages.functions import FunctionStyle, harness_text
from judge.model.signature import Signature, Type

SCALARS = {"int": "int", "long": "long", "double": "double", "bool": "boolean", "string": "String"}
READERS = {"int": ("readInt", "ints"), "long": ("readLong", "longs"), "double": ("readDouble", "doubles"),
           "bool": ("readBool", "bools"), "string": ("readString", "strings")}
HARNESS_CLASS = "JudgeHarness"
HARNESS_FILE = f"{HARNESS_CLASS}.java"
CLASS_NAME = "Solution"


def java_type(type_: Type) -> str:
    return SCALARS[type_.scalar] + "[]" * type_.depth


def reader(type_: Type) -> str:
    """The JudgeJson method that reads a value of ``type_``."""
    scalar, array = READERS[type_.scalar]
    return {0: scalar, 1: array, 2: f"{array}2"}[type_.depth]


class JavaFunction(FunctionStyle):
    function_word = "method"
    diagnostic_start = re.compile(r"^(\S+\.java:\d+: (error|warning)|\d+ (error|warning)s?$|Note: )")

    def declaration(self, signature: Signature) -> str:
        params = ", ".join(f"{java_type(param.type)} {param.name}" for param in signature.params)
        return f"class {CLASS_NAME} {{ public {java_type(signature.returns)} {signature.name}({params}) }}"

    def harness_files(self, signature: Signature) -> dict[str, bytes]:
        return {HARNESS_FILE: _main(signature).encode() + b"\n" + harness_text("function_call_java.java")}

    def diagnose(self, message: str, signature: Signature) -> str | None:
        if re.search(r"^(?!" + HARNESS_CLASS + r")\S+\.java:\d+: error", message, re.MULTILINE):
            return None  # the student's own errors; the call may fail only because of them
        if re.search(rf"symbol:\s+class {CLASS_NAME}\b", message):
            return "class"
        if re.search(rf"symbol:\s+method {re.escape(signature.name)}\(", message):
            return "missing"
        return "mismatch" if HARNESS_FILE in message else None

    def is_harness_line(self, line: str) -> bool:
        return HARNESS_CLASS in line or "JudgeJson" in line or bool(re.match(r"\d+ (error|warning)s?$", line))


def _main(signature: Signature) -> str:
    returned = java_type(signature.returns)
    lines = [f"public class {HARNESS_CLASS} {{", "    public static void main(String[] judgeArgs) throws Exception {",
             "        JudgeJson judgeIn = new JudgeJson(System.in);", "        judgeIn.expect('[');"]
    for index, param in enumerate(signature.params):
        if index:
            lines.append("        judgeIn.expect(',');")
        lines.append(f"        {java_type(param.type)} {param.name} = judgeIn.{reader(param.type)}();")
    arguments = ", ".join(param.name for param in signature.params)
    lines += [
        "        judgeIn.expect(']');",
        "        java.io.PrintStream judgeResult = new java.io.PrintStream(",
        '            new java.io.FileOutputStream(java.io.FileDescriptor.out), false, "UTF-8");',
        "        System.setOut(System.err);  // the submission's prints cannot forge the result",
        f"        {returned} judgeValue;",
        "        try {",
        f"            judgeValue = new {CLASS_NAME}().{signature.name}({arguments});",
        "        } catch (Throwable judgeError) {",
        "            JudgeJson.fail(judgeError);",
        "            return;",
        "        }",
        "        System.out.flush();",
        "        judgeResult.print(JudgeJson.json(judgeValue));",
        "        judgeResult.flush();",
        "    }",
        "}",
    ]
    return "\n".join(lines)
