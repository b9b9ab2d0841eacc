"""Loading a problem package: ``problem.yaml``, the ``data/`` tree with its group settings, the
validators and the example submissions, into a ``Problem`` whose ``package`` is a ``Package``.

Every fault of a package is a ``PackageError`` naming the file and what to change.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judge.errors import SuiteError
from judge.formats.icpc import PROBLEM_FILE
from judge.formats.icpc.constants import NO_CONSTANTS, Constants, parse_constants, substitute, substitute_latex
from judge.formats.icpc.standard_headers import STANDARD_HEADERS
from judge.languages.base import cache_key
from judge.model.problem import MIB, Case
from judge.model.vocabulary import Visibility
from judge.sandbox.limits import Limits
from judge.text.latex_text import latex_to_text
from judge.text.yaml_files import read_yaml

LEGACY, V2023, V2025 = "legacy", "2023-07-draft", "2025-09"
# problem_format_version values and the version whose rules they follow.
VERSIONS = {"legacy": LEGACY, "legacy-icpc": LEGACY, "2023-07-draft": V2023, "2023-07": V2023,
            "2023-12-draft": V2025, "2025-09-draft": V2025, "2025-09": V2025, "draft": V2025}
PROBLEM_KEYS = {
    LEGACY: {"problem_format_version", "type", "name", "uuid", "author", "source", "source_url", "license",
             "rights_owner", "limits", "validation", "validator_flags", "grading", "keywords", "languages",
             "libraries"},
    V2023: {"problem_format_version", "type", "name", "uuid", "version", "credits", "source", "license",
            "rights_owner", "embargo_until", "limits", "keywords", "languages", "allow_file_writing", "constants"},
}
PROBLEM_KEYS[V2025] = PROBLEM_KEYS[V2023]
# Metadata keys of one version found in packages of another (the format's own 2025-09 examples
# have source_url): they change nothing judged, so every version takes them.
BORROWED_KEYS = {"author", "source_url"}
LIMIT_KEYS = {
    LEGACY: {"time_multiplier", "time_safety_margin", "memory", "output", "code", "compilation_time",
             "compilation_memory", "validation_time", "validation_memory", "validation_output", "time_limit",
             "validation_passes"},
    V2023: {"time_multipliers", "time_limit", "time_resolution", "memory", "output", "code", "compilation_time",
            "compilation_memory", "validation_time", "validation_memory", "validation_output", "validation_passes"},
}
LIMIT_KEYS[V2025] = LIMIT_KEYS[V2023]
TYPES = {"pass-fail", "scoring", "interactive", "multi-pass", "submit-answer"}
SUPPORTED_TYPES = {"pass-fail", "scoring", "interactive", "multi-pass"}
DEFAULT_VALIDATION_PASSES = 2  # 2025-09, "Multi-pass limit"
# Group settings: testdata.yaml (legacy, 2023-07-draft) and test_group.yaml (2025-09).
LEGACY_GROUP_KEYS = {"on_reject", "grading", "grader_flags", "accept_score", "reject_score", "range",
                     "input_validator_flags", "output_validator_flags"}
GROUP_KEYS = {"max_score", "score_aggregation", "static_validation_score", "require_pass", "args",
              "input_validator_args", "static_validator_args", "output_validator_args", "input_visualizer_args",
              "output_visualizer_args", "full_feedback"}
GROUP_FILES = ("testdata.yaml", "test_group.yaml")
# A case's own <name>.yaml (2025-09): its validators' arguments over its group's.
CASE_KEYS = {"args", "input_validator_args", "output_validator_args", "input_visualizer_args",
             "output_visualizer_args", "full_feedback", "hint", "description"}
DEFAULT_MEMORY_MIB, DEFAULT_OUTPUT_MIB = 1024, 8
# Time multipliers when problem.yaml gives none: (ac_to_time_limit, time_limit_to_tle).
DEFAULT_MULTIPLIERS = {LEGACY: (5.0, 2.0), V2023: (2.0, 1.5), V2025: (2.0, 1.5)}
TIMELIMIT_FILE = ".timelimit"


class PackageError(SuiteError):
    """A problem package is malformed; the message names the file and how to fix it."""


@dataclass(frozen=True)
class CaseFiles:
    """Where one test case's files are, and the arguments its validators get."""

    name: str  # path under data/ without extension, e.g. secret/group1/01
    input_path: Path
    answer_path: Path
    group: str  # the directory under data/ holding it, e.g. secret/group1
    output_validator_args: tuple[str, ...] = ()
    input_validator_args: tuple[str, ...] | dict[str, tuple[str, ...]] = ()
    interaction: Path | None = None


