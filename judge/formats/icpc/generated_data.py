"""Making a package's test data from its generators.yaml (see ``judge.formats.icpc.generators``), as
BAPCtools' ``bt generate`` does, and keeping it in the judge's cache.

Each generator is built and run in the sandbox like any program of the package, in an empty
working directory of its own: its standard output is the case's input unless it wrote
``testcase.in`` itself (it may write ``testcase.ans`` and the other files too). The first case of
every generator is made twice, and must come out the same. Inputs of ``sample`` and ``secret``
must pass the input validators; answers not given come from the solution run on the input.

The data made are kept under the cache root, keyed by the content of generators/, the solutions,
the input validators, included code and problem.yaml: a second load reuses them, and changing a
generator makes them again.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
import signal
import tempfile
from pathlib import Path

import yaml

from judge.formats.icpc.data_checks import VALID_EXIT, rejection_text, run_input_validator
from judge.formats.icpc.expectations import submissions
from judge.formats.icpc.generators import (
    CASE_FILES,
    GENERATORS_FILE,
    Command,
    GeneratorsError,
    Plan,
    PlannedCase,
    read_plan,
)
from judge.formats.icpc.package import Package, files_under, split_args
from judge.formats.icpc.programs import build_solution, package_program, prepare_program, unsupported_reason
from judge.languages import CompileError, LanguageUnavailable, UnknownLanguage
from judge.languages.base import cache_key, cache_root
from judge.languages.program import NATIVE_PROGRAM, Program
from judge.model.problem import MIB
from judge.model.verdict import signal_name
from judge.sandbox import Limits, Outcome, run_sandboxed

FORMAT = "2"  # of the cache's entries: a new one when what is kept changes
INPUTS_FOLDERS = ("data", "input_validators", "input_format_validators", "include")
LARGEST_OUTPUT = 512 * MIB  # a generated input may well be larger than a validator's output limit


@dataclasses.dataclass(frozen=True)
class GeneratedData:
    """A data/ tree made from generators.yaml, and the warnings reading it gave."""

    folder: Path
    warnings: tuple[str, ...]
    cases: tuple[str, ...]  # the case names and how each was made: "secret/1  `gen.py 1`"


def generated_data(package: Package, run: bool = True) -> GeneratedData | None:
    """The package's generated data: from the cache, else made now when ``run`` (None when not)."""
    plan = read_plan(package.root, default_solution(package), package.constants)
    entry = cache_root() / "icpc-generated" / data_key(package, plan)
    if not (entry / "data").is_dir():
        if not run:
            return None
        make_entry(package, plan, entry)
    notes = json.loads((entry / "notes.json").read_text())
    return GeneratedData(entry / "data", tuple(notes["warnings"]), tuple(notes["cases"]))


def default_solution(package: Package) -> str | None:
    """The first accepted submission this judge runs, as a path from the package root, for
    generators.yaml without a ``solution``."""
    for path, folder in submissions(package):
        if folder == "accepted" and unsupported_reason(path, follow_file_links=True) is None:
            return "/" + str(path.relative_to(package.root))
    return None


def data_key(package: Package, plan: Plan) -> str:
    """What the generated data depend on: generators/ (generators.yaml with it), the solutions,
    data/ (copied along), the input validators and included code, and problem.yaml."""
    solutions = sorted({case.solution for case in plan.cases if case.solution})
    paths = [*files_under(package.root, ("generators", *INPUTS_FOLDERS)), package.root / "problem.yaml"]
    for solution in solutions:
        source = package.root / solution.lstrip("/")
        paths += sorted(path for path in source.rglob("*") if path.is_file()) if source.is_dir() else [source]
    parts: list[bytes | str] = [FORMAT, *solutions]
    for path in paths:
        parts += [str(path.relative_to(package.root)), path.read_bytes()]
    return cache_key("icpc-generated", *parts)


def make_entry(package: Package, plan: Plan, entry: Path) -> None:
    """Make every case into a new folder and put it at ``entry`` whole (another judge making the
    same data at once is no harm: the first to finish wins)."""
    entry.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f"{entry.name}.", dir=entry.parent))
    try:
        made = CaseMaker(package, plan, building / "data").make()
        (building / "notes.json").write_text(json.dumps({"warnings": plan.warnings, "cases": made}))
        os.chmod(building, 0o755)
        try:
            building.rename(entry)
        except OSError:
            if not (entry / "data").is_dir():
                raise
    finally:
        shutil.rmtree(building, ignore_errors=True)


