"""Problems and their case suites, loaded from ``cases/<id>.yaml``.

A suite is plain YAML (``yaml.safe_load`` only). Every schema error is a ``SuiteError`` that names
the file, the case and the field, says what was expected and what was found.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

IOStyle = Literal["stdio", "function"]
Visibility = Literal["sample", "hidden"]
IO_STYLES = ("stdio", "function")
VISIBILITIES = ("sample", "hidden")
SCORING_MODES = ("cases", "groups")
MIB = 1024 * 1024
ROOT_ENV = "JUDGE_ROOT"


class SuiteError(Exception):
    """A case suite (or the request for one) is malformed; the message says where and how to fix it."""


@dataclass(frozen=True)
class Case:
    """One test case: stdin text for stdio problems, call arguments for function problems."""

    name: str
    input: str | None = None
    args: tuple | None = None
    expected: Any = None  # str for stdio, any JSON value for function problems; None = ask the reference
    group: str = "default"
    points: float = 1.0
    visibility: Visibility = "hidden"
    origin: str | None = None

    def stdin_bytes(self) -> bytes:
        """What the submission reads: the input text, or the call's arguments as JSON."""
        if self.args is not None:
            return json.dumps(list(self.args)).encode()
        return (self.input or "").encode()


@dataclass(frozen=True)
class Problem:
    """A problem's metadata and its cases, as written in its suite."""

    id: str
    title: str
    statement: str
    io: IOStyle
    time_limit: float  # CPU seconds per case, before per-language adjustment
    memory_limit: int  # bytes
    output_limit: int  # bytes
    checker: str = "tokens"
    checker_options: dict = field(default_factory=dict)
    scoring: str = "cases"
    total_points: float = 100.0
    group_points: dict = field(default_factory=dict)
    cases: tuple[Case, ...] = ()
    suite_path: Path | None = None
    root: Path | None = None

    def case(self, name: str) -> Case:
        """The case called ``name``; SuiteError listing the names when there is none."""
        for case in self.cases:
            if case.name == name:
                return case
        names = ", ".join(case.name for case in self.cases)
        raise SuiteError(f"problem {self.id} has no case {name!r}; its cases are: {names}")

    @cached_property  # asked once per judged case: stress testing judges thousands
    def reference_path(self) -> Path:
        return self.project_root / "reference" / f"{self.id}.py"

    @property
    def project_root(self) -> Path:
        return self.root or (self.suite_path.parent.parent if self.suite_path else Path.cwd())


# ---------------------------------------------------------------------------------------------
# Finding suites

def project_root() -> Path:
    """Where ``cases/`` lives: $JUDGE_ROOT, else the working directory if it has one, else the
    checkout this package was installed from."""
    if os.environ.get(ROOT_ENV):
        return Path(os.environ[ROOT_ENV]).resolve()
    if (Path.cwd() / "cases").is_dir():
        return Path.cwd()
    return Path(__file__).resolve().parent.parent


def known_problems(root: Path | None = None) -> list[str]:
    """Ids of the problems whose suites are in ``<root>/cases``."""
    cases_dir = (root or project_root()) / "cases"
    return sorted(path.stem for path in cases_dir.glob("*.yaml")) if cases_dir.is_dir() else []


def load_problem(problem_id: str, root: Path | None = None) -> Problem:
    """Load ``cases/<problem_id>.yaml``; SuiteError naming the known problems when it is absent."""
    root = root or project_root()
    path = root / "cases" / f"{problem_id}.yaml"
    if not path.is_file():
        known = ", ".join(known_problems(root)) or "none"
        raise SuiteError(f"unknown problem {problem_id!r} (no {path}); known problems: {known}")
    return load_suite(path, root=root)


def load_suite(path: Path, root: Path | None = None) -> Problem:
    """Parse and validate one suite file."""
    import yaml  # here, not at the top: `judge stress` starts its generator before YAML loads

    try:
        # libyaml's loader when PyYAML has it (several times faster); both are the safe loader.
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except OSError as error:
        raise SuiteError(f"{path}: cannot read the suite: {error.strerror}") from None
    except UnicodeDecodeError:
        raise SuiteError(f"{path}: the suite is not UTF-8 text") from None
    except yaml.YAMLError as error:
        where = getattr(error, "problem_mark", None)
        line = f" (line {where.line + 1}, column {where.column + 1})" if where else ""
        raise SuiteError(f"{path}{line}: not valid YAML: {getattr(error, 'problem', error)}") from None
    return _SuiteReader(path, root).problem(data)


# ---------------------------------------------------------------------------------------------
# Validation