@dataclass
class Group:
    """One directory of ``data/`` with its settings (its own file over its parent's) and its
    children (cases and sub-directories) in lexicographic order."""

    path: str  # "" for data/ itself
    settings: dict[str, Any]  # its own settings over those inherited from its parent
    own: dict[str, Any] = field(default_factory=dict)  # its own file's settings ({} without a file)
    has_file: bool = False
    children: list[tuple[str, str]] = field(default_factory=list)  # ("case" | "group", name)


@dataclass(frozen=True)
class TimeLimits:
    """The package's timing rules (seconds) and where the time limit came from."""

    time_limit: float | None  # from problem.yaml or .timelimit; None = inferred from submissions
    source: str  # "problem.yaml", ".timelimit" or "inferred"
    ac_to_time_limit: float
    time_limit_to_tle: float
    resolution: float = 1.0
    legacy: bool = False  # the legacy format names the two factors otherwise

    @property
    def ac_name(self) -> str:
        """What the package's format calls ac_to_time_limit, for messages."""
        return "time_multiplier" if self.legacy else "ac_to_time_limit"

    @property
    def tle_name(self) -> str:
        """What the package's format calls time_limit_to_tle, for messages."""
        return "time_safety_margin" if self.legacy else "time_limit_to_tle"


@dataclass
class Package:
    """Everything a package has that a built-in problem has not."""

    root: Path
    version: str
    types: frozenset[str]
    names: dict[str, str]
    custom_validation: bool
    timing: TimeLimits
    memory_mib: int
    output_mib: int
    validation_limits: tuple[float, int, int]  # CPU seconds, memory MiB, output MiB
    cases: dict[str, CaseFiles]
    groups: dict[str, Group]
    output_validator: Path | None
    input_validators: list[Path]
    samples: list[str]  # names of the sample cases
    interactions: list[Path]  # sample .interaction files without a case of their own
    # problem.yaml's allow_file_writing (2023-07 on; false by default, and for legacy packages,
    # which have no such key): whether submissions may write files.
    allow_file_writing: bool = False
    # limits.validation_passes: how many times a multi-pass problem's submission may run on a case.
    validation_passes: int = DEFAULT_VALIDATION_PASSES
    # Test data made from generators/generators.yaml (a judge.formats.icpc.generated_data.GeneratedData),
    # or None for the package's own data/; data_pending: they are still to be made (the package
    # was loaded without running programs).
    generated: Any = None
    data_pending: bool = False
    # problem.yaml's constants, as judge/formats/icpc/constants.py substitutes them.
    constants: Constants = field(default_factory=dict)
    # The custom grader (legacy format, "Graders"): the one program in graders/, or None.
    grader: Path | None = None

    @property
    def custom_graded(self) -> list[str]:
        """The groups whose result the custom grader gives (``grading: custom``, inherited)."""
        return [name for name, group in self.groups.items() if group.settings.get("grading") == "custom"]

    @property
    def one_right_output(self) -> bool:
        """Whether each answer file is the only right output, but for spacing and letter case: the
        default output validator without a float tolerance judges every case (see
        ``Problem.one_right_output``)."""
        return self.output_validator is None and not any(
            "float" in argument for case in self.cases.values() for argument in case.output_validator_args)

    @property
    def data_dir(self) -> Path:
        """Where the cases' files are: data/, or the folder generated from generators.yaml."""
        return self.generated.folder if self.generated is not None else self.root / "data"

    @property
    def interactive(self) -> bool:
        return "interactive" in self.types

    @property
    def multi_pass(self) -> bool:
        return "multi-pass" in self.types

    def validator_limits(self) -> Limits:
        """What the package's own validators run with: problem.yaml's validation limits, many
        processes, and no limit on address space or stack (a memory limit still applies)."""
        cpu, memory, output = self.validation_limits
        return Limits(cpu_time=cpu, wall_time=cpu * 2 + 5, memory=memory * MIB, output=output * MIB,
                      processes=256, limit_address_space=False, stack=None)

    @property
    def scoring(self) -> bool:
        return "scoring" in self.types

    @property
    def samples_only(self) -> bool:
        """No secret cases: judged on the samples (DOMjudge's example problems are such)."""
        return len(self.samples) == len(self.cases)

    @property
    def name(self) -> str:
        return self.names.get("en") or next(iter(self.names.values()), self.root.name)


