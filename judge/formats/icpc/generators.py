"""Reading BAPCtools' ``generators/generators.yaml`` into a plan: every test case it describes,
named as BAPCtools names it, with the command (and seed) that makes its input, the files it
copies or spells out, and the solution that answers it. Nothing runs here (see
``judge.formats.icpc.generated_data``).

The forms BAPCtools' reference (its ``doc/generators.md`` and schema) allows: ``solution``,
``random_salt``, ``retries``, ``generators`` (implicit generators: a name and its files and
folders), and ``data``: directories (a mapping, or a list of one-entry mappings, which are
numbered) holding test cases: a command string, or a mapping of ``generate``, ``count``
(``{count}`` is 1 without it), ``copy``, ``match`` and hard-coded files (``in``, ``ans``,
``yaml``, ...); and a name with no value, the generators.yaml draft's manual case: the case
``data/`` holds as it is.
Every fault is a ``GeneratorsError`` naming the entry; a key this judge does not know is a
warning, as BAPCtools warns.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from judge.formats.icpc.constants import NO_CONSTANTS, Constants, substitute, substitute_data
from judge.formats.icpc.package import PackageError, read_yaml
from judge.text.docs_links import see

GENERATORS_FILE = Path("generators") / "generators.yaml"
SEED = re.compile(r"\{seed(:[0-9]+)?\}")
PLACEHOLDER = re.compile(r"\{\w+(:[^{}\s]*)?\}")  # what a command's placeholder looks like, known or not
# The files a test case may spell out or copy, as BAPCtools knows them.
CASE_FILES = (".in", ".ans", ".out", ".in.statement", ".ans.statement", ".in.download", ".ans.download",
              ".interaction", ".yaml")
LINKABLE = (".in.statement", ".ans.statement", ".in.download", ".ans.download")
CASE_KEYS = {"generate", "copy", "count", "match", *(suffix[1:] for suffix in CASE_FILES)}
SETTING_KEYS = {"solution", "random_salt", "retries"}
DIRECTORY_KEYS = {"data", "test_group.yaml", "include", "type"}
ROOT_KEYS = {"generators", "version"}
# The top-level directories, in the order BAPCtools makes them.
ROOT_DIRECTORIES = ("sample", "secret", "invalid_output", "invalid_answer", "invalid_input", "valid_output",
                    "testing_tool_test", "fuzz")
# Directories whose inputs need no answer from the solution (and are not valid inputs).
UNANSWERED = ("invalid_input", "invalid_answer", "invalid_output", "valid_output", "testing_tool_test")
NAME = re.compile(r"[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,254}")
MAX_COUNT = 100


class GeneratorsError(PackageError):
    """generators.yaml describes something this judge cannot make; the message names the entry,
    and the how-to page that says what the judge reads of generators.yaml."""

    def __init__(self, message: str) -> None:
        super().__init__(f"{message} {see('how-to/generated-data.md')}")


@dataclass(frozen=True)
class Command:
    """A generator's command line as written (``{count}`` filled in): its program and arguments."""

    text: str
    program: str  # the first word: a name of `generators:` or a path under generators/
    args: tuple[str, ...]

    def arguments(self, seed: int) -> list[str]:
        """The arguments it runs with: ``{seed}`` (``{seed:N}``) as ``seed``, ``{name}`` as testcase."""
        return [SEED.sub(str(seed), arg).replace("{name}", "testcase") for arg in self.args]


