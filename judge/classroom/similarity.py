"""Similarity across a class: for each problem, every pair of students' submissions compared
by copydetect, which fingerprints token streams with MOSS's winnowing (names are replaced by
their kind before hashing, so renamed variables and moved functions do not hide a copy).

Everything runs on this machine: no code is sent anywhere. What a problem gives every student
(its reference solver, its example solutions, a function-style starter) is boilerplate:
passages found in it are not counted as shared between two students.

The work is bounded by what it costs, not by file size: each file is read, lexed and
fingerprinted once (the problem's own solutions once per problem), in a worker process under a
budget of CPU time and memory per file (judge/classroom/budget_worker.py); a file over it is not compared,
and the report says why.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path

from judge.classroom.budget_worker import Budget, BudgetedWorker, CallFailed
from judge.classroom.fingerprints import GUARANTEE_TOKENS, SourcePrints, copydetect_functions, fingerprint_source
from judge.classroom.grading import Entry, discover
from judge.errors import SuiteError
from judge.formats import ProblemSource
from judge.languages.base import read_source
from judge.model.problem import Problem

# A submission or boilerplate file larger than this is not a hand-written solution: left out.
LARGEST_SOURCE = 512 * 1024
DEFAULT_THRESHOLD = 0.5
DEFAULT_BUDGET = Budget(cpu_seconds=10.0, memory_bytes=1 << 30)  # per file: a hand-written solution takes well under a second
EXAMPLE_SHARE = 0.8  # of a submission found in one of the judge's own solutions: it is a copy of that
# ... and shared passages this long at least: a two-line program is like every other one that solves it so.
EXAMPLE_TOKENS = 2 * GUARANTEE_TOKENS
EXAMPLE_PREFIX = "(the judge's own "  # the name of a pair's side that is the problem's reference or example solution


@dataclass(frozen=True)
class Source:
    """A student's submission as text: a file, or a folder's text files joined in name order."""

    student: str
    name: str  # for showing, and for the lexer (its extension)
    text: str


@dataclass
class Pair:
    """Two students' submissions to one problem and what they share."""

    problem: str
    a: Source
    b: Source
    a_share: float  # the fraction of a's fingerprinted tokens found in b
    b_share: float
    tokens: int  # tokens in the shared passages
    a_spans: list[tuple[int, int]] = field(default_factory=list)  # (start, end) character offsets in a.text
    b_spans: list[tuple[int, int]] = field(default_factory=list)

    @property
    def score(self) -> float:
        """The larger share: a short program copied whole into a longer one is still a copy."""
        return max(self.a_share, self.b_share)


@dataclass
class SimilarityReport:
    pairs: list[Pair]  # highest score first, those at or above the threshold
    threshold: float
    compared: dict[str, int]  # problem -> number of submissions compared
    notes: list[str]  # submissions left out, and why


def compare_class(folder: Path, sources: dict[str, ProblemSource], threshold: float = DEFAULT_THRESHOLD,
                  only: list[str] | None = None, budget: Budget = DEFAULT_BUDGET) -> SimilarityReport:
    """Every pair of submissions in ``folder`` (laid out as `judge grade` reads it) to each
    problem of ``sources`` that was submitted (or to those in ``only``), scored; pairs below
    ``threshold`` are left out. Each file is fingerprinted within ``budget``."""
    found = discover(folder, list(sources))
    wanted = sorted({entry.problem for entry in found.entries} & set(only or sources))
    notes = [str(item) for item in found.skipped if item.problem in wanted]
    pairs, compared = [], {}
    with BudgetedWorker(budget) as worker:
        for problem_id in wanted:
            examples = _boilerplate_prints(worker, problem_id, sources[problem_id], notes)
            ignored = tuple(sorted(frozenset().union(*(prints.every_kgram for _, prints in examples))))
            submitted = []
            for entry in (entry for entry in found.entries if entry.problem == problem_id):
                source, why_not = comparable_source(entry)
                prints = None
                if source is not None:
                    prints, why_not = _fingerprinted(worker, source, ignored=ignored)
                if prints is None:
                    notes.append(f"{entry.student}/{entry.path.name}: {why_not}")
                else:
                    submitted.append((source, prints))
            compared[problem_id] = len(submitted)
            pairs += compare_sources(problem_id, submitted)
            pairs += example_copies(problem_id, submitted, examples)
    pairs = [pair for pair in pairs if pair.score >= threshold]
    pairs.sort(key=lambda pair: (-pair.score, pair.problem, pair.a.student, pair.b.student))
    return SimilarityReport(pairs, threshold, compared, notes)