def arguments_for(arguments: tuple[str, ...] | dict[str, tuple[str, ...]], validator: Path) -> tuple[str, ...]:
    """The arguments one input validator gets: all of them, or, given by validator, its own."""
    if isinstance(arguments, dict):
        return arguments.get(validator.stem, arguments.get(validator.name, ()))
    return arguments


def example_data_settings(package: Package, path: Path) -> dict[str, Any]:
    """The settings of a file of example data (under data/invalid_input, valid_output, ...): as
    a test case's, its directories' ``test_group.yaml`` (the nearest wins), then its own
    ``tc.yaml`` (2025-09, "Invalid input", "Valid output")."""
    reader = _DataReader(package.root, package.version, (), {}, package.data_dir, constants=package.constants)
    settings: dict[str, Any] = {}
    directory = package.data_dir
    for part in path.parent.relative_to(package.data_dir).parts:
        settings.update(reader.own_settings(directory))
        directory /= part
    settings.update(reader.own_settings(directory))
    settings.update(reader.case_settings(path.with_suffix(".yaml")))
    return settings


def invalid_input_arguments(package: Package, input_path: Path) -> tuple[str, ...] | dict[str, tuple[str, ...]]:
    """The ``input_validator_args`` of an input under data/invalid_input."""
    return _input_validator_args(example_data_settings(package, input_path), str(input_path.parent))


def example_output_arguments(package: Package, input_path: Path) -> tuple[str, ...]:
    """The output validator's arguments for an example under data/invalid_output or valid_output."""
    settings, where = example_data_settings(package, input_path), str(input_path.parent)
    return split_args(settings.get("output_validator_flags"), where) + \
        split_args(settings.get("output_validator_args"), where)


def _input_validator_args(settings: dict, where: str) -> tuple[str, ...] | dict[str, tuple[str, ...]]:
    arguments = settings.get("input_validator_args", settings.get("input_validator_flags"))
    if isinstance(arguments, dict):
        return {str(key): split_args(value, where) for key, value in arguments.items()}
    return split_args(arguments, where)


# ---------------------------------------------------------------------------------------------

def read_package(root: Path, generated: Path | None = None) -> Package:
    """The package at ``root`` as read from its files (``generated``: the folder its generated
    data were made in, see judge/formats/icpc/generated_data.py), before anything of it is run."""
    root = root.resolve()
    check_symlinks(root)
    metadata = read_yaml(root / PROBLEM_FILE) or {}
    if not isinstance(metadata, dict):
        raise PackageError(f"{root / PROBLEM_FILE}: expected a mapping of keys (name, type, limits, ...)")
    return _Reader(root, metadata).package(generated)


def package_cases(package: Package):
    """The cases in judging order (lexicographic through the tree), as ``Case`` values."""
    for name in ordered_case_names(package):
        files = package.cases[name]
        yield Case(name=name, input=files.input_path.read_text(encoding="utf-8", errors="replace"),
                   expected=files.answer_path.read_text(encoding="utf-8", errors="replace"),
                   group=files.group, visibility=Visibility.SAMPLE if name.startswith("sample/") else Visibility.HIDDEN,
                   origin=str(Path("data") / files.input_path.relative_to(package.data_dir)),
                   hint=_case_note(files, ".hint"), description=_case_note(files, ".desc"))


def _case_note(files: CaseFiles, suffix: str) -> str:
    """A case's ``.hint`` (for the contestant) or ``.desc`` (what the case is for) file, beside its
    ``.in``; "" without one. It may be a link to another file of the package (check_symlinks)."""
    path = files.input_path.with_suffix(suffix)
    if not path.is_file():
        return ""
    return path.read_text(encoding="utf-8", errors="replace").strip()


def ordered_case_names(package: Package, group: str = "") -> list[str]:
    names = []
    for kind, name in package.groups[group].children:
        names += [name] if kind == "case" else ordered_case_names(package, name)
    return names


def statement_text(root: Path, constants: Constants = NO_CONSTANTS) -> str:
    """The English (or first) statement's text, its constants substituted: Markdown as written,
    LaTeX made readable."""
    for folder in STATEMENT_FOLDERS:
        candidates = sorted((root / folder).glob("problem.*")) if (root / folder).is_dir() else []
        texts = [path for path in candidates if path.suffix in (".md", ".tex")]
        english = [path for path in texts if ".en." in path.name or path.name in ("problem.md", "problem.tex")]
        for path in english or texts:
            text = path.read_text(encoding="utf-8", errors="replace")
            if path.suffix == ".tex":
                return latex_to_text(substitute_latex(text, constants))
            return substitute(text, constants)
    return ""