@dataclass(frozen=True)
class PlannedCase:
    """One test case to make, named by its path under data/ (``secret/03-large-01``)."""

    name: str
    command: Command | None = None
    seed: int = 0
    copy: Path | None = None  # the copied files' path without extension, relative to the package
    files: dict[str, str] = field(default_factory=dict)  # hard-coded contents by extension
    links: dict[str, str] = field(default_factory=dict)  # extension -> the extension whose file it repeats
    match: dict[str, tuple[str, ...]] = field(default_factory=dict)  # ".in"/".ans" -> patterns
    solution: str | None = None  # the solution's path from the package root; None: no answers made
    retries: int = 1
    included: str | None = None  # the case (made earlier) whose files it repeats, from `include:`

    @property
    def directory(self) -> str:
        return self.name.rpartition("/")[0]

    @property
    def answered(self) -> bool:
        """Whether the solution makes its answer (not in the folders of invalid examples)."""
        return self.name.split("/")[0] not in UNANSWERED

    def describe(self) -> str:
        if self.included is not None:
            return f"included from {self.included}"
        if self.command is not None:
            return f"`{self.command.text}`" + (f" (seed {self.seed})" if SEED.search(self.command.text) else "")
        if self.copy is not None:
            return f"copy {self.copy}"
        return "hard-coded " + ", ".join(suffix[1:] for suffix in self.files)


@dataclass
class Plan:
    """What generators.yaml makes: its cases in order, each directory's test_group.yaml, the
    implicit generators (name -> files under generators/, the first the entry) and warnings."""

    cases: list[PlannedCase]
    group_files: dict[str, Any]
    generators: dict[str, tuple[str, ...]]
    warnings: list[str]


def parse_command(text: str) -> Command:
    """A generator's command line as written: ValueError saying what is wrong with it."""
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise ValueError(f"generate: `{text}` cannot be split into words ({error})") from None
    if not words:
        raise ValueError("generate: expected a command such as `gen.py {seed} 10`, got an empty one")
    if sum(len(SEED.findall(word)) for word in words[1:]) > 1:
        raise ValueError(f"`{text}`: {{seed}} may appear at most once")
    for word in words[1:]:
        for found in PLACEHOLDER.finditer(word):
            if SEED.fullmatch(found.group(0)) or found.group(0) == "{name}":
                continue
            raise ValueError(f"`{text}`: unknown placeholder {found.group(0)}; a command may use {{seed}}, "
                             f"{{seed:N}} (N a number), {{name}} and {{count}}")
    return Command(text, words[0], tuple(words[1:]))


def varies(text: str) -> bool:
    """Whether a command's cases can differ from one another: it uses {seed} or {count}."""
    return bool(SEED.search(text)) or "{count}" in text


def seed_of(command: str, salt: str, count_value: int) -> int:
    """The seed BAPCtools gives a command: a hash of the salt, the count (when not the first) and
    the command as written (``{seed:N}`` included, so that N varies it), stripped."""
    text = salt + (f":{count_value - 1}" if count_value != 1 else "") + command.strip()
    return int(hashlib.sha512(text.encode()).hexdigest(), 16) % 2**31


def read_plan(root: Path, default_solution: str | None, constants: Constants = NO_CONSTANTS) -> Plan:
    """The plan of the package at ``root``'s generators.yaml; ``default_solution`` (a path from the
    root, such as /submissions/accepted/a.py) answers cases when the file names none. The
    package's ``constants`` are substituted in its commands and test_group.yaml settings (as
    BAPCtools does), not in the test data it spells out."""
    path = root / GENERATORS_FILE
    content = read_yaml(path)
    if content is None:
        content = {}
    if not isinstance(content, dict):
        raise GeneratorsError(f"{path}: expected a mapping (solution, generators, data), got {type(content).__name__}")
    return _Planner(root, path, default_solution, constants).plan(content)


