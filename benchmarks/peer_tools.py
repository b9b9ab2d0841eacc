"""Benchmark item 10: `judge test PKG` against problemtools' `verifyproblem PKG -p submissions` and
BAPCtools' `bt run` on problemtools' example problems (hello, different, oddecho: scoring, guess:
interactive), each tool cold: its own fresh copy of the package and an empty build cache.

The peers are installed in a virtual environment of their own:

    python3 -m venv /tmp/peers && /tmp/peers/bin/pip install problemtools bapctools
    python3 benchmarks/run.py --only 10 --peers /tmp/peers

(``--peers VENV``, else $JUDGE_BENCH_PEERS, else `verifyproblem` and `bt` on PATH; without them
the item is one row saying so.) The example problems are in problemtools' source distribution,
not its wheel: the item takes them from ``--examples DIR``, else from the installed package if it
ships them, else it downloads the installed version's sdist with the venv's pip.

What each tool is given, so that the three judge the same programs the same way:

- the submissions this judge does not run (Rust, Python 2, ...) are removed from every
  copy;
- problemtools and BAPCtools read extra language settings from $XDG_CONFIG_HOME, which the item
  points at a folder of its own: Python runs on CPython (problemtools' default is pypy3), Java
  compiles without problemtools' ``-source 21`` (a JDK 17 refuses it), and JavaScript runs on
  node (BAPCtools' default is js24), as in the judge;
- BAPCtools reads only the 2025-09 layout: its copy is upgraded once (`bt upgrade`, untimed) and
  an output validator kept in a folder of ``output_validator/`` is moved up into it; `bt run`
  runs inside the problem folder with no terminal (``-B``, stdin /dev/null), so it never asks.

Each tool runs with its own default parallelism (the judge: a submission per core; verifyproblem:
one thread; `bt run`: half the cores). Cold means: the judge's $JUDGE_CACHE is a new folder
(no compiled program, no inferred time limit) holding only what the judge keeps per machine
from an untimed first run, as on any machine that has run the judge once: the sandbox probes'
file and the JVM compilers' class archives (judge/languages/compiler_archive.py, copied with
their times, which the judge checks); BAPCtools' build folder is
under a new $TMPDIR; verifyproblem keeps nothing between runs. Every submission must get its
expected verdict from the judge (else the item fails); a peer that disagrees is named in the row.
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import time
from dataclasses import dataclass
from pathlib import Path

from judge.formats.icpc.programs import unsupported_reason
from judge.model.verdict import PACKAGE_FOLDER_VERDICTS

ROOT = Path(__file__).resolve().parent.parent  # the judge runs from its checkout, as run.py's items do
EXAMPLES = ("hello", "different", "oddecho", "guess")
PEERS_ENV = "JUDGE_BENCH_PEERS"
TOOLS = ("judge", "verifyproblem", "bt")
TARGETS = {"verifyproblem": 0.5, "bt": 1.0}  # the judge's time at most this many times the peer's
PROBES_FILE = ".sandbox-probes.json"  # judge/sandbox/probe_cache.py: the machine's, not a build
ARCHIVES_FOLDER = ".compiler-archives"  # judge/languages/compiler_archive.py: the machine's too

# Language settings the peers read from $XDG_CONFIG_HOME (see the docstring).
PROBLEMTOOLS_LANGUAGES = """\
python3:
  name: 'Python 3'
  compile: 'python3 -m py_compile {files}'
  run: 'python3 "{mainfile}"'
java:
  compile: 'javac -encoding UTF-8 -sourcepath {path} -d {path} {files}'
javascript:
  compile: 'node --check {files}'
  run: 'node "{mainfile}"'
"""
BAPCTOOLS_LANGUAGES = """\
javascript:
  compile: 'node --check {files}'
  run: 'node "{mainfile}"'