@functools.lru_cache(maxsize=32)
def _hash_of_tree(root: Path, stamp: tuple) -> str:
    parts: list[bytes | str] = []
    for path in _judged_files(root):
        parts += [str(path.relative_to(root)), path.read_bytes()]
    return cache_key("icpc-package", *parts)


# The folders whose files the judge reads: results depend on all but the statements.
JUDGED_FOLDERS = ("data", "submissions", "input_validators", "input_format_validators", "output_validator",
                  "output_validators", "include", "generators", "graders", "answer_validators",
                  "answer_format_validators")
STATEMENT_FOLDERS = ("statement", "problem_statement")


def _judged_files(root: Path) -> list[Path]:
    """The files results depend on: problem.yaml, .timelimit, data, validators and submissions."""
    found = [root / name for name in (PROBLEM_FILE, TIMELIMIT_FILE) if (root / name).is_file()]
    return found + files_under(root, JUDGED_FOLDERS)


def files_under(root: Path, folders: tuple[str, ...]) -> list[Path]:
    """The files in these folders of ``root`` (and theirs), folder by folder, in sorted order."""
    found: list[Path] = []
    for folder in folders:
        found += sorted(path for path in (root / folder).rglob("*") if path.is_file())
    return found


def package_hash(root: Path, *extra: object) -> str:
    """A key of the package's content (hashed again only when a file changes) and ``extra``."""
    stamp = tuple((str(path), path.stat().st_mtime_ns, path.stat().st_size) for path in _judged_files(root))
    return _hash_of_tree(root, stamp) + "".join(f"-{item}" for item in extra)


def check_symlinks(root: Path) -> None:
    """Refuse a package with a symbolic link that leads outside it (or nowhere) where the judge
    reads files; links elsewhere (a statement PDF, attachments, ...) are left alone. A link
    inside the package is a file of the package: the judge reads through it (an example
    submission linking to another, a validator's header shared with the generators). A link to
    a folder of the package is walked too, wherever it leads, for the links it holds."""
    folders = [root / folder for folder in (*JUDGED_FOLDERS, *STATEMENT_FOLDERS)]
    for path in [root / PROBLEM_FILE, root / TIMELIMIT_FILE, *folders]:
        _check_link(root, path)  # a folder first: one linked elsewhere is never walked
    walked: set[Path] = set()
    while folders:
        folder = folders.pop()
        if folder.resolve() in walked:
            continue
        walked.add(folder.resolve())
        for path in sorted(folder.rglob("*")):
            _check_link(root, path)
            if path.is_symlink() and path.is_dir():
                folders.append(path.resolve())


def _check_link(root: Path, path: Path) -> None:
    if path.is_symlink() and path.name in STANDARD_HEADERS:
        return  # to the tool's own copy, mostly: never read outside the package, the judge supplies it
    if path.is_symlink():
        target = path.resolve()
        if not target.is_relative_to(root):
            raise PackageError(f"{path}: symbolic link to {target}, outside the package; "
                               f"copy the file into the package instead")
        if not target.exists():
            raise PackageError(f"{path}: symbolic link to {target}, which does not exist")


def split_args(value: Any, where: str) -> tuple[str, ...]:
    """Validator arguments given as a string (legacy flags) or a sequence of strings."""
    if value is None:
        return ()
    if isinstance(value, str):
        return tuple(value.split())
    if isinstance(value, list) and all(isinstance(item, (str, int, float)) for item in value):
        return tuple(str(item) for item in value)
    raise PackageError(f"{where}: expected a string or a list of strings, got {value!r:.60}")


# ---------------------------------------------------------------------------------------------

