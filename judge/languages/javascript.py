"""JavaScript on node. Standard-I/O programs read process.stdin or fs.readFileSync(0);
function-style problems define ``function solution(...)`` and are called by a harness.

Memory: V8 reserves a large address space, so the heap is capped with --max-old-space-size and
the resident set is checked against the limit plus an allowance for node itself.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from judge.languages.base import HARNESS_DIR, Language, Program, cache_key, cached_build, read_source, with_time
from judge.sandbox import Limits

NODE_ALLOWANCE = 96 << 20


class JavaScript(Language):
    name = "javascript"
    extensions = (".js", ".mjs", ".cjs")
    styles = ("stdio", "function")
    toolchain = ("node",)
    memory_markers = (b"JavaScript heap out of memory", b"Allocation failed")
    install_hint = "Node.js (Debian: apt-get install nodejs)"

    def prepare(self, source: Path, style: str) -> Program:
        self.version()
        files = {"solution.js": read_source(source)}
        command = ["node", "--max-old-space-size={memory_mb}", "--stack-size=32000"]
        if style == "function":
            files["harness.js"] = (HARNESS_DIR / "function_call.js").read_bytes()
            command += ["{prog}/harness.js", "{prog}/solution.js"]
        else:
            command += ["{prog}/solution.js"]
        # A syntax check up front makes a syntax error CE, as in the compiled languages.
        check = ["node", "--check", "{work}/solution.js"]
        key = cache_key(self.name, self.version(), style, *files.values())
        directory = cached_build(key, files, check, clean_message=_node_message)
        return Program(self.name, directory, tuple(command))

    def limits(self, base: Limits) -> Limits:
        slower = with_time(base, 1.5, 0.2)
        return dataclasses.replace(slower, limit_address_space=False, memory_slack=NODE_ALLOWANCE)


def _node_message(text: str) -> str:
    """node --check prints the offending line and a caret; drop its internal stack lines."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("at "))