"""

JUDGE_LINE = re.compile(r"^\S+  submission (\S+)  (ok|FAIL)  (.*)$", re.MULTILINE)
VERIFYPROBLEM_OK = re.compile(r"^\s+(\S+) \([^)]*\) OK: (\w+)", re.MULTILINE)
BT_VERDICT = re.compile(r"^(\S+/\S+?):\s+(AC|WA|TLE|RTE)\b", re.MULTILINE)
PEER_VERDICTS = {"RTE": "RE"}  # the peers' names for the judge's verdicts, where they differ


@dataclass(frozen=True)
class Peers:
    verifyproblem: Path
    bt: Path
    pip: list[str]  # how to run the pip of the peers' environment

    @property
    def python(self) -> Path:
        return self.verifyproblem.parent / "python3"


def find_peers(venv: str | None) -> Peers | None:
    """The peers in ``venv`` (else $JUDGE_BENCH_PEERS), else on PATH; None when either is missing."""
    venv = venv or os.environ.get(PEERS_ENV)
    if venv:
        found = [Path(venv) / "bin" / name for name in ("verifyproblem", "bt")]
        found = [path if path.is_file() else None for path in found]
    else:
        found = [Path(path) if path else None for path in map(shutil.which, ("verifyproblem", "bt"))]
    if None in found:
        return None
    verifyproblem, bt = found
    pip = verifyproblem.parent / "pip"
    return Peers(verifyproblem, bt, [str(pip)] if pip.is_file() else [sys.executable, "-m", "pip"])


def example_problems(peers: Peers, given: str | None, work: Path) -> Path:
    """The folder holding the example problems: ``given``, the installed problemtools' own, or
    its sdist's (downloaded)."""
    if given:
        folder = Path(given)
    else:
        folder = _installed_examples(peers) or _downloaded_examples(peers, work)
    missing = [name for name in EXAMPLES if not (folder / name / "problem.yaml").is_file()]
    if missing:
        raise SystemExit(f"benchmark 10: {folder} has no example problem {', '.join(missing)}")
    return folder


