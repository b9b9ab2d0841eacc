"""``submissions/submissions.yaml`` (2025-09): what each example submission must get, case by case.

Its keys are glob patterns over submission paths under ``submissions/`` (``*`` within one name,
``{a,b}`` alternatives; a pattern naming a directory covers what is inside). Each maps to
``permitted`` (every case's verdict is one of these), ``required`` (some case's verdict is one of
these), ``score`` (a number or an inclusive ``[low, high]``) and ``message`` (a substring of
some case's validator message) — for all cases, or, under a key that is a glob over test data
groups and cases (``secret/group1``, ``sample``), for the cases it covers. The default folders
carry the format's rules (``accepted``: permitted AC; ``wrong_answer``: permitted AC, WA and
required WA; ...); a key that is exactly such a folder's name overrides the keys it sets.
Verdicts are the format's: AC, WA, TLE, RTE (a run-time error, memory or output limit).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judge.formats.icpc.package import Package, PackageError, read_yaml
from judge.model.verdict import AS_PACKAGE_VERDICT, PACKAGE_FOLDER_RULES, PACKAGE_VERDICTS, Verdict

RULES_FILE = "submissions/submissions.yaml"
RULE_KEYS = {"permitted", "required", "score", "message", "use_for_time_limit"}
METADATA_KEYS = {"language", "entrypoint", "authors", "model_solution"}


@dataclass(frozen=True)
class Rule:
    """One requirement on a submission, over the cases ``scope`` covers (None: all of them)."""

    origin: str  # the submissions.yaml key it comes from, for messages
    scope: str | None = None
    permitted: frozenset[str] | None = None
    required: frozenset[str] | None = None
    score: tuple[float, float] | None = None
    message: str | None = None


def load_rules(package: Package) -> dict[str, Any] | None:
    """The package's submissions.yaml as a mapping (None without one); PackageError naming it
    when it is not one."""
    path = package.root / RULES_FILE
    if not path.is_file():
        return None
    content = read_yaml(path) or {}
    if not isinstance(content, dict) or not all(isinstance(value, dict) for value in content.values()):
        raise PackageError(f"{path}: expected a mapping from submission glob patterns to mappings of rules")
    return content


def rules_for(package: Package, content: dict[str, Any], submission: str) -> list[Rule]:
    """Every rule submissions.yaml (with the default folders' rules) puts on ``submission``
    (its path under ``submissions/``, such as ``accepted/fast.py``)."""
    path = package.root / RULES_FILE
    folder = submission.split("/", 1)[0]
    rules = []
    if folder in PACKAGE_FOLDER_RULES:
        settings = {**PACKAGE_FOLDER_RULES[folder], **content.get(folder, {})}
        rules += _rules_of(settings, folder, path)
    for pattern, settings in content.items():
        if pattern == folder and folder in PACKAGE_FOLDER_RULES:
            continue
        if any(glob_matches(pattern, prefix) for prefix in _prefixes(submission)):
            rules += _rules_of(settings, str(pattern), path)
    return rules


def entry_point(package: Package, source: Path) -> str | None:
    """The entry point the package names for its example submission ``source`` (a directory):
    ``entrypoint`` in submissions.yaml, else DOMjudge's ``entry_point`` in submissions.json."""
    submissions, source = package.root / "submissions", source.resolve()
    if not source.is_dir() or not source.is_relative_to(submissions):
        return None
    name = str(source.relative_to(submissions))
    try:
        content = load_rules(package) or {}
    except PackageError:
        content = {}  # judge test names the fault; a run goes on with the usual entry rules
    for pattern, settings in content.items():
        if "entrypoint" in settings and any(glob_matches(pattern, prefix) for prefix in _prefixes(name)):
            return str(settings["entrypoint"])
    listed = package.root / "submissions.json"
    try:
        entries = json.loads(listed.read_text()) if listed.is_file() else {}
        return str(entries[f"submissions/{name}/"]["entry_point"])
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def check_rules(rules: list[Rule], result) -> list[str]:
    """What the judged submission (a runner.SubmissionResult over every case) fails of
    ``rules``: one sentence each, empty when it meets them all."""
    verdicts = {case.name: AS_PACKAGE_VERDICT.get(case.verdict, case.verdict) for case in result.cases}
    messages = {case.name: case.message for case in result.cases}
    # What the format counts as RTE (a memory or output limit) says which, and why.
    own = {case.name: f" ({case.verdict}: {case.message})" if case.verdict in (Verdict.MLE, Verdict.OLE) else ""
           for case in result.cases}
    failures = []
    for rule in rules:
        names = [name for name in verdicts if rule.scope is None or covers(rule.scope, name)]
        where = f" ({rule.origin}" + (f", {rule.scope})" if rule.scope else ")")
        if rule.permitted is not None:
            bad = next((name for name in names if verdicts[name] not in rule.permitted), None)
            if bad is not None:
                failures.append(f"{bad} got {verdicts[bad]}{own[bad]}, not one of the permitted "
                                f"{', '.join(sorted(rule.permitted))}{where}")
        if rule.required is not None and not any(verdicts[name] in rule.required for name in names):
            failures.append(f"no case got one of the required {', '.join(sorted(rule.required))}{where}")
        if rule.score is not None and not rule.score[0] - 1e-9 <= result.score <= rule.score[1] + 1e-9:
            low, high = rule.score
            wanted = f"{low:g}" if low == high else f"in [{low:g}, {high:g}]"
            failures.append(f"score {result.score:g}, not {wanted}{where}")
        if rule.message is not None and not any(rule.message in messages[name] for name in names):
            failures.append(f"no validator message contains {rule.message!r}{where}")
    return failures


def _rules_of(settings: dict, origin: str, path: Path, scope: str | None = None) -> list[Rule]:
    rules = []
    own = {key: value for key, value in settings.items() if key in RULE_KEYS}
    # An opt-in to bound the time limit is a rule too: "lower" never times out, "upper" does.
    bound = own.get("use_for_time_limit")
    said = origin  # a rule that comes of the bound alone says so: its time, not its answer, failed
    if bound == "lower":
        said = origin if "permitted" in own else f"{origin}: use_for_time_limit: lower"
        own.setdefault("permitted", ["AC", "WA", "RTE"])
    elif bound == "upper":
        said = origin if "required" in own else f"{origin}: use_for_time_limit: upper"
        own.setdefault("required", ["TLE"])
    elif bound not in (None, True, False):
        raise PackageError(f"{path}: {origin}: use_for_time_limit must be true, false, lower or upper, got {bound!r:.40}")
    if set(own) - {"use_for_time_limit"}:
        rules.append(Rule(said, scope, _verdicts(own, "permitted", origin, path),
                          _verdicts(own, "required", origin, path), _score(own, origin, path, scope),
                          _message(own, origin, path)))
    for key, value in settings.items():
        if key in RULE_KEYS or key in METADATA_KEYS:
            continue
        if scope is not None or not isinstance(value, dict):
            raise PackageError(f"{path}: {origin}: unknown key {key!r}; a submission's keys are "
                               f"{', '.join(sorted(RULE_KEYS | METADATA_KEYS))} or test group patterns")
        rules += _rules_of(value, origin, path, str(key).strip())
    return rules


def _verdicts(settings: dict, key: str, origin: str, path: Path) -> frozenset[str] | None:
    if key not in settings:
        return None
    values = settings[key]
    if not isinstance(values, list) or not all(value in PACKAGE_VERDICTS for value in values):
        raise PackageError(f"{path}: {origin}: {key} must be a list of {', '.join(PACKAGE_VERDICTS)}, got {values!r:.60}")
    return frozenset(values)


def _score(settings: dict, origin: str, path: Path, scope: str | None) -> tuple[float, float] | None:
    if "score" not in settings:
        return None
    if scope is not None:
        raise PackageError(f"{path}: {origin}: a score for test group {scope!r} is not supported by this judge; "
                           f"give the submission's total score instead")
    value = settings["score"]
    bounds = value if isinstance(value, list) else [value, value]
    if len(bounds) != 2 or not all(isinstance(bound, (int, float)) and not isinstance(bound, bool) for bound in bounds):
        raise PackageError(f"{path}: {origin}: score must be a number or a list [low, high], got {value!r:.60}")
    return float(bounds[0]), float(bounds[1])


def _message(settings: dict, origin: str, path: Path) -> str | None:
    if "message" not in settings:
        return None
    if not isinstance(settings["message"], str):
        raise PackageError(f"{path}: {origin}: message must be a string")
    return settings["message"]


def _prefixes(name: str) -> list[str]:
    """``a/b/c`` -> ``a``, ``a/b``, ``a/b/c``: a pattern naming a parent covers what is inside."""
    parts = name.split("/")
    return ["/".join(parts[:end]) for end in range(1, len(parts) + 1)]


def covers(pattern: str, case: str) -> bool:
    """Whether a test group pattern covers the case ``case`` (itself or a group above it)."""
    return any(glob_matches(pattern, prefix) for prefix in _prefixes(case))


def glob_matches(pattern: str, name: str) -> bool:
    """The format's glob: ``*`` matches within one path component, ``{a,b}`` expands (nested,
    several per pattern, alternatives stripped of spaces); nothing else is special."""
    return any(re.fullmatch(_regex(alternative), name) for alternative in expand_braces(str(pattern)))


def expand_braces(pattern: str) -> list[str]:
    match = re.search(r"\{([^{}]*)\}", pattern)
    if match is None:
        return [pattern]
    return [expanded for option in match.group(1).split(",")
            for expanded in expand_braces(pattern[:match.start()] + option.strip() + pattern[match.end():])]


def _regex(pattern: str) -> str:
    return "".join("[^/]*" if part == "*" else re.escape(part) for part in re.split(r"(\*)", pattern))
