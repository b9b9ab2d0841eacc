"""Other packages' plugins are found by the entry points they declare, and importlib.metadata
(10 to 20 ms to import) is asked only when some distribution on the path declares the group."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from conftest import ROOT

ASK = """
import json, sys
from judge.plugins import declared_groups, registered
found = registered(sys.argv[1])
groups = declared_groups()
print(json.dumps({"found": [type(item).__name__ for item in found],
                  "metadata_imported": "importlib.metadata" in sys.modules,
                  "groups": None if groups is None else sorted(groups)}))
"""

TOY_FORMAT = """
class Pebbles:
    name = "pebbles"
"""


def ask(group: str, *path: Path) -> dict:
    import json

    python_path = ":".join([str(ROOT), *map(str, path)])
    done = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path[:0] = {python_path.split(':')!r}\n{ASK}",
                           group], capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


def distribution(folder: Path, entry_points: str) -> Path:
    """A folder holding one installed distribution, ``toy``, whose entry_points.txt is given."""
    folder.mkdir()
    (folder / "toy_plugin.py").write_text(TOY_FORMAT)
    info = folder / "toy-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(entry_points)
    return folder


def test_a_group_no_distribution_declares_needs_no_metadata_reader(tmp_path):
    site = distribution(tmp_path / "site", "[console_scripts]\ntoy = toy_plugin:main\n")
    answer = ask("judge.formats", site)
    assert answer == {"found": [], "metadata_imported": False, "groups": answer["groups"]}
    assert "console_scripts" in answer["groups"] and "judge.formats" not in answer["groups"]


def test_a_declared_plugin_is_loaded(tmp_path):
    site = distribution(tmp_path / "site", "[console_scripts]\ntoy = toy_plugin:main\n\n[judge.formats]\n"
                                           "pebbles = toy_plugin:Pebbles\n")
    answer = ask("judge.formats", site)
    assert answer["found"] == ["Pebbles"] and answer["metadata_imported"]


def test_an_archive_on_the_path_is_asked_of_the_metadata_reader(tmp_path):
    # Its distributions' metadata is inside it: the folders alone cannot tell what it declares.
    archive = tmp_path / "plugins.zip"
    with zipfile.ZipFile(archive, "w") as packed:
        packed.writestr("toy_plugin.py", TOY_FORMAT)
        packed.writestr("toy-1.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: toy\nVersion: 1.0\n")
        packed.writestr("toy-1.0.dist-info/entry_points.txt", "[judge.formats]\npebbles = toy_plugin:Pebbles\n")
    answer = ask("judge.formats", archive)
    assert answer["groups"] is None and answer["found"] == ["Pebbles"]
