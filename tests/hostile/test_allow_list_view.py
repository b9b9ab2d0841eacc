"""A submission's view is an allow-list: its runtime, its program and its scratch directories,
nothing else, wherever the judge is installed and wherever its problems are kept. Checked in
every tier that claims to hide the file system, in every language, warm and cold, for problems
kept under /opt and /usr/local (named with --problems or $JUDGE_PROBLEMS), and for the judge
installed system-wide (as a CI image has it: in /usr/local) or in a virtual environment (under
/opt), each placed in a private mount namespace.

Each test also runs its attack where nothing is hidden (the `none` tier, as root), to show that
the attack would succeed if the view let it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import judge
from judge.formats.catalog import load_problem
from judge.runner import judge_submission
from judge.sandbox import hides_file_system, sandbox_tier
from tests.hostile.test_hostile import HERE, ROOT, TIERS

HIDING_TIERS = [tier for tier in TIERS if hides_file_system(tier)]
READERS = ["read_paths.py", "read_paths.c", "read_paths.cpp", "java/ReadPaths.java", "read_paths.js"]
STONES_FILES = ("cases/stones.yaml", "reference/stones.py", "validators/stones.py", "strategies/stones.py")
# Reads the reference solver of a course's problems kept under /opt or /usr/local, and answers with it.
CHEAT = '''import glob, importlib.util, sys
for path in sorted(glob.glob("/opt/judge-view-*/reference/stones.py") + glob.glob("/usr/local/share/judge-view-*/reference/stones.py")):
    spec = importlib.util.spec_from_file_location("reference", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    sys.stdout.write(module.solve(sys.stdin.read()))
    break
else:
    print("CY")
'''
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="placing problems under /opt and /usr/local needs root")


@pytest.fixture(scope="module")
def kept_problems():
    """The stones problem kept as a course would keep it, under /opt and under /usr/local/share,
    readable by every user (the slot uids included)."""
    made = []
    for home in ("/opt", "/usr/local/share"):
        root = Path(home) / f"judge-view-{os.getpid()}"
        for name in STONES_FILES:
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / name, root / name)
        for path in [root, *root.rglob("*")]:
            path.chmod(0o755 if path.is_dir() else 0o644)
        made.append(root)
    yield made
    for root in made:
        shutil.rmtree(root, ignore_errors=True)


def secrets(kept: list[Path]) -> list[str]:
    """What no submission may read: the judge, its Python packages, the problems wherever they
    are, and the machine's own files outside the runtime."""
    package = Path(judge.__file__).resolve().parent
    paths = [package / "__init__.py", ROOT / "reference/stones.py", ROOT / "cases/stones.yaml",
             sysconfig.get_paths()["purelib"], "/usr/lib/python3/dist-packages", "/usr/local/lib", "/usr/local/bin",
             "/usr/share/doc", "/opt", "/var/lib", "/var/log", "/home", "/root", "/srv", "/mnt", "/media",
             "/etc/passwd", "/etc/hostname", "/etc/apt", *(root / "reference/stones.py" for root in kept)]
    return [str(path) for path in paths if os.path.lexists(path)]


def peek_problem(tmp_path: Path, paths: list[str]) -> Path:
    """A one-case problem whose input is ``paths``: a reader prints those it could read."""
    (tmp_path / "cases").mkdir()
    listing = "".join(f"{path}\n" for path in paths)
    (tmp_path / "cases/peek.yaml").write_text(
        "id: peek\ntitle: Peek\nlimits: {time: 2.0, memory: 256, output: 1}\n"
        f"cases:\n  - {{name: sample-1, visibility: sample, input: {json.dumps(listing)}, output: \"nothing\\n\"}}\n")
    return tmp_path / "cases/peek.yaml"


def read_in(tier: str, reader: str, suite: Path, cold: bool, monkeypatch) -> list[str]:
    monkeypatch.setenv("JUDGE_SANDBOX", tier)
    sandbox_tier.cache_clear()
    try:
        problem = load_problem(str(suite))
        result = judge_submission(problem, HERE / reader, cold=cold)
    finally:
        sandbox_tier.cache_clear()
    case = result.cases[0]
    assert case.verdict.value == "WA", (case.verdict, case.message)  # it ran, and printed what it read
    return [line for line in case.output.splitlines() if line.startswith("READ ")]


@needs_root
@pytest.mark.parametrize("cold", [False, True], ids=["warm", "cold"])
@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("tier", HIDING_TIERS)
def test_no_language_reads_anything_outside_its_view(tier, reader, cold, kept_problems, tmp_path, monkeypatch):
    read = read_in(tier, reader, peek_problem(tmp_path, secrets(kept_problems)), cold, monkeypatch)
    assert read == [], read


@needs_root
def test_the_readers_read_what_an_unhidden_machine_shows(kept_problems, tmp_path, monkeypatch):
    """The same attack where nothing is hidden reads the problems and the packages: the test above
    would see a leak."""
    read = read_in("none", "read_paths.py", peek_problem(tmp_path, secrets(kept_problems)), True, monkeypatch)
    for expected in [*(root / "reference/stones.py" for root in kept_problems), "/usr/lib/python3/dist-packages"]:
        if os.path.exists(expected):
            assert f"READ {expected}" in read, read


