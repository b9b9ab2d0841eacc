"""Every module of the judge imports on its own, first of all: no import cycle hides behind the
order in which the commands happen to import them (tools/import_cycles.py checks the graph;
this checks what Python does, package __init__ files included)."""

import json
import os
import subprocess
import sys

from conftest import ROOT

EACH_FIRST = """
import importlib, pkgutil, sys, traceback
import judge
names = sorted(module.name for module in pkgutil.walk_packages(judge.__path__, "judge.")
               if ".templates" not in module.name and not module.name.endswith("__main__"))
failed = []
for name in names:
    for loaded in [loaded for loaded in sys.modules if loaded == "judge" or loaded.startswith("judge.")]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except Exception as error:  # any failure to import is the finding
        failed.append(f"{name}: {type(error).__name__}: {error}")
print(len(names))
print("\\n".join(failed))
"""


def test_every_module_imports_first_of_all():
    done = subprocess.run([sys.executable, "-c", EACH_FIRST], capture_output=True, text=True, cwd=ROOT,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    count, *failures = done.stdout.strip().split("\n")
    assert int(count) > 100
    assert not [line for line in failures if line], failures


# What `judge run` imports to judge one case of a YAML suite: the command, the suite format, the
# runner, the sandbox, the submission's language alone (a sandbox's view shows the runtimes of the
# languages asked for so far) and the report. Nothing of the package format's machinery (judge.formats.icpc's loader,
# generators, validators), of grading, of the counterexample search's package part, of other
# packages' plugins or of the limits-only tier (psutil). A module new to this list is a decision:
# it costs every student's quickest check its import time.
RUN_IMPORTS = {
    "judge", "judge.renderers.case_stream", "judge.renderers.case_view", "judge.formats.catalog", "judge.problem_code.checkers", "judge.cli",
    "judge.commands", "judge.commands.common", "judge.commands.run_command", "judge.languages.content_hash",
    "judge.text.docs_links", "judge.errors", "judge.authoring.explain", "judge.model.feedback", "judge.formats", "judge.formats.base",
    "judge.formats.icpc.format", "judge.formats.suite.format", "judge.formats.suite.checks", "judge.harness",
    "judge.harness.case_control", "judge.harness.ipc_objects", "judge.harness.proc_usage",
    "judge.harness.process_watch", "judge.sandbox.host", "judge.problem_code.hypothesis_search", "judge.formats.icpc", "judge.languages",
    "judge.languages.base", "judge.languages.build_cache", "judge.languages.cache_limits",
    "judge.languages.cache_locks", "judge.languages.cache_sweep", "judge.languages.cache_users",
    "judge.languages.folder", "judge.languages.functions", "judge.languages.functions.python",
    "judge.languages.python",
    "judge.text.output_diff",
    "judge.authoring.planned_examples", "judge.model.problem", "judge.languages.program", "judge.problem_code.python_files", "judge.problem_code.reference",
    "judge.renderers", "judge.renderers.run", "judge.renderers.run.table", "judge.renderers.report", "judge.model.results",
    "judge.model.returned_value", "judge.runner", "judge.sandbox", "judge.sandbox.command",
    "judge.sandbox.ipc_namespace", "judge.sandbox.limits", "judge.sandbox.namespace_refusal",
    "judge.sandbox.new_root", "judge.sandbox.probe_cache", "judge.sandbox.root_init", "judge.sandbox.run",
    "judge.sandbox.runtime", "judge.sandbox.scratch", "judge.sandbox.server", "judge.sandbox.slots",
    "judge.sandbox.spawn", "judge.sandbox.tiers", "judge.sandbox.view", "judge.model.scoring", "judge.model.signature",
    "judge.workers", "judge.authoring.stress", "judge.text.suggestions", "judge.tasks", "judge.tasks.base", "judge.tasks.batch",
    "judge.tasks.function_call", "judge.text.terminal", "judge.model.verdict", "judge.text.visible_text", "judge.model.vocabulary",
    "judge.languages.warm", "judge.text.yaml_files",
    # the layers' packages
    "judge.authoring", "judge.formats.suite", "judge.model", "judge.problem_code", "judge.text",
    "judge.extension_points", "judge.plugins",
}
# Not the judge's, but as costly: reading installed packages' metadata (with the email parser),
# the results store's database (a run not recorded) and the counterexample search's processes.
RUN_AVOIDS = {"importlib.metadata", "email.message", "psutil", "sqlite3", "multiprocessing"}

IMPORTED_BY_RUN = """
import json, sys
before = set(sys.modules)  # what the interpreter's own start imported (a site .pth may import anything)
from judge.cli import main
status = main(sys.argv[2:])
loaded = sorted(name for name in set(sys.modules) - before if name == "judge" or name.startswith("judge.")
                or name in {avoided})
with open(sys.argv[1], "w") as out:
    json.dump({{"status": status, "modules": loaded}}, out)
"""


def test_judging_one_case_of_a_suite_imports_only_what_it_needs(tmp_path):
    # From a student's folder (no problems of its own), where the working directory is looked
    # through for problems before the built-in ones, by every format.
    listing = tmp_path / "modules.json"
    solution = tmp_path / "game_dp.py"
    solution.write_bytes((ROOT / "solutions" / "stones" / "accepted" / "game_dp.py").read_bytes())
    code = IMPORTED_BY_RUN.format(avoided=sorted(RUN_AVOIDS))
    done = subprocess.run([sys.executable, "-c", code, str(listing), "run", "stones", solution.name, "--case",
                           "sample-1", "--no-record"], capture_output=True, text=True, cwd=tmp_path,
                          env=as_a_student_has_it(), timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    found = json.loads(listing.read_text())
    assert found["status"] == 0, done.stdout
    loaded = set(found["modules"])
    assert not loaded & RUN_AVOIDS, f"judge run imports {sorted(loaded & RUN_AVOIDS)}"
    assert loaded - RUN_IMPORTS == set(), "judge run imports modules it did not: add them to RUN_IMPORTS if need be"
    assert RUN_IMPORTS - loaded == set(), "judge run no longer imports these: take them out of RUN_IMPORTS"


def as_a_student_has_it() -> dict[str, str]:
    """The environment, with the counterexample search's default budget (the suite sets none)."""
    environment = {name: value for name, value in os.environ.items() if name != "JUDGE_EXPLAIN_SECONDS"}
    return {**environment, "PYTHONPATH": str(ROOT)}


ONE_C_CASE = """
import sys
from pathlib import Path
from judge.formats.catalog import load_problem
from judge.runner import judge_submission
stones = load_problem("stones")
result = judge_submission(stones, Path(sys.argv[1]), cases=[stones.case("sample-1")], cold=sys.argv[2] == "cold")
languages = sorted(name.rsplit(".", 1)[1] for name in sys.modules
                   if name in {f"judge.languages.{module}" for module in ("python", "compiled", "java", "javascript",
                                                                          "kotlin", "bash")})
print(result.cases[0].verdict, " ".join(languages))
"""


def test_a_c_submission_imports_its_language_and_its_exec_servers_alone(tmp_path):
    # The warm run's exec server is a Python program: the view shows Python's runtime for it.
    source = tmp_path / "stones.c"
    source.write_text('#include <stdio.h>\nint main(void) { int n; scanf("%d", &n); puts(n % 2 ? "SK" : "CY"); }\n')
    for way in ("warm", "cold"):
        done = subprocess.run([sys.executable, "-c", ONE_C_CASE, str(source), way], capture_output=True, text=True,
                              cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300, check=False)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == ["AC", "compiled", "python"], (way, done.stdout)