def _installed_examples(peers: Peers) -> Path | None:
    done = subprocess.run([str(peers.python), "-c", "import problemtools; print(problemtools.__file__)"],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return None
    package = Path(done.stdout.strip()).parent
    return next((folder for folder in (package / "examples", package.parent / "examples")
                 if (folder / "hello" / "problem.yaml").is_file()), None)


def _downloaded_examples(peers: Peers, work: Path) -> Path:
    version = subprocess.run([str(peers.python), "-c", "import importlib.metadata as m; print(m.version('problemtools'))"],
                             capture_output=True, text=True, check=True).stdout.strip()
    download = work / "sdist"
    done = subprocess.run([*peers.pip, "download", "--no-binary", ":all:", "--no-deps", "--dest", str(download),
                           f"problemtools=={version}"], capture_output=True, text=True, check=False)
    archives = sorted(download.glob("problemtools-*.tar.gz"))
    if done.returncode != 0 or not archives:
        raise SystemExit(f"benchmark 10: could not download problemtools {version}'s sdist (pass --examples DIR, "
                         f"its examples/ folder):\n{done.stderr[-1000:]}")
    with tarfile.open(archives[0]) as archive:
        archive.extractall(download, filter="data")
    return next(download.glob("problemtools-*/examples"))


def prepare_templates(examples: Path, work: Path, peers: Peers, env: dict[str, str]) -> dict[str, dict[str, Path]]:
    """Per problem, per tool, the package each run copies afresh (see the docstring)."""
    templates: dict[str, dict[str, Path]] = {}
    for name in EXAMPLES:
        common = work / "templates" / "common" / name
        shutil.copytree(examples / name, common, symlinks=True)
        for submission in sorted((common / "submissions").glob("*/*")):
            if unsupported_reason(submission):
                shutil.rmtree(submission) if submission.is_dir() else submission.unlink()
        upgraded = work / "templates" / "bt" / name
        shutil.copytree(common, upgraded, symlinks=True)
        _run([str(peers.bt), "upgrade"], env, upgraded)
        _flatten_output_validator(upgraded / "output_validator")
        templates[name] = {"judge": common, "verifyproblem": common, "bt": upgraded}
    return templates


def _flatten_output_validator(folder: Path) -> None:
    """2025-09's output_validator/ is the program itself; an older package's one folder inside it
    (output_validators/<name>/, as `bt upgrade` leaves it) moves up."""
    inside = list(folder.iterdir()) if folder.is_dir() else []
    if len(inside) == 1 and inside[0].is_dir():
        for part in inside[0].iterdir():
            part.rename(folder / part.name)
        inside[0].rmdir()


def peer_config(work: Path) -> Path:
    config = work / "peer-config"
    for tool, text in (("problemtools", PROBLEMTOOLS_LANGUAGES), ("bapctools", BAPCTOOLS_LANGUAGES)):
        (config / tool).mkdir(parents=True, exist_ok=True)
        (config / tool / "languages.yaml").write_text(text)
    return config


def _run(command: list[str], env: dict[str, str], cwd: Path) -> tuple[float, str]:
    """(seconds, stdout and stderr): any exit status, since the peers exit 1 on a warning."""
    started = time.perf_counter()
    done = subprocess.run(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          env=env, cwd=cwd, check=False)
    return time.perf_counter() - started, done.stdout.decode("utf-8", errors="replace")


def _fresh(folder: Path) -> Path:
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    folder.chmod(0o755)  # the judge's cache: the sandbox's uid must reach it
    return folder


def timed_run(tool: str, package: Path, run: Path, commands: dict[str, list[str]],
              envs: dict[str, dict[str, str]], machine: Path | None) -> tuple[float, str]:
    """One cold run of ``tool`` on a fresh copy of ``package`` under ``run``; the judge's cache
    starts with the per-machine files of the cache folder ``machine``."""
    copy = _fresh(run / tool) / package.name
    shutil.copytree(package, copy, symlinks=True)
    scratch = _fresh(run / f"{tool}-cache")
    env = dict(envs[tool])
    if tool == "judge":
        env["JUDGE_CACHE"] = str(scratch)
        if machine is not None and (machine / PROBES_FILE).is_file():
            shutil.copy(machine / PROBES_FILE, scratch / PROBES_FILE)
        if machine is not None and (machine / ARCHIVES_FOLDER).is_dir():
            shutil.copytree(machine / ARCHIVES_FOLDER, scratch / ARCHIVES_FOLDER, copy_function=shutil.copy2)
        return _run([*commands["judge"], "test", str(copy)], env, ROOT)
    if tool == "verifyproblem":
        return _run([*commands[tool], str(copy), "-p", "submissions"], env, run)
    env["TMPDIR"] = str(scratch)  # BAPCtools builds under $TMPDIR/bapctools_<hash>
    return _run([*commands[tool], "run", "-B"], env, copy)


def expected(submission: str, verdict: str) -> bool:
    allowed = PACKAGE_FOLDER_VERDICTS.get(submission.split("/", 1)[0])
    return allowed is None or PEER_VERDICTS.get(verdict, verdict) in allowed


def disagreements(tool: str, output: str, judged: list[str]) -> list[str] | str:
    """The submissions ``tool`` did not give their expected verdict, or, for a peer that judged
    none, what it said instead."""
    if tool == "judge":
        return [name for name, result, _ in JUDGE_LINE.findall(output) if result != "ok"]
    if tool == "verifyproblem":
        found = dict(VERIFYPROBLEM_OK.findall(output))  # verifyproblem says OK for an expected verdict
    else:
        found = {name: verdict for name, verdict in BT_VERDICT.findall(output) if expected(name, verdict)}
        if not BT_VERDICT.search(output):
            lines = [line for line in output.splitlines() if line.strip()]
            return lines[-1] if lines else "no output"
    return [name for name in judged if name not in found]


def judged_submissions(output: str) -> list[str]:
    return [name for name, _, detail in JUDGE_LINE.findall(output) if not detail.startswith("skipped")]


def peer_rows(peers_option: str | None, examples_option: str | None, work: Path, judge: list[str],
              judge_env: dict[str, str], repeats: int) -> list[list]:
    peers = find_peers(peers_option)
    if peers is None:
        return [["10. `judge test` vs verifyproblem and `bt run`", "skipped",
                 f"peers not installed (--peers VENV or ${PEERS_ENV}; see benchmarks/peer_tools.py)",
                 "n/a", "<= 0.5 / <= 1", "skipped"]]
    work = work / "peers"
    templates = prepare_templates(example_problems(peers, examples_option, work), work, peers, os.environ.copy())
    peer_env = {**os.environ, "XDG_CONFIG_HOME": str(peer_config(work))}
    commands = {"judge": judge, "verifyproblem": [str(peers.verifyproblem)], "bt": [str(peers.bt)]}
    envs = {"judge": judge_env, "verifyproblem": peer_env, "bt": peer_env}
    machine = _first_judge_run(templates, work, commands, envs)
    times: dict[str, dict[str, list[float]]] = {name: {tool: [] for tool in TOOLS} for name in EXAMPLES}
    outputs: dict[str, dict[str, str]] = {name: {} for name in EXAMPLES}
    for round_ in range(repeats):
        for name in EXAMPLES:
            for tool in TOOLS:  # interleaved, so that the machine's load weighs on all alike
                elapsed, output = timed_run(tool, templates[name][tool], work / f"round-{round_}" / name,
                                            commands, envs, machine)
                times[name][tool].append(elapsed)
                outputs[name][tool] = output
    return [_row(name, times[name], outputs[name], repeats) for name in EXAMPLES]


def _first_judge_run(templates, work: Path, commands, envs) -> Path:
    """Untimed runs, one per example (each starting from what the one before kept), that leave
    the machine's sandbox probes and the archives of every compiler the examples use in a cache
    folder, for the timed runs to start from (see the docstring); returns that folder."""
    machine = None
    for name in EXAMPLES:
        run = work / "first-run" / name
        timed_run("judge", templates[name]["judge"], run, commands, envs, machine)
        machine = run / "judge-cache"
    return machine


def _row(name: str, times: dict[str, list[float]], outputs: dict[str, str], repeats: int) -> list:
    judged = judged_submissions(outputs["judge"])
    failed = disagreements("judge", outputs["judge"], judged)
    if failed or not judged:
        raise SystemExit(f"benchmark 10: judge test {name}: {', '.join(failed) or 'no submission judged'} "
                         f"did not get the expected verdict:\n{outputs['judge'][-3000:]}")
    medians = {tool: statistics.median(values) for tool, values in times.items()}
    ratios, met, notes = [], True, []
    for peer, target in TARGETS.items():
        wrong = disagreements(peer, outputs[peer], judged)
        if isinstance(wrong, str):  # the peer judged nothing: its time measures no verification
            ratios.append("n/a")
            notes.append(f"{peer}: {wrong[:80]}")
            continue
        ratio = medians["judge"] / medians[peer]
        ratios.append(f"{ratio:.2f}")
        met = met and ratio <= target
        if wrong:
            notes.append(f"{peer} disagrees on {', '.join(wrong)}")
    baseline = ", ".join(f"{peer} {medians[peer]:.2f} s" if ratio != "n/a" else f"{peer} n/a"
                         for peer, ratio in zip(TARGETS, ratios))
    label = f"10. {name}: `judge test` vs verifyproblem, `bt run` ({len(judged)} submissions, median of {repeats})"
    if notes:
        label += f" [{'; '.join(notes)}]"
    return [label, f"{medians['judge']:.2f} s", baseline, " / ".join(ratios),
            " / ".join(f"<= {target:g}" for target in TARGETS.values()), met]
