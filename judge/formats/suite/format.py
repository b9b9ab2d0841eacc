"""The built-in format: a YAML case suite per problem, with its parts in sibling folders.

    <root>/cases/<id>.yaml        settings, statement and cases
    <root>/reference/<id>.py      the reference solver
    <root>/validators/<id>.py     the input validator
    <root>/strategies/<id>.py     Hypothesis strategies for `judge stress`
    <root>/solutions/<id>/<verdict>/...   example solutions

A suite is plain YAML (``yaml.safe_load`` only). Every schema error is a ``SuiteError`` that names
the file, the case and the field, says what was expected and what was found; a misspelt key is
an error with the nearest known key, never silently ignored.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from judge.errors import SuiteError
from judge.formats.base import ProblemFormat, ProblemSource
from judge.formats.suite.checks import verify_suite_problem
from judge.languages import LANGUAGES, declarations
from judge.languages.content_hash import current_hash
from judge.model.feedback import FeedbackPolicy, parse_policy
from judge.model.problem import MIB, SCORING_MODES, VISIBILITIES, Case, Problem, ProblemFiles
from judge.model.signature import Signature, SignatureError, check_arguments, parse_signature, value_problem
from judge.model.vocabulary import TaskStyle, Visibility
from judge.problem_code.reference import expected_output
from judge.tasks import TASK_TYPES, task_type
from judge.text.docs_links import see
from judge.text.suggestions import nearest
from judge.text.yaml_files import read_yaml

SUITES_FOLDER = "cases"
HEADER_KEYS = ("id", "title", "statement", "io", "limits", "checker", "points", "scoring", "groups", "signature",
               "feedback", "cases", "generated")
LIMIT_KEYS = ("time", "memory", "output")
CHECKER_KEYS = ("name", "options")
CASE_KEYS = ("name", "group", "points", "visibility", "origin", "hint", "description", "show_name")
GROUP_KEYS = ("points", "hint", "description")  # a group's entry in `groups:`, when it is a mapping
GENERATED_KEYS = ("name", "generate", "count", "seeds", "group", "points", "visibility")  # `generated:` entries
MAX_GENERATED = 100  # cases of one entry, as generators.yaml's count allows
# Each task type's own case fields (the data, and the expected answer).
TASK_CASE_KEYS = {TaskStyle.STDIO: ("input", "output"), TaskStyle.FUNCTION: ("args", "expected")}


def custom_checker_files(problem: Problem) -> tuple[Path, ...]:
    """The file of the suite's custom checker, if it names one."""
    spec = str(problem.checker_options.get("function", "")) if problem.checker == "custom" else ""
    return (problem.project_root / spec.partition(":")[0],) if spec else ()


class SuiteFormat(ProblemFormat):
    name = "suite"

    def sources_in(self, folder: Path) -> list[ProblemSource]:
        suites = folder / SUITES_FOLDER
        if not suites.is_dir():
            return []
        return [ProblemSource(path.stem, path, self) for path in sorted(suites.glob("*.yaml")) if path.is_file()]

    def source_at(self, path: Path) -> ProblemSource | None:
        if path.is_file() and path.suffix in (".yaml", ".yml"):
            return ProblemSource(path.stem, path, self)
        return None

    def load(self, source: ProblemSource, time_limit: float | None = None, run_programs: bool = True) -> Problem:
        problem = load_suite(source.path, run_programs=run_programs)
        return problem if time_limit is None else dataclasses.replace(problem, time_limit=time_limit)

    def verify(self, problem: Problem, jobs: int | None) -> Iterable:
        # here, as below: the runner and the languages load only when a problem is judged or
        # hashed, not for `judge list` or `judge show` (a third of their start-up time)

        return verify_suite_problem(problem, jobs)

    def describe(self, problem: Problem) -> str:
        return describe_suite_problem(problem)

    def content_hash(self, problem: Problem) -> str:
        # The suite, its reference solver, its own checker and its generators: results change
        # with any of them.
        return current_hash((problem.suite_path, problem.reference_path, *custom_checker_files(problem),
                             *problem.files.generators))

    def strategy_path(self, source: ProblemSource) -> Path | None:
        return parts_of(source.path).strategies


