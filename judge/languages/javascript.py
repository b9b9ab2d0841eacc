"""JavaScript on node. Standard-I/O programs read process.stdin or fs.readFileSync(0);
function-style problems define ``function solution(...)`` and are called by a harness.

Memory: V8 reserves a large address space, so the heap is capped with --max-old-space-size and
the resident set is checked against the limit plus an allowance for node itself.
"""

from __future__ import annotations

from pathlib import Path

from judge.languages.base import (
    HARNESS_DIR,
    Language,
    Program,
    cache_key,
    cached_build,
    exec_server_files,
    read_source,
)
from judge.languages.functions.javascript import JavaScriptFunction
from judge.model.signature import Signature
from judge.model.vocabulary import TaskStyle

NODE_ALLOWANCE = 96 << 20
NODE_COMMAND = ("node", "--max-old-space-size={memory_mb}", "--stack-size=32000")


class JavaScript(Language):
    name = "javascript"
    title = "JavaScript"
    extensions = (".js", ".mjs", ".cjs")
    styles = (TaskStyle.STDIO, TaskStyle.FUNCTION)
    function_style = JavaScriptFunction()  # today's harness calls solution(*args), typed or not
    toolchain = ("node",)
    memory_markers = (b"JavaScript heap out of memory", b"Allocation failed")
    apt_packages = ("nodejs",)
    time_factor, time_extra = 1.5, 0.2  # V8 start-up and its compiler threads
    build_seconds = 0.1  # node --check
    memory_slack = NODE_ALLOWANCE
    limit_address_space = False
    exec_server = True
    self_test_file = "sum.js"
    self_test_source = ("const [a, b] = require('fs').readFileSync(0, 'utf8').trim().split(/\\s+/).map(Number);\n"
                        "console.log(a + b);\n")

    def prepare(self, source: Path, style: str, signature: Signature | None = None) -> Program:
        self.version()
        # The extension stays: node reads a .mjs file as an ES module, a .js or .cjs one as CommonJS.
        name = "solution" + (source.suffix.lower() if source.suffix.lower() in self.extensions else ".js")
        files = {name: read_source(source)}
        command = list(NODE_COMMAND)
        if style == TaskStyle.FUNCTION:
            files["harness.js"] = (HARNESS_DIR / "function_call.js").read_bytes()
            command += ["{prog}/harness.js", "{prog}/" + name]
        else:
            command += ["{prog}/" + name]
        # A syntax check up front makes a syntax error CE, as in the compiled languages.
        check = ["node", "--check", "{work}/" + name]
        files.update(exec_server_files())
        # The name is part of the key: the same bytes as a.mjs and as a.js are built (and run) apart.
        key = cache_key(self.name, self.version(), style, name, *files.values())
        directory = cached_build(key, files, check, clean_message=_node_message)
        return Program(self.name, directory, tuple(command))


def _node_message(text: str) -> str:
    """node --check prints the offending line and a caret; drop its internal stack lines."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("at "))