def _boilerplate_prints(worker: BudgetedWorker, problem_id: str, problem_source: ProblemSource,
                        notes: list[str]) -> list[tuple[Source, SourcePrints]]:
    """The problem's own solutions, each fingerprinted once; those that cannot be, noted."""
    try:
        boilerplate = boilerplate_of(problem_source.load())
    except SuiteError as error:
        notes.append(f"{problem_id}: its reference and example solutions are not left out ({error})")
        return []
    prints = []
    for source in boilerplate:
        made, why_not = _fingerprinted(worker, source, every_kgram=True)
        if made is None:
            notes.append(f"{problem_id}: {source.name} is not left out: {why_not}")
        else:
            prints.append((source, made))
    return prints


def _fingerprinted(worker: BudgetedWorker, source: Source, ignored: tuple[int, ...] | None = None,
                   every_kgram: bool = False) -> tuple[SourcePrints | None, str]:
    """The source's fingerprints, made within the worker's budget; or None and why not."""
    try:
        return worker.call(fingerprint_source, source.name, source.text, ignored, every_kgram), ""
    except CallFailed as failure:
        return None, f"not compared: {failure.reason}"


def compare_sources(problem_id: str, sources: list[tuple[Source, SourcePrints]]) -> list[Pair]:
    """Each pair of ``sources`` compared, passages of the boilerplate ignored."""
    _, compare_files = copydetect_functions()
    pairs = []
    for (a, a_prints), (b, b_prints) in combinations(sources, 2):
        tokens, (a_share, b_share), (a_slices, b_slices) = compare_files(a_prints.among_students,
                                                                         b_prints.among_students)
        pairs.append(Pair(problem_id, a, b, float(a_share), float(b_share), int(tokens),
                          _spans(a_slices), _spans(b_slices)))
    return pairs


def example_copies(problem_id: str, sources: list[tuple[Source, SourcePrints]],
                   examples: list[tuple[Source, SourcePrints]]) -> list[Pair]:
    """Each submission compared with each of the judge's own solutions in its language (its
    reference, its example solutions): the passages ignored between students are what a copy of
    one of those is made of, so a submission that is one would otherwise show nothing. Only a
    submission mostly made of one (EXAMPLE_SHARE of it, EXAMPLE_TOKENS at least) is paired with
    it: short programs of one language share their idioms (reading input, printing) with any other."""
    _, compare_files = copydetect_functions()
    pairs = []
    for example, example_prints in examples:
        for source, prints in sources:
            if Path(source.name).suffix != Path(example.name).suffix:
                continue
            tokens, (a_share, b_share), (a_slices, b_slices) = compare_files(prints.whole, example_prints.whole)
            pair = Pair(problem_id, source, example, float(a_share), float(b_share), int(tokens),
                        _spans(a_slices), _spans(b_slices))
            if pair.a_share >= EXAMPLE_SHARE and pair.tokens >= EXAMPLE_TOKENS:
                pairs.append(pair)
    return pairs


def _spans(slices) -> list[tuple[int, int]]:
    """copydetect's slices (a row of starts over a row of ends) as (start, end) pairs."""
    if len(slices) == 0:
        return []
    return [(int(start), int(end)) for start, end in zip(slices[0], slices[1])]


def boilerplate_of(problem: Problem) -> list[Source]:
    """What every student of ``problem`` is given or may have seen from the judge: its reference
    solver and example solutions."""
    paths = [problem.reference_path] if problem.reference_path else []
    paths += [path for path, _ in problem.example_solutions()]
    sources = []
    for path in paths:
        text = _read_text(path)
        if text is not None:  # named for the reports, where it is one side of a pair
            sources.append(Source(f"{EXAMPLE_PREFIX}{path.name})", path.name, text))
    return sources


def comparable_source(entry: Entry) -> tuple[Source | None, str]:
    """The submission of ``entry`` as text, or None and why not."""
    path = entry.path
    if path.is_file():
        text = _read_text(path)
        if text is None:
            return None, f"not compared: not a text file of at most {LARGEST_SOURCE // 1024} KiB"
        return Source(entry.student, path.name, text), ""
    files = _folder_files(path)
    texts = [(file, _read_text(file)) for file in files]
    texts = [(file, text) for file, text in texts if text is not None]
    if not texts:
        return None, "not compared: the folder holds no text files"
    joined = "\n".join(text for _, text in texts)
    return Source(entry.student, f"{path.name}/{texts[0][0].name}", joined), ""


def _folder_files(folder: Path) -> list[Path]:
    """The regular files below ``folder``, in name order, links not followed."""
    found = []
    for parent, folders, files in os.walk(folder, followlinks=False):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for name in sorted(files):
            path = Path(parent, name)
            if not path.is_symlink() and path.is_file():
                found.append(path)
    return found


def _read_text(path: Path) -> str | None:
    """The text of ``path`` if it is a regular file of at most LARGEST_SOURCE bytes of UTF-8
    (links not followed), else None."""
    try:
        data = read_source(path, LARGEST_SOURCE)
    except OSError:
        return None
    if len(data) > LARGEST_SOURCE or b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None
