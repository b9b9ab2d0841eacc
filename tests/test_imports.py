"""Every module of the judge imports on its own, first of all: no import cycle hides behind the
order in which the commands happen to import them (tools/import_cycles.py checks the graph;
this checks what Python does, package __init__ files included)."""

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