class _Planner:
    def __init__(self, root: Path, path: Path, default_solution: str | None, constants: Constants) -> None:
        self.root = root
        self.path = path
        self.default_solution = default_solution
        self.constants = constants
        self.cases: list[PlannedCase] = []
        self.group_files: dict[str, Any] = {}
        self.warnings: list[str] = []
        self.generators: dict[str, tuple[str, ...]] = {}
        self.case_numbers: Iterator[int] = itertools.count(1)  # shared by the whole tree, as BAPCtools does
        self.case_width = 1
        # Each yaml key's cases and directories so far, for `include:` ("case"/"directory", path).
        self.known: dict[str, list[tuple[str, str]]] = {}

    def fail(self, where: str, message: str) -> GeneratorsError:
        return GeneratorsError(f"{self.path}: {where}: {message}" if where else f"{self.path}: {message}")

    def plan(self, content: dict) -> Plan:
        self.generators = self.implicit_generators(content.get("generators"))
        if "data" not in content:
            raise self.fail("", "no `data:` key; list the test cases under data: sample: and data: secret:")
        self.case_width = len(str(_numbered_cases(content)))
        settings = self.settings(content, {"solution": self.default_solution, "random_salt": "", "retries": 1}, "")
        self.directory(content, "", settings, root=True)
        return Plan(self.cases, self.group_files, self.generators, self.warnings)

    def implicit_generators(self, value: Any) -> dict[str, tuple[str, ...]]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise self.fail("generators", "expected a mapping of generator names to lists of files")
        found = {}
        for name, files in value.items():
            if not isinstance(name, str) or not NAME.fullmatch(name) or "." in name:
                raise self.fail("generators", f"{name!r} is not a generator name (letters, digits, _ and -, no '.')")
            if not isinstance(files, list) or not files or not all(isinstance(file, str) for file in files):
                raise self.fail(f"generators.{name}", "expected a list of its files under generators/, the entry first")
            for file in files:  # a file, or a folder of them (BAPCtools copies either)
                if not (self.root / "generators" / file).exists():
                    raise self.fail(f"generators.{name}", f"generators/{file} does not exist")
            found[name] = tuple(files)
        return found

    def settings(self, entry: dict, inherited: dict, where: str) -> dict:
        """The solution, salt and retries of an entry: its own over its directory's."""
        settings = dict(inherited)
        if "solution" in entry:
            solution = entry["solution"]
            if solution is not None and (not isinstance(solution, str) or not solution.startswith("/")
                                         or ".." in PurePosixPath(solution).parts):
                raise self.fail(where or "solution", f"solution must be a path from the package root such as "
                                                     f"/submissions/accepted/sol.py, got {solution!r:.60}")
            if solution is not None and not (self.root / solution.lstrip("/")).exists():
                raise self.fail(where or "solution", f"the solution {solution} does not exist")
            settings["solution"] = solution
        if "random_salt" in entry:
            settings["random_salt"] = str(entry["random_salt"])
        if "retries" in entry:
            retries = entry["retries"]
            if isinstance(retries, bool) or not isinstance(retries, int) or retries < 1:
                raise self.fail(where or "retries", f"retries must be a positive whole number, got {retries!r:.40}")
            settings["retries"] = retries
        return settings

    def directory(self, entry: dict, path: str, settings: dict, root: bool = False) -> None:
        where = path or "the top level"
        allowed = DIRECTORY_KEYS | SETTING_KEYS | (ROOT_KEYS if root else set())
        self.warn_unknown(entry, allowed, where)
        if entry.get("type", "directory") != "directory":
            raise self.fail(where, f"type: {entry['type']!r}; a directory's type is `directory`")
        included = self.included_cases(entry.get("include"), where)
        if "test_group.yaml" in entry:
            if not isinstance(entry["test_group.yaml"], dict):
                raise self.fail(where, "test_group.yaml: expected a mapping of group settings")
            self.group_files[path] = substitute_data(entry["test_group.yaml"], self.constants)
        data = entry.get("data")
        if isinstance(data, dict):
            self.named_children(data, path, settings, root)
        elif isinstance(data, list):
            if root:
                raise self.fail(where, "the top-level data: must be a mapping (sample:, secret:), not a list")
            self.numbered_children(data, path, settings)
        elif data is not None:
            raise self.fail(where, f"data: expected a mapping of names or a list, got {type(data).__name__}")
        self.include(included, path)

    def included_cases(self, value: Any, where: str) -> list[PlannedCase]:
        """The cases ``include:`` names by their yaml keys: test cases, or every case of a
        directory, each parsed before this directory (as BAPCtools has it)."""
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(key, str) for key in value):
            raise self.fail(where, "include: expected a list of keys of earlier test cases or groups")
        cases = []
        for key in value:
            rules = self.known.get(key, [])
            if "/" in key or len(rules) != 1:
                why = "a path, not a key" if "/" in key else "no earlier test case or group" if not rules else \
                    f"ambiguous ({len(rules)} entries have it)"
                raise self.fail(where, f"include: {key!r} is {why}; name an earlier test case or group by its key")
            kind, path = rules[0]
            cases += [case for case in self.cases if case.name == path or
                      (kind == "directory" and case.name.startswith(f"{path}/"))]
        return cases

    def include(self, cases: list[PlannedCase], path: str) -> None:
        for case in cases:
            name, source = f"{path}/{case.name.rpartition('/')[2]}", case.included or case.name
            there = next((other for other in self.cases if other.name == name), None)
            if there is not None and (there.included or there.name) != source:
                raise self.fail(path, f"include: {case.name} would be {name}, which the directory already has")
            if there is None:  # the same case included twice is the one case
                self.cases.append(PlannedCase(name, included=source))

    def named_children(self, data: dict, path: str, settings: dict, root: bool) -> None:
        if root:
            for key in data:
                if key not in ROOT_DIRECTORIES:
                    raise self.fail("data", f"unknown top-level directory {key!r}; use {', '.join(ROOT_DIRECTORIES)}")
            keys = [key for key in ROOT_DIRECTORIES if key in data]
        else:
            keys = sorted(data, key=lambda key: str(key or ""))
        for key in keys:
            if not key:
                raise self.fail(path or "data", "a test case or group of a mapping needs a name (a list numbers them)")
            self.child(str(key), data[key], path, settings, itertools.repeat(str(key)))

    def numbered_children(self, data: list, path: str, settings: dict) -> None:
        groups = sum(1 for item in data if isinstance(item, dict) for value in item.values() if _is_directory(value))
        group_numbers = itertools.count(1)
        for index, item in enumerate(data):
            if not isinstance(item, dict) or len(item) != 1:
                raise self.fail(f"{path}[{index}]", "a numbered entry is a mapping of exactly one name to its case "
                                                    "or group (indent generate:/count: one level more)")
            [(key, value)] = item.items()
            key = "" if key is None else str(key)
            if _is_directory(value):
                names = _numbered(key, group_numbers, len(str(groups)))
            else:
                names = _numbered(key, self.case_numbers, self.case_width)
            self.child(key, value, path, settings, names)

    def child(self, key: str, value: Any, parent: str, settings: dict, names: Iterator[str]) -> None:
        if value is None:
            self.case_in_data(key, parent, settings, next(names))
        elif _is_directory(value):
            name = next(names)
            self.check_name(name, parent)
            child_path = f"{parent}/{name}" if parent else name
            self.known.setdefault(key, []).append(("directory", child_path))
            self.directory(value, child_path, self.settings(value, settings, child_path))
        elif _is_case(value):
            self.test_cases(key, value, parent, settings, names)
        else:
            raise self.fail(f"{parent}/{key}" if parent else key, f"neither a test case nor a directory: {value!r:.60}")

    def check_name(self, name: str, parent: str) -> None:
        if not NAME.fullmatch(name) or name in ("test_group", "testdata"):
            raise self.fail(f"{parent}/{name}", f"{name!r} is not a valid name (letters, digits, _ . -)")

    def case_in_data(self, key: str, parent: str, settings: dict, name: str) -> None:
        """A name with no value (``'1':``), the generators.yaml draft's manual case: the case data/
        holds already, taken as it is. Today's BAPCtools reports it as an error and leaves data/ as
        it is, which it then judges."""
        self.check_name(name, parent)
        full = f"{parent}/{name}"
        kept = Path("data") / full
        if not any((self.root / f"{kept}{suffix}").is_file() for suffix in CASE_FILES):
            raise self.fail(full, f"no value, and data/{full}.in does not exist: give the case (generate:, copy: "
                                  f"or in:), or put its files in data/")
        self.warnings.append(f"{self.path.name}: {full}: no value: the case is data/{full} as it is (the "
                             f"generators.yaml draft's manual case; BAPCtools' generate reports it and leaves it)")
        self.cases.append(PlannedCase(full, copy=kept, solution=settings["solution"], retries=settings["retries"]))
        self.known.setdefault(key, []).append(("case", full))

    def test_cases(self, key: str, value: Any, parent: str, settings: dict, names: Iterator[str]) -> None:
        entry = {"generate": value} if isinstance(value, str) else dict(value)
        if isinstance(value, str) and value.endswith(".in"):
            entry = {"copy": value[:-3]}
        counts = self.counts(entry, parent)
        padding = max(len(str(value)) for value in counts) if max(counts) - min(counts) == len(counts) - 1 else 0
        for count_value in counts:
            name = next(names)
            if "count" in entry:
                name += f"-{count_value:0{padding}}"
            self.check_name(name, parent)
            full = f"{parent}/{name}"
            self.cases.append(self.test_case(entry, full, self.settings(entry, settings, full), count_value))
            self.known.setdefault(key, []).append(("case", full))

    def counts(self, entry: dict, where: str) -> list[int]:
        """The values of {count} (BAPCtools: a number 1..100, a list, or a range 'a..=b')."""
        if "count" not in entry:
            return [1]
        count = entry["count"]
        if isinstance(count, int) and not isinstance(count, bool):
            if not 1 <= count <= MAX_COUNT:
                raise self.fail(where, f"count: {count}; it must be between 1 and {MAX_COUNT}")
            return list(range(1, count + 1))
        if isinstance(count, list) and count and all(isinstance(v, int) and not isinstance(v, bool) for v in count):
            if len(set(count)) != len(count) or len(count) > MAX_COUNT:
                raise self.fail(where, f"count: {count!r:.60}: a list of at most {MAX_COUNT} different numbers")
            return count
        found = re.fullmatch(r"(-?\d+)\.\.=(-?\d+)", str(count))
        if found and 0 <= int(found[2]) - int(found[1]) < MAX_COUNT:
            return list(range(int(found[1]), int(found[2]) + 1))
        raise self.fail(where, f"count: {count!r:.60}; give a number (1 to {MAX_COUNT}), a list of numbers "
                               f"or a range such as 1..=5")

    def test_case(self, entry: dict, name: str, settings: dict, count_value: int) -> PlannedCase:
        self.warn_unknown(entry, CASE_KEYS | SETTING_KEYS, name)
        command, seed = None, 0
        if "generate" in entry:
            text = entry["generate"]
            if not isinstance(text, str) or not text.strip():
                raise self.fail(name, f"generate: expected a command such as `gen.py {{seed}} 10`, got {text!r:.60}")
            text = substitute(text, self.constants)  # before the seed is taken from it, as BAPCtools does
            if "count" in entry and not varies(text) and count_value == 1:
                self.warnings.append(f"{self.path.name}: {name}: count: makes the same case each time: the "
                                     f"command `{text}` uses neither {{seed}} nor {{count}}")
            text = text.replace("{count}", str(count_value))  # 1 without count:, as BAPCtools has it
            command = self.command(text, name)
            seed = seed_of(text, settings["random_salt"], count_value)
        copy = self.copied(entry.get("copy"), name)
        files, links = self.spelled_out(entry, name)
        if command is None and copy is None and not files:
            raise self.fail(name, "a test case needs `generate:`, `copy:` or `in:` (a command string is `generate:`)")
        return PlannedCase(name, command, seed, copy, files, links, self.patterns(entry.get("match"), name),
                           settings["solution"], settings["retries"])

    def patterns(self, value: Any, name: str) -> dict[str, tuple[str, ...]]:
        """``match:``: regular expressions the input (or, under ``ans:``, the answer) must match."""
        if value is None:
            return {}
        value = {"in": value} if isinstance(value, (str, list)) else value
        if not isinstance(value, dict):
            raise self.fail(name, "match: expected a pattern, a list of them, or in:/ans: lists")
        found = {}
        for suffix, items in value.items():
            items = [items] if isinstance(items, str) else items
            if suffix not in ("in", "ans") or not isinstance(items, list) or not all(isinstance(i, str) for i in items):
                raise self.fail(name, f"match.{suffix}: expected in: or ans: with regular expressions")
            for pattern in items:
                try:
                    re.compile(pattern)
                except re.error as error:
                    raise self.fail(name, f"match: {pattern!r} is not a regular expression ({error})") from None
            found[f".{suffix}"] = tuple(items)
        return found

    def command(self, text: str, name: str) -> Command:
        try:
            command = parse_command(text)
        except ValueError as error:
            raise self.fail(name, str(error)) from None
        program = command.program
        if program.startswith("/") or ".." in PurePosixPath(program).parts:
            raise self.fail(name, f"`{text}`: the generator {program} must be a path under generators/")
        if program not in self.generators and not (self.root / "generators" / program).exists():
            raise self.fail(name, f"`{text}`: the generator generators/{program} does not exist")
        return command

    def copied(self, value: Any, name: str) -> Path | None:
        if value is None:
            return None
        if not isinstance(value, str) or value.startswith("/") or ".." in PurePosixPath(value).parts:
            raise self.fail(name, f"copy: expected a path under generators/ without extension, got {value!r:.60}")
        base = Path("generators") / value
        found = [suffix for suffix in CASE_FILES if (self.root / f"{base}{suffix}").is_file()]
        if not found:
            raise self.fail(name, f"copy: {value}: no generators/{value}.in (or .ans, ...) to copy")
        return base

    def spelled_out(self, entry: dict, name: str) -> tuple[dict[str, str], dict[str, str]]:
        files, links = {}, {}
        for suffix in CASE_FILES:
            value = entry.get(suffix[1:])
            if value is None:
                continue
            if suffix == ".yaml" and isinstance(value, dict):
                value = yaml.safe_dump(value, sort_keys=False)
            if isinstance(value, dict) and list(value) == ["link"] and suffix in LINKABLE:
                target = f".{value['link']}"
                if target not in CASE_FILES or target.split(".")[1] != suffix.split(".")[1]:
                    raise self.fail(name, f"{suffix[1:]}: link to {value['link']!r}, which it may not repeat")
                links[suffix] = target
            elif isinstance(value, str):
                files[suffix] = value if not value or value.endswith("\n") else value + "\n"
            else:
                raise self.fail(name, f"{suffix[1:]}: expected a string (quote numbers: '1'), got {value!r:.60}")
        return files, links

    def warn_unknown(self, entry: dict, allowed: set[str], where: str) -> None:
        for key in entry:
            if key not in allowed:
                self.warnings.append(f"{self.path.name}: {where}: unknown key {key!r} ignored "
                                     f"(known here: {', '.join(sorted(allowed))})")