class CaseMaker:
    """Builds each program once and makes the plan's cases one by one into ``target``."""

    def __init__(self, package: Package, plan: Plan, target: Path) -> None:
        self.package = package
        self.plan = plan
        self.target = target
        self.programs: dict[str, Program] = {}
        self.limits = dataclasses.replace(package.validator_limits(),
                                          output=max(package.validator_limits().output, LARGEST_OUTPUT))
        self.runner = GeneratorRunner(self.limits, "problem.yaml's limits.validation_time")
        self.validators: list[tuple[Path, Program]] | None = None

    def make(self) -> list[str]:
        # What data/ holds comes along (hand-written samples, say), as bt generate leaves it
        # beside what it writes; a generated case replaces a file of its name.
        if (self.package.root / "data").is_dir():
            shutil.copytree(self.package.root / "data", self.target)
        self.target.mkdir(parents=True, exist_ok=True)
        made = []
        for case in self.plan.cases:
            self.write(case, self.included_files(case) if case.included else self.case_files(case))
            made.append(f"{case.name}  {case.describe()}")

        for directory, settings in self.plan.group_files.items():
            (self.target / directory).mkdir(parents=True, exist_ok=True)
            (self.target / directory / "test_group.yaml").write_text(yaml.safe_dump(settings, sort_keys=False))
        return made

    def case_files(self, case: PlannedCase) -> dict[str, bytes]:
        files: dict[str, bytes] = {}
        if case.command is not None:
            files.update(self.generated(case))
        if case.copy is not None:
            for suffix in CASE_FILES:
                source = self.package.root / f"{case.copy}{suffix}"
                if source.is_file():
                    files[suffix] = source.read_bytes()
        files.update({suffix: text.encode() for suffix, text in case.files.items()})
        for suffix, target in case.links.items():
            if target in files:
                files[suffix] = files[target]
        if ".in" not in files and not any(suffix in files for suffix in (".in.statement", ".in.download")):
            raise self.fail(case, "made no input (.in)")
        self.check_match(case, files, ".in")
        if ".in" in files and case.name.split("/")[0] in ("sample", "secret"):
            self.validate(case, files)
        if ".ans" not in files and ".in" in files and case.answered:
            files[".ans"] = self.answer(case, files[".in"])
        self.check_match(case, files, ".ans")
        return files

    def included_files(self, case: PlannedCase) -> dict[str, bytes]:
        """The files of the case it includes (made before it: include: names earlier entries)."""
        source = self.target / str(case.included)
        return {suffix: Path(f"{source}{suffix}").read_bytes() for suffix in CASE_FILES
                if Path(f"{source}{suffix}").is_file()}

    def fail(self, case: PlannedCase, message: str) -> GeneratorsError:
        return GeneratorsError(f"{self.package.root / GENERATORS_FILE}: {case.name} ({case.describe()}): {message}")

    def generated(self, case: PlannedCase) -> dict[str, bytes]:
        """The files the case's command makes (retried with the next seeds, as many times as it may)."""
        assert case.command is not None
        try:
            return self.runner.files(self.generator(case), case.command, case.seed, case.retries)
        except GenerationFailed as error:
            raise self.fail(case, str(error)) from None

    def generator(self, case: PlannedCase) -> Program:
        """The case's generator, built once: an implicit one (``generators:``) from its files in a
        folder of their own, else the file or folder under generators/."""
        assert case.command is not None
        name = case.command.program
        if name not in self.programs:
            try:
                if name in self.plan.generators:
                    self.programs[name] = self.implicit(name)
                else:
                    self.programs[name] = package_program(self.package, self.package.root / "generators" / name)
            except (CompileError, UnknownLanguage, LanguageUnavailable) as error:
                raise self.fail(case, f"the generator {name} does not build: {error}") from None
        return self.programs[name]

    def implicit(self, name: str) -> Program:
        files = self.plan.generators[name]
        with tempfile.TemporaryDirectory(prefix="judge-generator-") as scratch:
            folder = Path(scratch) / name
            for file in files:  # a file, or a folder of them
                source, target = self.package.root / "generators" / file, folder / file
                target.parent.mkdir(parents=True, exist_ok=True)
                if source.is_dir():
                    shutil.copytree(source, target, dirs_exist_ok=True)
                else:
                    shutil.copyfile(source, target)
            return prepare_program(folder, entry=files[0], constants=self.package.constants)[1]

    def validate(self, case: PlannedCase, files: dict[str, bytes]) -> None:
        """Every input validator this judge runs must accept a sample's or secret case's input."""
        for path, program in self.input_validators():
            arguments = self.validator_arguments(case, files.get(".yaml"), path)
            outcome = run_input_validator(self.package, program, files[".in"], arguments)
            if outcome.exit_code != VALID_EXIT:
                how = _crash(outcome, self.package.validator_limits()) or rejection_text(outcome.exit_code)
                raise self.fail(case, f"the input validator {path.name} {how}{_last_error_line(outcome)}")

    def input_validators(self) -> list[tuple[Path, Program]]:
        if self.validators is None:
            self.validators = []
            for path in self.package.input_validators:
                if unsupported_reason(path, follow_file_links=True) is None:
                    try:
                        self.validators.append((path, package_program(self.package, path)))
                    except (CompileError, UnknownLanguage, LanguageUnavailable) as error:
                        raise GeneratorsError(f"{path}: the input validator does not build: {error}") from None
        return self.validators

    def validator_arguments(self, case: PlannedCase, own: bytes | None, validator: Path) -> tuple[str, ...]:
        """The input validator's arguments: the case's own .yaml's, else its test_group.yaml
        files' (the nearest's)."""
        arguments: object = None
        parts = case.name.split("/")
        layers = [self.plan.group_files.get("/".join(parts[:depth]), {}) for depth in range(len(parts))]
        try:
            layers.append(yaml.safe_load(own) if own else {})
        except yaml.YAMLError as error:
            raise self.fail(case, f"its yaml: is not YAML ({error})") from None
        for settings in layers:
            for key in ("input_validator_flags", "input_validator_args"):
                if isinstance(settings, dict) and key in settings:
                    arguments = settings[key]
        if isinstance(arguments, dict):
            arguments = arguments.get(validator.stem, arguments.get(validator.name))
        return split_args(arguments, f"{self.package.root / GENERATORS_FILE}: test_group.yaml of {case.name}")

    def answer(self, case: PlannedCase, text: bytes) -> bytes:
        """The solution's output on the input (an interactive or multi-pass problem's answer file,
        which no single run's output can be, is empty, as BAPCtools makes it)."""
        if self.package.interactive or self.package.multi_pass:
            return b""
        if case.solution is None:
            raise self.fail(case, "no answer: the case gives no `ans:` and generators.yaml no solution; add "
                                  "`solution: /submissions/accepted/...` or an accepted submission")
        key = f"solution:{case.solution}"
        if key not in self.programs:
            try:
                self.programs[key] = build_solution(self.package.root, self.package.root / case.solution.lstrip("/"),
                                                     self.package.constants)
            except (CompileError, UnknownLanguage, LanguageUnavailable) as error:
                raise self.fail(case, f"the solution {case.solution} does not build: {error}") from None
        program = self.programs[key]
        outcome = run_sandboxed(program.argv(self.limits), stdin=text, limits=self.limits,
                                program_dir=program.directory)
        failed = _failure(outcome, self.limits)
        if failed:
            raise self.fail(case, f"the solution {case.solution} {failed}{_last_error_line(outcome)}")
        return outcome.stdout

    def check_match(self, case: PlannedCase, files: dict[str, bytes], suffix: str) -> None:
        for pattern in case.match.get(suffix, ()):
            text = files.get(suffix, b"").decode("utf-8", errors="replace")
            if not re.search(pattern, text, re.MULTILINE | re.DOTALL):
                raise self.fail(case, f"its {suffix} does not match {pattern!r} (generators.yaml's match:)")

    def write(self, case: PlannedCase, files: dict[str, bytes]) -> None:
        folder = self.target / case.directory
        folder.mkdir(parents=True, exist_ok=True)
        base = case.name.rpartition("/")[2]
        replaced = [suffix for suffix, content in files.items()
                    if (folder / f"{base}{suffix}").is_file() and (folder / f"{base}{suffix}").read_bytes() != content]
        if replaced:  # a hand-written file of data/ that the generated case takes the place of
            self.plan.warnings.append(f"{case.name}: the generated {', '.join(replaced)} replace data/{case.name} "
                                      f"as written there (as bt generate would); rename one of them to keep both")
        for suffix, content in files.items():
            (folder / f"{base}{suffix}").write_bytes(content)