def parts_of(suite: Path, root: Path | None = None) -> ProblemFiles:
    """Where the parts of the problem whose suite is ``suite`` live: beside its ``cases/``."""
    suite = suite.resolve()
    root = root or (suite.parent.parent if suite.parent.name == SUITES_FOLDER else suite.parent)
    problem_id = suite.stem
    return ProblemFiles(root=root, suite=suite, reference=root / "reference" / f"{problem_id}.py",
                        validator=root / "validators" / f"{problem_id}.py",
                        strategies=root / "strategies" / f"{problem_id}.py",
                        solutions=root / "solutions" / problem_id)


def load_suite(path: Path, root: Path | None = None, run_programs: bool = True) -> Problem:
    """Parse and validate one suite file (its parts are looked for beside it, or under ``root``).
    Without ``run_programs``, generated cases not in the cache yet are left out (none are made)."""
    return _SuiteReader(path, parts_of(path, root), run_programs).problem(read_yaml(path))


class _SuiteReader:
    def __init__(self, path: Path, files: ProblemFiles, run_programs: bool = True) -> None:
        self.path = path
        self.files = files
        self.run_programs = run_programs

    def fail(self, where: str, message: str) -> SuiteError:
        return SuiteError(f"{self.path}: {where}: {message}")

    def field(self, data: dict, key: str, kind: type | tuple, where: str, default: Any = ...) -> Any:
        if key not in data:
            if default is ...:
                raise self.fail(where, f"missing field '{key}'")
            return default
        value = data[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise self.fail(where, f"field '{key}' must be {names}, got {type(value).__name__} {value!r:.60}")
        return value

    def known_keys(self, data: dict, allowed: tuple[str, ...], where: str, elsewhere: dict | None = None) -> None:
        """A key that is not ``allowed`` is a mistake (a misspelling would otherwise silently
        change the problem): name it, and the key meant. ``elsewhere`` maps keys that belong to
        another context to where they belong."""
        for key in data:
            if key in allowed:
                continue
            if elsewhere and key in elsewhere:
                raise self.fail(where, f"field '{key}' {elsewhere[key]}")
            meant = nearest(str(key), allowed)
            hint = f"did you mean '{meant}'?" if meant else f"known fields: {', '.join(allowed)}"
            raise self.fail(where, f"unknown field '{key}'; {hint}")

    def positive(self, data: dict, key: str, where: str, default: float) -> float:
        value = self.field(data, key, (int, float), where, default)
        if not math.isfinite(value) or value <= 0:
            raise self.fail(where, f"field '{key}' must be a positive number, got {value}")
        return float(value)

    def problem(self, data: Any) -> Problem:
        if not isinstance(data, dict):
            raise self.fail("top level", f"expected a mapping with id, title, cases, ...; got {type(data).__name__}")
        where = "header"
        self.known_keys(data, HEADER_KEYS, where)
        io = self.field(data, "io", str, where, TaskStyle.STDIO.value)
        if io not in TASK_TYPES:
            raise self.fail(where, f"field 'io' must be one of {', '.join(TASK_TYPES)}, got {io!r}")
        task = task_type(io)
        limits = self.field(data, "limits", dict, where, {})
        self.known_keys(limits, LIMIT_KEYS, "limits")
        checker, options = self.checker(data.get("checker", task.default_checker))
        scoring = self.field(data, "scoring", str, where, "cases")
        if scoring not in SCORING_MODES:
            raise self.fail(where, f"field 'scoring' must be one of {', '.join(SCORING_MODES)}, got {scoring!r}")
        problem_id = self.field(data, "id", str, where)
        if problem_id != self.path.stem:
            raise self.fail(where, f"id {problem_id!r} must match the file name {self.path.stem!r}")
        signature = self.signature(data, io)
        raw_generated = self.field(data, "generated", list, where, [])
        raw_cases = self.field(data, "cases", list, where, [] if raw_generated else ...)
        if not raw_cases and not raw_generated:
            raise self.fail(where, "field 'cases' is empty; a suite needs at least one case (or `generated:` ones)")
        group_points, group_notes = self.groups(self.field(data, "groups", dict, where, {}))
        cases = tuple(self.case(raw, index, io, group_notes) for index, raw in enumerate(raw_cases, 1))
        if signature:
            self.check_against(signature, cases)
        generated = [self.generated_entry(raw, index, io) for index, raw in enumerate(raw_generated, 1)]
        problem = Problem(
            id=problem_id,
            title=self.field(data, "title", str, where),
            statement=self.field(data, "statement", str, where, ""),
            task=task,
            time_limit=self.positive(limits, "time", "limits", 1.0),
            memory_limit=int(self.positive(limits, "memory", "limits", 256) * MIB),
            output_limit=int(self.positive(limits, "output", "limits", 16) * MIB),
            checker=checker,
            checker_options=options,
            scoring=scoring,
            total_points=self.positive(data, "points", where, 100),
            group_points=group_points,
            cases=cases,
            files=self.files,
            format=SuiteFormat.name,
            signature=signature,
            feedback=parse_policy(data["feedback"], lambda message: self.fail(where, message))
            if "feedback" in data else FeedbackPolicy(),
        )
        if generated:
            problem = self.with_generated(problem, generated)
        self.check_unique(problem.cases)
        if scoring == "groups":
            self.check_groups(problem.cases, group_points)
        return problem

    def generated_entry(self, raw: Any, index: int, io: str):
        """One entry of `generated:`: a generator beside the suite, its command, and its seeds
        or count (a judge.formats.suite.generated.GeneratedEntry)."""
        # here: the generators' module loads the package machinery that makes data (a third of
        # a one-case `judge run`'s start), which only a suite with generated cases needs
        from judge.formats.suite.generated import GeneratedEntry, planned_inputs

        where = f"generated #{index}"
        if not isinstance(raw, dict):
            raise self.fail(where, f"expected a mapping with name, generate and count or seeds, got {type(raw).__name__}")
        name = str(self.field(raw, "name", (str, int), where))
        where = f"generated #{index} ({name})"
        self.known_keys(raw, GENERATED_KEYS, where)
        if io != TaskStyle.STDIO:
            raise self.fail(where, "generated cases are for stdio problems (a generator prints an input)")
        text = self.field(raw, "generate", str, where)
        count = self.field(raw, "count", int, where, None)
        seeds = self.field(raw, "seeds", list, where, None)
        if count is not None and seeds is not None:
            raise self.fail(where, "give `count` (that many seeds, made from the command) or `seeds`, not both")
        if count is not None and not 1 <= count <= MAX_GENERATED:
            raise self.fail(where, f"field 'count' must be from 1 to {MAX_GENERATED}, got {count}")
        if seeds is not None and not _are_seeds(seeds):
            raise self.fail(where, f"field 'seeds' must be a list of at most {MAX_GENERATED} different whole "
                                   f"numbers from 0 to 2147483647, got {seeds!r:.60}")
        try:
            inputs = planned_inputs(name, text, count, seeds)
        except ValueError as error:
            raise self.fail(where, str(error)) from None
        program = inputs[0].command.program
        generator = self.path.parent / program
        if Path(program).is_absolute() or not generator.is_file():
            raise self.fail(where, f"the generator {program} is not a file beside the suite ({self.path.parent}); "
                                   f"the command's first word names it, as in `gen.py 10 {{seed}}`")
        visibility = self.field(raw, "visibility", str, where, Visibility.HIDDEN.value)
        if visibility not in VISIBILITIES:
            raise self.fail(where, f"field 'visibility' must be sample or hidden, got {visibility!r}")
        return GeneratedEntry(where, generator, inputs, group=str(self.field(raw, "group", (str, int), where, "default")),
                              points=float(self.field(raw, "points", (int, float), where, 1)), visibility=visibility)

    def with_generated(self, problem: Problem, entries: list) -> Problem:
        """The problem with its generated cases after its own (left out when they are not in the
        cache and programs are not to run), and its generators among its files."""
        from judge.formats.suite.generated import generated_cases  # package machinery: see generated_entry

        made = generated_cases(problem, entries, self.run_programs) or ()
        files = dataclasses.replace(problem.files, generators=tuple(sorted({entry.generator for entry in entries})))
        return dataclasses.replace(problem, cases=problem.cases + made, files=files)

    def signature(self, data: dict, io: str) -> Signature | None:
        if "signature" not in data:
            return None
        if io != TaskStyle.FUNCTION:
            raise self.fail("signature", "a signature is for function-style problems (io: function)")
        try:
            return parse_signature(data["signature"])
        except SignatureError as error:
            raise self.fail("signature", str(error)) from None

    def check_against(self, signature: Signature, cases: tuple[Case, ...]) -> None:
        """Every case's arguments (and stored expected value) must fit the signature's types."""
        for case in cases:
            try:
                check_arguments(signature, case.args or ())
            except SignatureError as error:
                raise self.fail(f"case {case.name}", f"{error}; the signature is {signature}") from None
            problem = None if case.expected is None else value_problem(signature.returns, case.expected)
            if problem:
                raise self.fail(f"case {case.name}", f"expected ({signature.returns}): {problem}")

    def checker(self, spec: Any) -> tuple[str, dict]:
        if isinstance(spec, str):
            return spec, {}
        if isinstance(spec, dict) and isinstance(spec.get("name"), str):
            self.known_keys(spec, CHECKER_KEYS, "checker")
            options = spec.get("options", {})
            if not isinstance(options, dict):
                raise self.fail("checker", f"field 'options' must be a mapping {see('how-to/checkers.md')}")
            return spec["name"], options
        raise self.fail("header", "field 'checker' must be a name (tokens, exact, float, data, "
                                  f"custom) or a mapping {{name: ..., options: {{...}}}} {see('how-to/checkers.md')}")

    def groups(self, raw: dict) -> tuple[dict, dict]:
        """`groups:`: each group's points, written as a number or as a mapping that may also give
        the group's ``hint`` and ``description`` (shown when one of its cases fails); the points and
        the notes ({group: {"hint": ..., "description": ...}})."""
        points, notes = {}, {}
        for name, spec in raw.items():
            where = f"groups: {name}"
            if isinstance(spec, dict):
                self.known_keys(spec, GROUP_KEYS, where)
                points[str(name)] = self.field(spec, "points", (int, float), where, 0)
                notes[str(name)] = {key: self.field(spec, key, str, where, "") for key in ("hint", "description")}
            elif isinstance(spec, (int, float)) and not isinstance(spec, bool):
                points[str(name)] = spec
            else:
                raise self.fail(where, f"a group is its points (a number) or a mapping of {', '.join(GROUP_KEYS)}, "
                                       f"got {type(spec).__name__} {spec!r:.60}")
        return points, notes

    def case(self, raw: Any, index: int, io: str, group_notes: dict) -> Case:
        where = f"case #{index}"
        if not isinstance(raw, dict):
            raise self.fail(where, f"expected a mapping with name and input, got {type(raw).__name__}")
        name = self.field(raw, "name", (str, int), where)
        where = f"case #{index} ({name})"
        own = TASK_CASE_KEYS.get(io, ())
        others = {key: f"is for {style} problems; this one is {io} (use {' or '.join(own)})"
                  for style, keys in TASK_CASE_KEYS.items() if style != io for key in keys if key not in own}
        self.known_keys(raw, CASE_KEYS + own, where, others)
        visibility = self.field(raw, "visibility", str, where, Visibility.HIDDEN.value)
        if visibility not in VISIBILITIES:
            raise self.fail(where, f"field 'visibility' must be sample or hidden, got {visibility!r}")
        common = dict(name=str(name), group=str(self.field(raw, "group", (str, int), where, "default")),
                      points=float(self.field(raw, "points", (int, float), where, 1)),
                      visibility=visibility, origin=self.field(raw, "origin", str, where, None),
                      show_name=self.field(raw, "show_name", bool, where, False))
        notes = group_notes.get(common["group"], {})  # a case's own hint or description, else its group's
        for key in ("hint", "description"):
            common[key] = self.field(raw, key, str, where, "") or notes.get(key, "")
        data = task_type(io).case_data(raw, lambda key, kind, default=...: self.field(raw, key, kind, where, default))
        return Case(**data, **common)

    def check_unique(self, cases: tuple[Case, ...]) -> None:
        seen: set[str] = set()
        for case in cases:
            if case.name in seen:
                raise self.fail(f"case {case.name}", "duplicate case name; names must be unique")
            seen.add(case.name)

    def check_groups(self, cases: tuple[Case, ...], group_points: dict) -> None:
        for case in cases:
            if case.group not in group_points:
                raise self.fail(f"case {case.name}", f"group {case.group!r} has no points in 'groups'")


def _are_seeds(seeds: list) -> bool:
    return (0 < len(seeds) <= MAX_GENERATED and len(set(seeds)) == len(seeds)
            and all(isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < 2**31 for seed in seeds))


def describe_suite_problem(problem: Problem) -> str:
    """`judge show`: the statement (with a title heading unless it has its own), the limits, the
    declaration in every language for function style, and the sample cases with their answers."""
    parts = []
    statement = problem.statement.strip()
    if not statement.startswith("#"):
        parts.append(f"# {problem.title} ({problem.id})\n")
    parts.append((statement or "(no statement)") + "\n")
    parts.append(f"Judged with: {problem.time_limit:g} s CPU per case{_time_allowances()}, "
                 f"{problem.memory_limit >> 20} MiB memory.\n")
    if problem.signature:
        parts.append(render_declarations(problem.signature) + "\n")
    for case in problem.cases:
        if case.visibility == Visibility.SAMPLE:
            parts.append(problem.task.show_sample(case.name, problem.task.value(case), expected_output(problem, case)))
    return "\n".join(parts)


def _time_allowances() -> str:
    """The languages whose programs get more time, and how much (from the languages themselves)."""
    slower = [f"{language.name} x{language.time_factor:g} + {language.time_extra:g} s"
              for language in LANGUAGES.values() if (language.time_factor, language.time_extra) != (1, 0)]
    return f" ({', '.join(slower)})" if slower else ""


def render_declarations(signature) -> str:
    """What a submission declares, in every language that can call a function."""
    lines = [f"Declaration ({signature}):"]
    lines += [f"  {language:<11} {declaration}" for language, declaration in declarations(signature).items()]
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# Adding a case

@functools.cache
def _literal_dumper():
    """A YAML dumper that writes multi-line strings as `|` blocks, as a person would write them."""
    class LiteralDumper(yaml.SafeDumper):
        pass

    LiteralDumper.add_representer(str, lambda dumper, text: dumper.represent_scalar(
        "tag:yaml.org,2002:str", text, style="|" if "\n" in text.rstrip("\n") else None))
    return LiteralDumper


def append_case(problem: Problem, fields: dict) -> str:
    """Append one case to the end of the problem's suite file, leaving every existing line (and
    comment) as it was. The suite must still load with the new case in it, or the file is
    restored and SuiteError raised. Returns the text that was appended."""
    path = problem.suite_path
    if path is None or problem.format != SuiteFormat.name:
        raise SuiteError(f"problem {problem.id} is not a YAML suite; cases cannot be added to it")
    original = path.read_text(encoding="utf-8")

    entry = yaml.dump([fields], Dumper=_literal_dumper(), sort_keys=False, allow_unicode=True, width=4096)
    addition = "".join("  " + line if line.strip() else line for line in entry.splitlines(keepends=True))
    separator = "" if original.endswith("\n") else "\n"
    path.write_text(original + separator + addition, encoding="utf-8")
    try:
        reloaded = load_suite(path, root=problem.project_root)
        reloaded.case(str(fields["name"]))
    except SuiteError as error:
        path.write_text(original, encoding="utf-8")
        raise SuiteError(f"{path}: could not append the case (is `cases:` the last key?): {error}") from None
    return addition
