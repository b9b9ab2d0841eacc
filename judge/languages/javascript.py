"""JavaScript on node. Standard-I/O programs read process.stdin or fs.readFileSync(0);
function-style problems define ``function solution(...)`` and are called by a harness.

A folder program's entry is the file ``package.json``'s ``main`` names, else ``main.js``, else
``main.mjs``, else the first ``.js``/``.mjs``/``.cjs`` file in name order (DOMjudge runs the first
file it is given), and every ``.js`` file must pass ``node --check`` (as DOMjudge checks them), so
a module the entry imports under a name node does not resolve is a run-time error, as there.

Memory: V8 reserves a large address space, so the heap is capped with --max-old-space-size and
the resident set is checked against the limit plus an allowance for node itself.
"""

from __future__ import annotations

import json
import posixpath
import re
import shlex
from pathlib import Path

from judge.errors import CompileError
from judge.languages.base import (
    HARNESS_DIR,
    Language,
    Program,
    cache_key,
    cached_build,
    exec_server_files,
    read_source,
)
from judge.languages.folder import entry_file
from judge.languages.functions.javascript import JavaScriptFunction
from judge.model.signature import Signature
from judge.model.vocabulary import TaskStyle

NODE_ALLOWANCE = 96 << 20
NODE_COMMAND = ("node", "--max-old-space-size={memory_mb}", "--stack-size=32000")
# How node resolves a package's main when it names no file as it is: these endings, then the
# folder's index file.
NODE_MAIN_ENDINGS = ("", ".js", ".mjs", ".cjs", "/index.js", "/index.mjs", "/index.cjs")
# Where node's report of an uncaught error places it: the first frame in the program's file.
NODE_FRAME = re.compile(r"/solution\.[cm]?js:(\d+)")


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
    folder_entries = ("main.js", "main.mjs")
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


    def prepare_folder(self, files: dict[str, bytes], path: Path, entry: str | None,
                       header_folders: tuple[str, ...] = ()) -> Program:
        chosen = entry_file(files, self.extensions, self.folder_entries, path, entry or _package_main(files, path),
                            first_otherwise=True)
        # Every .js file's syntax, as DOMjudge's js compile script checks them, and the entry's.
        checked = sorted({chosen, *(name for name in files if name.endswith(".js"))})
        check = ["/bin/sh", "-c", " && ".join(f"node --check {shlex.quote('{work}/' + name)}" for name in checked)]
        key = cache_key(self.name, self.version(), chosen, *files, *files.values())
        return Program(self.name, cached_build(key, files, check), (*NODE_COMMAND, "{prog}/" + chosen))

    def holds_entry(self, files: dict[str, bytes]) -> bool:
        return "package.json" in files or super().holds_entry(files)

    def failing_line(self, stderr: str) -> str | None:
        found = NODE_FRAME.search(stderr)
        return f"line {found.group(1)}" if found else None


def _package_main(files: dict[str, bytes], path: Path) -> str | None:
    """The entry file a folder's ``package.json`` names as its ``main``, or None without one.
    CompileError for a package.json that cannot be read or names no file here."""
    if "package.json" not in files:
        return None
    try:
        main = json.loads(files["package.json"]).get("main")
    except (ValueError, AttributeError) as error:
        raise CompileError(f"{path.name}/package.json is not a JSON object ({error})") from None
    if main is None:
        return None
    wanted = posixpath.normpath(str(main)).removeprefix("./")
    found = next((wanted + ending for ending in NODE_MAIN_ENDINGS if wanted + ending in files), None)
    if found is None:
        raise CompileError(f"{path.name}/package.json: its main {main!r} is not one of the folder's files")
    return found


def _node_message(text: str) -> str:
    """node --check prints the offending line and a caret; drop its internal stack lines."""
    return "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("at "))