class _Reader:
    def __init__(self, root: Path, metadata: dict) -> None:
        self.root = root
        self.metadata = metadata
        self.yaml_path = root / PROBLEM_FILE

    def fail(self, message: str) -> PackageError:
        return PackageError(f"{self.yaml_path}: {message}")

    def package(self, generated: Any = None) -> Package:
        """The package, its cases read from data/ or, given, from the ``generated`` data (see
        judge.formats.icpc.generated_data); data_pending when generators.yaml has yet to make them."""
        version = self.version()
        self.check_keys(self.metadata, PROBLEM_KEYS[version] | BORROWED_KEYS, "")
        types, custom = self.types(version)
        limits = self.metadata.get("limits") or {}
        if not isinstance(limits, dict):
            raise self.fail(f"'limits' must be a mapping, got {limits!r:.60}")
        self.check_keys(limits, LIMIT_KEYS[version], "limits.")
        legacy_flags = split_args(self.metadata.get("validator_flags"), f"{self.yaml_path}: validator_flags")
        pending = generated is None and _to_generate(self.root)
        constants = self.constants()
        data = _DataReader(self.root, version, legacy_flags, self.legacy_grading(),
                           generated.folder if generated is not None else None, pending, constants)
        cases, groups = data.read()
        if not pending:
            data.check_secret("scoring" in types)
            data.check_required_groups()
        grader = self.grader(version, groups)
        # Only a package's own validator can write nextpass.in, or talk to a submission.
        output_validator = self.output_validator(custom or bool({"interactive", "multi-pass"} & types))
        return Package(
            root=self.root, version=version, types=frozenset(types), names=self.names(), custom_validation=custom,
            timing=self.timing(version, limits), memory_mib=self.mib(limits, "memory", DEFAULT_MEMORY_MIB),
            output_mib=self.mib(limits, "output", DEFAULT_OUTPUT_MIB),
            validation_limits=(self.number(limits, "validation_time", 60),
                               self.mib(limits, "validation_memory", DEFAULT_MEMORY_MIB),
                               self.mib(limits, "validation_output", DEFAULT_OUTPUT_MIB)),
            cases=cases, groups=groups, output_validator=output_validator,
            input_validators=self.programs_in("input_validators", "input_format_validators"),
            samples=[name for name in cases if name.startswith("sample/")],
            allow_file_writing=self.flag("allow_file_writing"), validation_passes=self.passes(limits),
            generated=generated, data_pending=pending, constants=constants, grader=grader,
            interactions=sorted(path for path in data.interactions if path.parent.name == "sample"))

    def constants(self) -> dict[str, str]:
        try:
            return parse_constants(self.metadata.get("constants"))
        except ValueError as error:
            raise self.fail(str(error)) from None

    def version(self) -> str:
        declared = str(self.metadata.get("problem_format_version", "legacy"))
        if declared not in VERSIONS:
            raise self.fail(f"problem_format_version {declared!r} is not one this judge reads; "
                            f"use one of {', '.join(VERSIONS)}")
        return VERSIONS[declared]

    def check_keys(self, data: dict, allowed: set[str], prefix: str) -> None:
        for key in data:
            if key not in allowed:
                raise self.fail(f"unknown key '{prefix}{key}'; the keys this format version allows are: "
                                f"{', '.join(sorted(allowed))}")

    def types(self, version: str) -> tuple[set[str], bool]:
        """The problem's types, and whether its output is checked by its own validator."""
        declared = self.metadata.get("type", "pass-fail")
        values = [declared] if isinstance(declared, str) else declared
        if not isinstance(values, list) or not values or not all(isinstance(value, str) for value in values):
            raise self.fail(f"'type' must be a string or a list of strings, got {declared!r:.60}")
        types = {part for value in values for part in value.split()}
        for value in types - TYPES:
            raise self.fail(f"unknown type {value!r}; use {', '.join(sorted(TYPES))}")
        custom = any((self.root / folder).is_dir() for folder in ("output_validator", "output_validators"))
        validation = str(self.metadata.get("validation", "default")).split()
        if version == LEGACY:
            if validation[0] not in ("default", "custom"):
                raise self.fail(f"'validation' must be 'default' or 'custom [interactive] [multi-pass] [score]', "
                                f"got {validation!r}")
            custom = validation[0] == "custom"
            types |= {part for part in validation[1:] if part in ("interactive", "multi-pass")}
        for value in types - SUPPORTED_TYPES:
            raise self.fail(f"type {value!r} is not supported by this judge (it runs pass-fail, scoring, "
                            f"interactive and multi-pass problems)")
        return types or {"pass-fail"}, custom

    def legacy_grading(self) -> dict[str, Any]:
        """Group settings a legacy problem.yaml's ``grading`` imposes on every group (as
        problemtools applies them: over the groups' own files)."""
        grading = self.metadata.get("grading") or {}
        if not isinstance(grading, dict):
            raise self.fail(f"'grading' must be a mapping, got {grading!r:.60}")
        self.check_keys(grading, {"objective", "show_test_data_groups", "accept_score", "reject_score", "range",
                                  "on_reject"}, "grading.")
        imposed = {key: grading[key] for key in ("accept_score", "reject_score", "range") if key in grading}
        on_reject = {"first_error": "break", "grade": "continue", "worst_error": None}
        if grading.get("on_reject") in on_reject and on_reject[grading["on_reject"]]:
            imposed["on_reject"] = on_reject[grading["on_reject"]]
        return imposed

    def names(self) -> dict[str, str]:
        name = self.metadata.get("name")
        if name is None:
            return {"en": self.root.name}
        if isinstance(name, str):
            return {"en": name}
        if isinstance(name, dict) and all(isinstance(value, str) for value in name.values()):
            return {str(key): value for key, value in name.items()}
        raise self.fail(f"'name' must be a string or a map from language codes to names, got {name!r:.60}")

    def number(self, limits: dict, key: str, default: float) -> float:
        value = limits.get(key, default)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            raise self.fail(f"'limits.{key}' must be a positive number, got {value!r:.60}")
        return float(value)

    def passes(self, limits: dict) -> int:
        """limits.validation_passes: an integer of at least 2 (a problem that is not multi-pass
        never reads it: BAPCtools too only warns about one there)."""
        value = limits.get("validation_passes", DEFAULT_VALIDATION_PASSES)
        if isinstance(value, bool) or not isinstance(value, int) or value < 2:
            raise self.fail(f"'limits.validation_passes' must be an integer of at least 2 (the passes a "
                            f"multi-pass problem's submission may run on a case), got {value!r:.60}")
        return value

    def mib(self, limits: dict, key: str, default: int) -> int:
        return int(self.number(limits, key, default))

    def flag(self, key: str) -> bool:
        """A true/false key of problem.yaml, false when absent."""
        value = self.metadata.get(key, False)
        if not isinstance(value, bool):
            raise self.fail(f"'{key}' must be true or false, got {value!r:.60}")
        return value

    def timing(self, version: str, limits: dict) -> TimeLimits:
        ac_factor, tle_factor = DEFAULT_MULTIPLIERS[version]
        if version == LEGACY:
            ac_factor = self.number(limits, "time_multiplier", ac_factor)
            tle_factor = self.number(limits, "time_safety_margin", tle_factor)
        else:
            multipliers = limits.get("time_multipliers") or {}
            if not isinstance(multipliers, dict):
                raise self.fail("'limits.time_multipliers' must be a mapping")
            self.check_keys(multipliers, {"ac_to_time_limit", "time_limit_to_tle"}, "limits.time_multipliers.")
            ac_factor = self.number(multipliers, "ac_to_time_limit", ac_factor)
            tle_factor = self.number(multipliers, "time_limit_to_tle", tle_factor)
        resolution = self.number(limits, "time_resolution", 1.0)
        factors = {"ac_to_time_limit": ac_factor, "time_limit_to_tle": tle_factor, "resolution": resolution,
                   "legacy": version == LEGACY}
        if "time_limit" in limits:
            return TimeLimits(self.number(limits, "time_limit", 1), PROBLEM_FILE, **factors)
        timelimit_file = self.root / TIMELIMIT_FILE
        if timelimit_file.is_file():
            text = timelimit_file.read_text(encoding="utf-8", errors="replace").strip()
            try:
                seconds = float(text)
            except ValueError:
                seconds = -1.0
            if not seconds > 0 or math.isinf(seconds):
                raise PackageError(f"{timelimit_file}: expected a positive number of seconds, got {text!r:.40}")
            return TimeLimits(seconds, TIMELIMIT_FILE, **factors)
        return TimeLimits(None, "inferred", **factors)

    def output_validator(self, custom: bool) -> Path | None:
        """The custom output validator (a file or a directory program), when the problem has one."""
        programs = self.programs_in("output_validator", "output_validators")
        if (self.root / "output_validator").is_dir() and not programs:
            # 2023-07 and later: output_validator/ is itself the program directory.
            programs = [self.root / "output_validator"]
        if not custom:
            return None
        if not programs:
            raise self.fail("the problem asks for a custom output validator, but output_validator/ "
                            "(or output_validators/) holds no program")
        if len(programs) > 1:
            names = ", ".join(str(path.relative_to(self.root)) for path in programs)
            raise PackageError(f"{self.root}: more than one output validator ({names}); keep one")
        return programs[0]

    def grader(self, version: str, groups: dict[str, Group]) -> Path | None:
        """The custom grader in graders/ (at most one), which a group's ``grading: custom`` asks
        for; PackageError for a group that asks for one the package does not have."""
        programs = self.programs_in("graders")
        if len(programs) > 1:
            names = ", ".join(str(path.relative_to(self.root)) for path in programs)
            raise PackageError(f"{self.root / 'graders'}: more than one custom grader ({names}); keep one")
        for name, group in groups.items():
            if group.own.get("grading") != "custom":
                continue
            where = self.root / "data" / name / ("test_group.yaml" if version == V2025 else "testdata.yaml")
            if version == V2025:
                raise PackageError(f"{where}: grading: custom: the 2025-09 format has no custom graders; "
                                   f"give the group's score_aggregation instead")
            if not programs:
                raise PackageError(f"{where}: grading: custom, but graders/ holds no program; add the grader "
                                   f"(graders/grader.py, say), or use grading: default and grader_flags")
        return programs[0] if programs else None

    def programs_in(self, *folders: str) -> list[Path]:
        """The programs (files, or directories of files) directly inside the first folder that exists."""
        for folder in folders:
            directory = self.root / folder
            if directory.is_dir():
                entries = sorted(path for path in directory.iterdir() if not path.name.startswith("."))
                if folder == "output_validator" and any(path.is_file() for path in entries):
                    return [directory]  # the folder itself is one program
                return entries
        return []