def run_cheat(tmp_path: Path, tier: str, *options: str, env: dict | None = None) -> dict:
    cheat = tmp_path / "cheat.py"
    cheat.write_text(CHEAT)
    environment = {**os.environ, "JUDGE_SANDBOX": tier, **(env or {})}
    done = subprocess.run([sys.executable, "-m", "judge", "run", "stones", str(cheat), "--no-record",
                           "--format", "json", *options], capture_output=True, text=True, cwd=tmp_path,
                          env=environment, timeout=300, check=False)
    assert done.stdout, done.stderr
    return json.loads(done.stdout)


@needs_root
@pytest.mark.parametrize("cold", [False, True], ids=["warm", "cold"])
@pytest.mark.parametrize("tier", HIDING_TIERS)
def test_problems_kept_under_opt_or_usr_local_are_out_of_sight(tier, cold, kept_problems, tmp_path):
    common = ["--cold"] if cold else []
    opt, usr_local = kept_problems
    by_option = run_cheat(tmp_path, tier, "--problems", str(opt), *common)
    by_variable = run_cheat(tmp_path, tier, *common, env={"JUDGE_PROBLEMS": str(usr_local)})
    for result in (by_option, by_variable):
        assert result["verdict"] == "WA" and result["passed"] < result["total"], result


@needs_root
def test_the_cheat_solves_where_the_problems_are_in_sight(kept_problems, tmp_path):
    result = run_cheat(tmp_path, "none", "--problems", str(kept_problems[0]), "--cold")
    assert result["verdict"] == "AC", result


# Calls the reference solver of a judge installed where the glob given says, as a CI image or a
# virtual environment installs it.
FOOTHOLDS_CHEAT = '''import glob, importlib.util
def solution(board, aloc, bloc):
    for path in glob.glob(PATTERN):
        spec = importlib.util.spec_from_file_location("reference", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module.solution(board, aloc, bloc)
    return -1
'''
PYTHON_X_Y = f"python{sys.version_info.major}.{sys.version_info.minor}"
# (where the install goes, what is mounted over to make room for it, what the cheat globs for)
INSTALLS = {
    "system-wide": (f"/usr/local/lib/{PYTHON_X_Y}/dist-packages", "/usr/local/lib",
                    "/usr/local/lib/python3*/*-packages/judge/_builtin/reference/footholds.py"),
    "virtual-environment": (f"/opt/judge-venv/lib/{PYTHON_X_Y}/site-packages", "/opt",
                            "/opt/*/lib/python3*/site-packages/judge/_builtin/reference/footholds.py"),
}
SKIP = shutil.ignore_patterns(".git", "build", "*.egg-info", "__pycache__", ".judge", ".hypothesis",
                              ".pytest_cache", "gradescope", "tests", "benchmarks", "docs")


@pytest.fixture(scope="module")
def regular_install(tmp_path_factory) -> Path:
    """The judge installed (a regular install, built-in problems inside) into a folder, to be
    placed where an install puts it, in a private mount namespace."""
    if os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.skip("a private mount namespace needs root and util-linux's unshare")
    base = tmp_path_factory.mktemp("install")
    shutil.copytree(ROOT, base / "source", ignore=SKIP)
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           "--target", str(base / "site"), str(base / "source")], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
    return base / "site"


def grade_installed(site: Path, packages: str, room: str, folder: Path, tier: str, *options: str) -> dict:
    """`judge grade` run from a judge installed in ``packages`` (in a mount namespace of its
    own, with an empty tmpfs over ``room``, so that the machine's own files are left as they are)."""
    script = (f"mount -t tmpfs judge-test {room} && mkdir -p {packages} && cp -a {site}/. {packages}/ && "
              f"exec {sys.executable} -m judge grade {folder} --format json --db {folder.parent / (tier + '.db')} "
              + " ".join(options))
    environment = {**os.environ, "JUDGE_SANDBOX": tier, "PYTHONPATH": packages}
    environment.pop("JUDGE_PROBLEMS", None)
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c", script],
                          capture_output=True, text=True, cwd=folder.parent, env=environment, timeout=600, check=False)
    assert done.stdout, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("install", INSTALLS)
@pytest.mark.parametrize("tier", HIDING_TIERS)
def test_an_installed_judge_shows_no_reference_to_a_submission(tier, install, regular_install, tmp_path):
    packages, room, pattern = INSTALLS[install]
    folder = tmp_path / "class"
    (folder / "mallory").mkdir(parents=True)
    (folder / "mallory/footholds.py").write_text(FOOTHOLDS_CHEAT.replace("PATTERN", repr(pattern)))
    report = grade_installed(regular_install, packages, room, folder, tier)
    assert report["sandbox"]["isolation"] == "full"
    assert report["students"][0]["total"] == 0, report["students"]
    control = grade_installed(regular_install, packages, room, folder, "none", "--allow-weak-sandbox")
    assert control["students"][0]["total"] == 100, control["students"]