def _is_case(value: Any) -> bool:
    return value is None or isinstance(value, str) or (isinstance(value, dict) and any(key in CASE_KEYS for key in value))


def _is_directory(value: Any) -> bool:
    return isinstance(value, dict) and not _is_case(value)


def _numbered(key: str, numbers: Iterator[int], width: int) -> Iterator[str]:
    """BAPCtools' names in a list: the next number, zero padded, then ``-key`` if there is a key."""
    while True:
        number = f"{next(numbers):0{width}}"
        yield f"{number}-{key}" if key else number


def _numbered_cases(entry: dict) -> int:
    """How many test cases the lists of the tree hold (their numbers' width is this count's)."""
    data = entry.get("data")
    items, numbered = ([data], False) if isinstance(data, dict) else (data, True)
    if not isinstance(items, list):
        return 0
    total = 0
    for item in items:
        if not isinstance(item, dict):
            continue
        for value in item.values():
            if _is_case(value) and numbered:
                total += _count_size(value)
            elif _is_directory(value):
                total += _numbered_cases(value)
    return total


def _count_size(value: Any) -> int:
    count = value.get("count", 1) if isinstance(value, dict) else 1
    if isinstance(count, list):
        return len(count)
    if isinstance(count, str) and (found := re.fullmatch(r"(-?\d+)\.\.=(-?\d+)", count)):
        return max(1, int(found[2]) - int(found[1]) + 1)
    return count if isinstance(count, int) and count > 0 else 1
