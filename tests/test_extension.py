"""Growing the judge without editing it: a sixth problem is its files; a new language is one
module registered through the `judge.languages` entry-point group."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
from conftest import ROOT, run_judge

TOY_LANGUAGE = '''
from judge.languages.base import Language, Program, cache_key, cached_build, read_source


class Shell(Language):
    name = "sh"
    extensions = (".posix",)  # .sh is the built-in Bash's
    toolchain = ("sh",)
    apt_packages = ("dash",)
    self_test_file = "sum.posix"
    self_test_source = "read a b\\necho $((a + b))\\n"

    def prepare(self, source, style):
        code = read_source(source)
        directory = cached_build(cache_key(self.name, code), {"main.sh": code}, None)
        return Program(self.name, directory, ("/bin/sh", "{prog}/main.sh"))
'''


def copy_problem(source_id: str, new_id: str, project: Path) -> None:
    """The files of a shipped problem, under another id, in another project."""
    suite = (ROOT / "cases" / f"{source_id}.yaml").read_text().replace(f"id: {source_id}", f"id: {new_id}")
    (project / "cases").mkdir(parents=True)
    (project / "cases" / f"{new_id}.yaml").write_text(suite)
    for folder in ("reference", "validators", "strategies"):
        (project / folder).mkdir()
        shutil.copy(ROOT / folder / f"{source_id}.py", project / folder / f"{new_id}.py")
    shutil.copytree(ROOT / "solutions" / source_id, project / "solutions" / new_id)


@pytest.mark.slow
def test_a_sixth_problem_is_its_files(tmp_path):
    copy_problem("stones", "pebbles", tmp_path)
    listing = run_judge("list", cwd=tmp_path)
    assert listing.returncode == 0 and "pebbles" in listing.stdout and "stones" in listing.stdout
    show = run_judge("show", "pebbles", cwd=tmp_path)
    assert show.returncode == 0 and "sample-1" in show.stdout
    verified = run_judge("test", "pebbles", cwd=tmp_path)
    assert verified.returncode == 0, verified.stdout
    assert "solution pebbles/accepted/" in verified.stdout and "strategies" in verified.stdout
    accepted = tmp_path / "solutions/pebbles/accepted/game_dp.py"
    run = run_judge("run", "pebbles", str(accepted), "--no-record", cwd=tmp_path)
    assert run.returncode == 0 and "(pebbles, python)" in run.stdout


def test_a_problem_is_accepted_by_path_too(tmp_path):
    copy_problem("stones", "pebbles", tmp_path / "elsewhere")
    suite = tmp_path / "elsewhere/cases/pebbles.yaml"
    accepted = ROOT / "solutions/stones/accepted/game_dp.py"
    run = run_judge("run", str(suite), str(accepted), "--no-record", cwd=tmp_path)
    assert run.returncode == 0 and "(pebbles, python)" in run.stdout, run.stderr


def test_a_language_from_another_package(tmp_path):
    package = tmp_path / "site"
    package.mkdir()
    (package / "toy_shell.py").write_text(TOY_LANGUAGE)
    info = package / "toy_shell-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-shell\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[judge.languages]\nsh = toy_shell:Shell\n")
    solution = tmp_path / "stones.posix"
    solution.write_text(textwrap.dedent("""\
        read n
        if [ $((n % 2)) -eq 1 ]; then echo SK; else echo CY; fi
        """))
    env = {"PYTHONPATH": str(package)}
    run = run_judge("run", "stones", str(solution), "--no-record", env=env)
    assert run.returncode == 0 and "22/22 cases passed" in run.stdout and "(stones, sh)" in run.stdout, run.stderr
    doctor = run_judge("doctor", env=env)
    assert any(line.split()[:3] == ["sh", ".posix", "ok"] for line in doctor.stdout.splitlines()), doctor.stdout


def test_ci_installs_what_the_languages_name(tmp_path):
    """`.ci/run` installs the Debian packages `python3 -m judge.languages` names: those of every
    language whose toolchain is missing (here: all of them, with an empty PATH)."""
    import subprocess
    import sys

    from judge.languages import LANGUAGES

    assert "$(python3 -m judge.languages)" in (ROOT / ".ci/run").read_text()
    done = subprocess.run([sys.executable, "-m", "judge.languages"], capture_output=True, text=True, cwd=ROOT,
                          env={"PATH": str(tmp_path)}, check=True)
    # Tools named by an absolute path (the Python for submissions) are found whatever PATH says.
    wanted = {package for language in LANGUAGES.values() for package in language.apt_packages
              if not all(Path(tool).is_absolute() for tool in language.toolchain)}
    assert set(done.stdout.split()) == wanted