class GenerationFailed(Exception):
    """A generator did not make a case: the message says how (the caller names the case)."""


class GeneratorRunner:
    """Runs generator programs in the sandbox under ``limits``, each in an empty working directory
    of its own; the first command of each generator runs twice and must make the same files.
    ``time_source`` names where the time limit comes from, for the message when it runs out."""

    def __init__(self, limits: Limits, time_source: str) -> None:
        self.limits = limits
        self.time_source = time_source
        self.checked: set[str] = set()  # generators whose determinism was checked

    def files(self, program: Program, command: Command, seed: int, retries: int = 1) -> dict[str, bytes]:
        """The files ``command`` makes with ``seed`` (retried with the next seeds, ``retries``
        times in all): by suffix (".in", ".ans", ...). GenerationFailed says why not."""
        failure = ""
        for attempt in range(retries):
            seed_used = (seed + attempt) % 2**31
            files, failure = self.run(program, command, seed_used)
            if not failure:
                break
        if failure:
            raise GenerationFailed(failure)
        if command.program not in self.checked:  # the first case of each generator: made twice
            self.checked.add(command.program)
            again, failure = self.run(program, command, seed_used)
            if failure or again != files:
                differs = failure or "the files differ: " + ", ".join(
                    sorted(f"testcase{suffix}" for suffix in {*files, *again} if files.get(suffix) != again.get(suffix)))
                raise GenerationFailed(f"the generator is not deterministic: run again with seed {seed_used}, "
                                       f"{differs}; make its output depend on its arguments only (seed its "
                                       f"random numbers with {{seed}})")
        return files

    def run(self, program: Program, command: Command, seed: int) -> tuple[dict[str, bytes], str]:
        """The files of one run, or what went wrong ("" if nothing)."""
        scratch = Path(tempfile.mkdtemp(prefix="judge-generator-"))
        try:
            work = scratch / "work"
            work.mkdir(mode=0o700)
            argv = as_generator([*program.argv(self.limits), *command.arguments(seed)], command.program)
            outcome = run_sandboxed(argv, stdin=b"", limits=self.limits, program_dir=program.directory, work_dir=work)
            failed = _failure(outcome, self.limits, self.time_source)
            if failed:
                return {}, f"the generator {failed}{_last_error_line(outcome)}"
            files = {suffix: (work / f"testcase{suffix}").read_bytes() for suffix in CASE_FILES
                     if (work / f"testcase{suffix}").is_file()}
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        if ".in" not in files:
            if not outcome.stdout:
                return {}, "the generator printed nothing and wrote no testcase.in"
            files[".in"] = outcome.stdout
        return files, ""