def _to_generate(root: Path) -> bool:
    """Whether the test data are generators.yaml's to make: it is there and data/secret has no case."""
    secret = root / "data" / "secret"
    return (root / "generators" / "generators.yaml").is_file() and not any(secret.rglob("*.in"))


class _DataReader:
    """Reads ``data/`` (or the data generated from generators.yaml): cases, group settings
    (inherited down the tree), sample interactions."""

    def __init__(self, root: Path, version: str, legacy_flags: tuple[str, ...], imposed: dict[str, Any],
                 data: Path | None = None, pending: bool = False, constants: Constants = NO_CONSTANTS) -> None:
        self.root = root
        self.data = data or root / "data"
        self.generated = data is not None
        self.pending = pending  # data to be generated: read what data/ has (samples, say), if anything
        self.version = version
        self.legacy_flags = legacy_flags
        self.imposed = imposed  # settings over every group's own (legacy grading)
        self.constants = constants  # substituted in test_group.yaml files
        self.cases: dict[str, CaseFiles] = {}
        self.groups: dict[str, Group] = {}
        self.interactions: list[Path] = []

    def read(self) -> tuple[dict[str, CaseFiles], dict[str, Group]]:
        if self.pending and not self.data.is_dir():
            self.groups[""] = Group("", dict(self.imposed))
            return self.cases, self.groups
        if not self.data.is_dir():
            raise PackageError(f"{self.root}: no data/ directory; test cases go in data/sample and data/secret"
                               + self.generator_hint())
        self.read_group(self.data, "", {})
        return self.cases, self.groups

    def check_secret(self, scoring: bool) -> None:
        """Without secret cases a package is judged on its samples, as DOMjudge and problemtools
        do (a scoring one too: `judge test` then checks no score) — unless it has none either, or
        its data are yet to be generated (by gen.sh; generators.yaml that make a scoring problem
        no secret case are refused)."""
        if any(name.startswith("secret/") for name in self.cases):
            return
        if self.generated and (scoring or not self.cases):
            raise PackageError(f"{self.root / 'generators' / 'generators.yaml'}: it makes no test case in secret; "
                               f"add some under its data: secret: (or .in/.ans pairs in data/secret)")
        if not self.cases or self.generator_hint():
            raise PackageError(f"{self.data / 'secret'}: no test cases; add .in/.ans pairs" + self.generator_hint())

    def check_required_groups(self) -> None:
        """Each group a ``require_pass`` names exists: one that does not would be passed by no
        case, and so by every submission (a name mistyped, or BAPCtools' numbered ``1-small``)."""
        for group in self.groups.values():
            required = group.own.get("require_pass")
            names = [required] if isinstance(required, str) else list(required or [])
            unknown = [str(name) for name in names if str(name) not in self.groups or not str(name)]
            if unknown:
                where = (f"{self.root / 'generators' / 'generators.yaml'} (test_group.yaml of {group.path})"
                         if self.generated else self.data / group.path / "test_group.yaml")
                known = ", ".join(sorted(name for name in self.groups if name))
                raise PackageError(f"{where}: require_pass names {', '.join(unknown)}, which is no test data group "
                                   f"here; the groups are: {known}")

    def generator_hint(self) -> str:
        """What to do when the test data are to be made by testdata_tools' gen.sh, which this
        judge does not run (BAPCtools' generators.yaml it runs)."""
        script = self.root / "generators" / "gen.sh"
        if script.is_file():
            return (f" ({script.relative_to(self.root)} makes them with Kattis' testdata_tools, which this judge does "
                    f"not run: generate the data first, `cd {self.root / 'generators'} && ./gen.sh` with "
                    f"testdata_tools installed, then run the judge again)")
        return ""

    def read_group(self, directory: Path, name: str, inherited: dict) -> None:
        own = self.own_settings(directory)
        group = Group(name, {**inherited, **own, **self.imposed}, own,
                      any((directory / file).is_file() for file in GROUP_FILES))
        settings = group.settings
        self.groups[name] = group
        entries: dict[str, tuple[str, Path]] = {}
        for path in directory.iterdir():
            if path.is_dir():
                if name or path.name in ("sample", "secret"):
                    entries[path.name] = ("group", path)
            elif path.suffix == ".in":
                entries[path.stem] = ("case", path)
            elif path.suffix == ".ans" and not path.with_suffix(".in").exists():
                raise PackageError(f"{path}: answer file without an input file {path.with_suffix('.in').name}")
            elif path.suffix == ".interaction" and not path.with_suffix(".in").exists():
                self.interactions.append(path)  # shown by `judge show`; judged only with .in/.ans
        for key in sorted(entries):
            kind, path = entries[key]
            child = f"{name}/{key}" if name else key
            if kind == "group":
                self.read_group(path, child, settings)
            else:
                self.add_case(path, child, name, settings)
            group.children.append((kind, child))

    def own_settings(self, directory: Path) -> dict:
        for file_name in GROUP_FILES:
            path = directory / file_name
            if path.is_file():
                settings = read_yaml(path, lambda text: substitute(text, self.constants)) or {}
                if not isinstance(settings, dict):
                    raise PackageError(f"{path}: expected a mapping of settings")
                for key in settings:
                    if key not in LEGACY_GROUP_KEYS | GROUP_KEYS:
                        allowed = ", ".join(sorted(LEGACY_GROUP_KEYS | GROUP_KEYS))
                        raise PackageError(f"{path}: unknown key '{key}'; the keys allowed are: {allowed}")
                self.check_settings(path, settings)
                return settings
        return {}

    def check_settings(self, path: Path, settings: dict) -> None:
        if "on_reject" in settings and settings["on_reject"] not in ("break", "continue"):
            raise PackageError(f"{path}: on_reject must be break or continue, got {settings['on_reject']!r}")
        if "score_aggregation" in settings and settings["score_aggregation"] not in ("pass-fail", "sum", "min"):
            raise PackageError(f"{path}: score_aggregation must be pass-fail, sum or min, "
                               f"got {settings['score_aggregation']!r}")
        if "range" in settings and not re.fullmatch(r"\s*\S+\s+\S+\s*", str(settings["range"])):
            raise PackageError(f"{path}: range must be two numbers 'low high', got {settings['range']!r}")
        if "static_validation_score" in settings:  # a test case of its own, scored: leaving it out changes scores
            raise PackageError(f"{path}: static_validation_score: static validation (2025-09, \"Static validator\") "
                               f"is not supported, so the score it adds cannot be given; remove the key to judge "
                               f"the package without it")
        if "grading" in settings and settings["grading"] not in ("default", "custom"):
            raise PackageError(f"{path}: grading must be default (grader_flags choose how) or custom (the "
                               f"program in graders/), got {settings['grading']!r}")

    def case_settings(self, path: Path) -> dict:
        """A case's own settings file, if it has one; PackageError naming an unknown key."""
        if not path.is_file() or path.name in GROUP_FILES:
            return {}
        settings = read_yaml(path) or {}
        if not isinstance(settings, dict):
            raise PackageError(f"{path}: expected a mapping of settings")
        for key in settings:
            if key not in CASE_KEYS:
                raise PackageError(f"{path}: unknown key '{key}'; a case's settings may be: {', '.join(sorted(CASE_KEYS))}")
        if "output_validator_args" in settings:  # the case's own replace its group's
            settings["output_validator_flags"] = None
        return settings

    def add_case(self, input_path: Path, name: str, group: str, settings: dict) -> None:
        answer = input_path.with_suffix(".ans")
        if not answer.is_file():
            raise PackageError(f"{input_path}: no answer file {answer.name}; every .in needs its .ans")
        where = f"{self.data / group}"
        settings = {**settings, **self.case_settings(input_path.with_suffix(".yaml"))}
        output_args = split_args(settings.get("output_validator_flags"), where) + \
            split_args(settings.get("output_validator_args"), where)
        input_args = _input_validator_args(settings, where)
        interaction = input_path.with_suffix(".interaction")
        self.cases[name] = CaseFiles(name, input_path, answer, group, self.legacy_flags + output_args, input_args,
                                     interaction if interaction.is_file() else None)