class _SuiteReader:
    def __init__(self, path: Path, root: Path | None) -> None:
        self.path = path
        self.root = root

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

    def positive(self, data: dict, key: str, where: str, default: float) -> float:
        value = self.field(data, key, (int, float), where, default)
        if value <= 0:
            raise self.fail(where, f"field '{key}' must be positive, got {value}")
        return float(value)

    def problem(self, data: Any) -> Problem:
        if not isinstance(data, dict):
            raise self.fail("top level", f"expected a mapping with id, title, cases, ...; got {type(data).__name__}")
        where = "header"
        io = self.field(data, "io", str, where, "stdio")
        if io not in IO_STYLES:
            raise self.fail(where, f"field 'io' must be one of {', '.join(IO_STYLES)}, got {io!r}")
        limits = self.field(data, "limits", dict, where, {})
        checker, options = self.checker(data.get("checker", "tokens"))
        scoring = self.field(data, "scoring", str, where, "cases")
        if scoring not in SCORING_MODES:
            raise self.fail(where, f"field 'scoring' must be one of {', '.join(SCORING_MODES)}, got {scoring!r}")
        problem_id = self.field(data, "id", str, where)
        if problem_id != self.path.stem:
            raise self.fail(where, f"id {problem_id!r} must match the file name {self.path.stem!r}")
        raw_cases = self.field(data, "cases", list, where)
        if not raw_cases:
            raise self.fail(where, "field 'cases' is empty; a suite needs at least one case")
        cases = tuple(self.case(raw, index, io) for index, raw in enumerate(raw_cases, 1))
        self.check_unique(cases)
        group_points = self.field(data, "groups", dict, where, {})
        if scoring == "groups":
            self.check_groups(cases, group_points)
        return Problem(
            id=problem_id,
            title=self.field(data, "title", str, where),
            statement=self.field(data, "statement", str, where, ""),
            io=io,
            time_limit=self.positive(limits, "time", "limits", 1.0),
            memory_limit=int(self.positive(limits, "memory", "limits", 256) * MIB),
            output_limit=int(self.positive(limits, "output", "limits", 16) * MIB),
            checker=checker,
            checker_options=options,
            scoring=scoring,
            total_points=self.positive(data, "points", where, 100),
            group_points=group_points,
            cases=cases,
            suite_path=self.path,
            root=self.root,
        )

    def checker(self, spec: Any) -> tuple[str, dict]:
        if isinstance(spec, str):
            return spec, {}
        if isinstance(spec, dict) and isinstance(spec.get("name"), str):
            options = spec.get("options", {})
            if not isinstance(options, dict):
                raise self.fail("checker", "field 'options' must be a mapping")
            return spec["name"], options
        raise self.fail("header", "field 'checker' must be a name (tokens, exact, float, data, "
                                  "custom) or a mapping {name: ..., options: {...}}")

    def case(self, raw: Any, index: int, io: str) -> Case:
        where = f"case #{index}"
        if not isinstance(raw, dict):
            raise self.fail(where, f"expected a mapping with name and input, got {type(raw).__name__}")
        name = self.field(raw, "name", (str, int), where)
        where = f"case #{index} ({name})"
        visibility = self.field(raw, "visibility", str, where, "hidden")
        if visibility not in VISIBILITIES:
            raise self.fail(where, f"field 'visibility' must be sample or hidden, got {visibility!r}")
        common = dict(name=str(name), group=str(self.field(raw, "group", (str, int), where, "default")),
                      points=float(self.field(raw, "points", (int, float), where, 1)),
                      visibility=visibility, origin=self.field(raw, "origin", str, where, None))
        if io == "function":
            args = self.field(raw, "args", list, where)
            return Case(args=tuple(args), expected=raw.get("expected"), **common)
        if "args" in raw:
            raise self.fail(where, "field 'args' is for function-style problems; this one reads 'input'")
        text = self.field(raw, "input", str, where)
        expected = self.field(raw, "output", str, where, None)
        return Case(input=text, expected=expected, **common)

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


# ---------------------------------------------------------------------------------------------
# Adding a case

@functools.cache
def _literal_dumper():
    """A YAML dumper that writes multi-line strings as `|` blocks, as a person would write them."""
    import yaml

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
    if path is None:
        raise SuiteError(f"problem {problem.id} was not loaded from a file")
    original = path.read_text(encoding="utf-8")
    import yaml

    entry = yaml.dump([fields], Dumper=_literal_dumper(), sort_keys=False, allow_unicode=True, width=4096)
    addition = "".join("  " + line if line.strip() else line for line in entry.splitlines(keepends=True))
    separator = "" if original.endswith("\n") else "\n"
    path.write_text(original + separator + addition, encoding="utf-8")
    try:
        reloaded = load_suite(path, root=problem.root)
        reloaded.case(str(fields["name"]))
    except SuiteError as error:
        path.write_text(original, encoding="utf-8")
        raise SuiteError(f"{path}: could not append the case (is `cases:` the last key?): {error}") from None
    return addition