def as_generator(argv: list[str], name: str) -> list[str]:
    """A compiled generator's command, run with the argv[0] BAPCtools gives it
    (``.../generators/NAME/run``): BAPCtools' validation.h, whose input validators double as
    generators (``generators/generator`` a link to ``input_validators/...``), generates when its
    argv[0] holds "generat" and validates otherwise. An interpreter keeps its own argv[0], by
    which it finds its library."""
    if argv[0] != NATIVE_PROGRAM:
        return argv
    return ["/bin/bash", "-c", 'exec -a "$0" "$@"', f"{{prog}}/generators/{name.strip('/')}/run", *argv]


def _failure(outcome: Outcome, limits: Limits, time_source: str = "problem.yaml's limits.validation_time") -> str:
    """How a run failed ("" if it ended with exit 0)."""
    return _crash(outcome, limits, time_source) or (f"exited {outcome.exit_code}" if outcome.exit_code != 0 else "")


def _crash(outcome: Outcome, limits: Limits, time_source: str = "problem.yaml's limits.validation_time") -> str:
    """How a run failed without ending by itself ("" if it exited, with any status)."""
    if outcome.internal_error:
        return f"could not run ({outcome.internal_error})"
    # SIGXCPU: the kernel's CPU limit, a little over the watcher's, came first
    if outcome.cpu_time > limits.cpu_time or outcome.signal == signal.SIGXCPU:
        return f"ran out of time ({limits.cpu_time:g} s of CPU, {time_source})"
    if outcome.wall_timed_out:  # it waited (slept, or read input it will never get) more than it computed
        return (f"ran out of time (still running after {limits.wall_time:g} s of wall time, the clock allowed "
                f"with {limits.cpu_time:g} s of CPU, {time_source})")
    if outcome.output_exceeded:
        return f"wrote more than {limits.output // MIB} MiB"
    if outcome.signal is not None:
        return f"crashed (killed by {signal_name(outcome.signal)})"
    return ""


def _last_error_line(outcome: Outcome) -> str:
    lines = outcome.stderr.decode("utf-8", errors="replace").strip().splitlines()
    return f": {lines[-1][:160]}" if lines else ""


def generate_for(problem) -> GeneratedData:
    """`judge generate`'s data: the package's generators.yaml run (or its data from the cache)."""
    package = problem.package
    if package is None or not isinstance(package, Package):
        raise GeneratorsError(f"{problem.id} is not an ICPC/Kattis problem package; `judge generate` makes a "
                              f"package's data from its generators/generators.yaml")
    if not (package.root / GENERATORS_FILE).is_file():
        raise GeneratorsError(f"{package.root}: no {GENERATORS_FILE} to make the test data from")
    generated = generated_data(package)
    assert generated is not None
    return generated


def write_tree(generated: GeneratedData, target: Path) -> int:
    """Copy the generated data/ tree into ``target`` (new, or an empty folder); the files written."""
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise GeneratorsError(f"{target} is not an empty folder; give a new or empty one to write the data into")
    shutil.copytree(generated.folder, target, dirs_exist_ok=True)
    return sum(1 for path in target.rglob("*") if path.is_file())
