"""What runs on a Dask worker for `judge grade --cluster`.

Two parts: ``JudgeWorkerPlugin``, which checks the worker's sandbox tier and toolchains when it
joins and advertises them as Dask resources (``judge-<language>-<tier>``; a local:N cluster's
workers, checked by the grader that starts them, start with theirs), and
``judge_remotely``, the task that judges one submission from the bytes the client sent, with
this machine's sandbox and toolchains and the same functions a local run uses.

A problem arrives as a ``ProblemBundle`` (its files' bytes, keyed by their content hash) and is
written once per worker process to a private temporary directory: the reference solver runs in
this judging process, as locally, and its answers never enter the sandbox.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import hashlib
import logging
import math
import multiprocessing.util
import pickle
import shutil
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from distributed import WorkerPlugin, get_worker

from judge import __version__
from judge.errors import JudgeError, LanguageUnavailable, SandboxError, SuiteError
from judge.formats import format_of, formats
from judge.languages import LANGUAGES
from judge.languages.self_test import self_test
from judge.model.problem import Problem
from judge.model.results import CaseResult, SubmissionResult
from judge.runner import judge_submission
from judge.sandbox import TIERS, sandbox_tier
from judge.sandbox.scratch import scratch_dir as _scratch_dir

PLUGIN_NAME = "judge"
EXAMPLES_FOLDER = "submissions"  # a problem package's example solutions: judging does not need them
logger = logging.getLogger("judge.classroom.cluster")


class WorkerRefused(JudgeError):
    """This worker cannot judge for the client: its sandbox is weaker than required, or its judge
    is another version (whose verdicts the client's store would file under the wrong version)."""


ANY_LANGUAGE = "problem"  # the resource a problem bundle asks for: an admitted worker, whatever it judges


def resource_name(language: str, tier: str) -> str:
    """The Dask resource a task asks for: a worker with ``language`` and a sandbox at least ``tier``."""
    return f"judge-{language}-{tier}"


def tiers_up_to(tier: str) -> tuple[str, ...]:
    """``tier`` and every weaker one (``TIERS`` runs strongest first): what a worker of ``tier`` satisfies."""
    return TIERS[TIERS.index(tier):]


def weaker(tier: str, than: str) -> bool:
    return TIERS.index(tier) > TIERS.index(than)


# ---------------------------------------------------------------------------------------------
# What travels: a problem's files

@dataclass(frozen=True)
class ProblemBundle:
    """What judging a problem needs, as bytes by path relative to the problem's root, and the hash
    of them all, which names the bundle on the cluster. A suite brings its suite, reference,
    validator and custom checker; a problem package, its whole folder but the example
    submissions. ``location`` is what the problem's format loads it from, in ``format``."""

    problem_id: str
    format: str
    location: str
    files: tuple[tuple[str, bytes], ...]
    digest: str

    @classmethod
    def of(cls, problem: Problem) -> ProblemBundle:
        parts = problem.files
        if parts.suite is None:
            raise SuiteError(f"problem {problem.id} was not loaded from files, so it cannot be sent to a cluster")
        if format_of(problem).source_at(parts.suite) is not None:  # a problem in a file: its parts
            location = parts.suite
            paths = [parts.suite, parts.reference, parts.validator]
            if problem.checker == "custom":
                paths.append(parts.root / str(problem.checker_options.get("function", "")).partition(":")[0])
        else:  # a problem in a folder: all of it but its example submissions
            location = parts.root
            examples = [folder for folder in (parts.solutions, parts.root / EXAMPLES_FOLDER) if folder is not None]
            # A link out of the folder (a package's statement PDF, say) is not the problem's to send.
            paths = [path for path in parts.root.rglob("*")
                     if not any(folder == path or folder in path.parents for folder in examples)
                     and path.resolve().is_relative_to(parts.root.resolve())]
        found = {str(path.relative_to(parts.root)): path.read_bytes()
                 for path in paths if path is not None and path.is_file()}
        files = tuple(sorted(found.items()))
        digest = hashlib.sha256(problem.format.encode())
        for name, content in files:
            digest.update(b"\0" + name.encode() + b"\0" + content)
        return cls(problem.id, problem.format, str(location.relative_to(parts.root)), files, digest.hexdigest())


def bundle_value(bundle: ProblemBundle) -> ProblemBundle:
    """The task that holds a bundle on the cluster: if the worker keeping it dies, the scheduler
    runs it again from the graph (data scattered from the client would be lost instead)."""
    return bundle


_materialized: dict[str, tuple[Path, Problem]] = {}
_materialize_lock = threading.Lock()


def materialized_problem(bundle: ProblemBundle) -> Problem:
    """The bundle's problem, loaded from files written once per worker process (mode 0700, so no
    sandboxed program of any tier can read the expected answers)."""
    with _materialize_lock:
        if bundle.digest not in _materialized:
            if not _materialized:
                # Not atexit: a worker process forked by multiprocessing (a local:N cluster's) ends
                # with os._exit, which runs multiprocessing's finalizers but no atexit handler.
                multiprocessing.util.Finalize(None, forget_materialized, exitpriority=0)
            # Named as on the grader: a problem package takes its id from its folder's name.
            # A scratch directory named after this process: if it is killed, a later judge removes it.
            root = _scratch_dir("problem") / bundle.problem_id
            for name, content in bundle.files:
                target = root / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(content)
            _materialized[bundle.digest] = (root, _load(bundle, root))
        return _materialized[bundle.digest][1]


def _load(bundle: ProblemBundle, root: Path) -> Problem:
    problem_format = next((found for found in formats() if found.name == bundle.format), None)
    source = problem_format.source_at(root / bundle.location) if problem_format else None
    if source is None:
        raise SuiteError(f"problem {bundle.problem_id} ({bundle.format} format) cannot be read on this worker; "
                         f"install the grader's judge version, with the same problem formats, here")
    return source.load_to_judge()


def forget_materialized() -> None:
    """Remove the problem files this worker process wrote (when it ends: a plugin's teardown is no
    time, as another grader's tasks may be judging with them)."""
    with _materialize_lock:
        for root, _ in _materialized.values():
            shutil.rmtree(root.parent, ignore_errors=True)
        _materialized.clear()


# ---------------------------------------------------------------------------------------------
# The task

def judge_remotely(bundle: ProblemBundle, source_name: str, source: bytes, language: str,
                   case_names: list[str], cold: bool, case_topic: str) -> SubmissionResult:
    """Judge one submission (its file name and bytes) on the named cases of the bundle's problem,
    sending the cases' results to the client as they are decided, in events on ``case_topic``
    (see ``CaseSender``).

    Pure in effect: it writes only temporary files and returns the results, so the scheduler may
    run it again on another worker when one dies; the client records each case once."""
    problem = materialized_problem(bundle)
    cases = [problem.case(name) for name in case_names]
    folder = _scratch_dir("submission")
    try:
        path = folder / source_name
        path.write_bytes(source)
        # What the program printed is not recorded or reported by `grade` (beyond a sample case's
        # excerpt): it is not kept, and need not cross the network.
        result = judge_submission(problem, path, language, cases=cases, cold=cold, keep_output=False,
                                  on_case=CaseSender(case_topic))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return result


CASE_EVENT_INTERVAL = 0.5  # seconds between two events of one task


class CaseSender:
    """Sends the cases a task decides to the client, which records them at once, as a local grade
    does: the first in an event of its own (a grade's first result does not wait for a whole
    submission), then those decided since, in one event at most every ``CASE_EVENT_INTERVAL``
    seconds (an event per case would cost the grader's scheduler and client a millisecond of CPU
    each). Those not sent when the task ends arrive with its result."""

    def __init__(self, topic: str) -> None:
        self.topic = topic
        self.worker = get_worker()
        self.task = self.worker.get_current_task()
        self.unsent: list[CaseResult] = []
        self.last_sent = -math.inf

    def __call__(self, result: CaseResult) -> None:
        self.unsent.append(result)
        now = time.monotonic()
        if now - self.last_sent >= CASE_EVENT_INTERVAL:
            # Pickled, as the task's result is: an event's message must be plain msgpack data.
            self.worker.log_event(self.topic, {"task": self.task, "cases": pickle.dumps(self.unsent)})
            self.unsent, self.last_sent = [], now


def cases_of(event: dict) -> tuple[str, list[CaseResult]]:
    """The task and the case results a ``CaseSender`` event tells of."""
    return event["task"], pickle.loads(event["cases"])


# ---------------------------------------------------------------------------------------------
# The plugin

@dataclass(frozen=True)
class WorkerStatus:
    """What a worker found when it joined: its sandbox tier, its languages, and why it refused."""

    tier: str
    languages: tuple[str, ...]
    missing: tuple[str, ...]  # one sentence per unavailable language
    refusal: str = ""


_status: WorkerStatus | None = None


def probe_worker(required_tier: str, client_version: str, languages: tuple[str, ...] | None = None) -> WorkerStatus:
    """This worker's sandbox tier and usable languages (``languages``: these, untested), and
    whether it must refuse the client."""
    try:
        tier, languages, missing = (sandbox_tier(), languages, ()) if languages else machine_capabilities()
    except SandboxError as error:
        return WorkerStatus("none", (), (), f"its sandbox cannot be used: {error}")
    except Exception as error:  # anything else that breaks the check is reported, not a dead plugin
        return WorkerStatus("none", (), (), f"checking it failed: {type(error).__name__}: {error}")
    refusal = ""
    if client_version != __version__:
        refusal = (f"it runs judge {__version__}, the client judge {client_version}; install the same "
                   f"version on both")
    elif weaker(tier, required_tier):
        refusal = (f"its sandbox tier is {tier!r}, weaker than the {required_tier!r} this grade requires "
                   f"(install bubblewrap on it, or grade with --min-sandbox {tier})")
    return WorkerStatus(tier, languages, missing, refusal)


@functools.cache  # once per worker process: each grade registers the plugin again
def machine_capabilities() -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """The sandbox tier in force, the languages whose self-test passes in it (as `judge doctor`
    checks them: built and run in the sandbox like a submission), and why the others fail."""
    tier = sandbox_tier()
    languages, missing = [], []
    for language in LANGUAGES.values():
        try:
            language.version()
        except LanguageUnavailable as error:
            missing.append(str(error))
            continue
        problem = self_test(language)
        if problem is None:
            languages.append(language.name)
        else:
            missing.append(f"{language.name}: {problem}")
    return tier, tuple(languages), tuple(missing)


class JudgeWorkerPlugin(WorkerPlugin):
    """Checks a joining worker and advertises ``judge-<language>-<tier>`` resources for each of its
    languages and for its tier and every weaker one (a task asks for the tier the client requires).
    A worker whose sandbox is weaker than ``required_tier`` is refused: its setup raises, saying why,
    and it takes no task that needs the stronger tier."""

    name = PLUGIN_NAME

    def __init__(self, required_tier: str) -> None:
        self.required_tier = required_tier
        self.client_version = __version__  # pickled here, compared there

    async def setup(self, worker) -> None:
        global _status
        status = await asyncio.get_running_loop().run_in_executor(None, probe_worker, self.required_tier,
                                                                    self.client_version)
        _status = status
        await worker.set_resources(**advertised_resources(status, worker.state.nthreads))
        if status.refusal:
            logger.error("judge: this worker is refused: %s", status.refusal)
            raise WorkerRefused(status.refusal)


def advertised_resources(status: WorkerStatus, slots: int) -> dict[str, int]:
    """The Dask resources a worker found as ``status`` offers, ``slots`` of each: one per language
    (and one for holding problem bundles) for its tier and each weaker one."""
    return {resource_name(language, tier): slots for language in (*status.languages, ANY_LANGUAGE)
            for tier in tiers_up_to(status.tier)}


def worker_status() -> dict | None:
    """This worker's status as the plugin found it (run on every worker by the client)."""
    return dataclasses.asdict(_status) if _status else None
