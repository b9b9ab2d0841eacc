"""`judge grade --cluster ADDRESS`: a class's submissions judged on Dask distributed workers.

This process stays the one that reads the submissions, keeps the results store and renders the
reports. It sends each submission's source bytes and each problem's files (a ``ProblemBundle``,
once per worker, named by its content hash) to the workers, which judge with their own sandbox
and toolchains (``judge.classroom.cluster_worker``), and it records the cases' results as the workers
decide them (in Dask events, within half a second), as a local grade does. A task lost with a worker is
run again elsewhere by the scheduler; as each case is recorded once, by name, nothing is recorded
twice, and a grade stopped midway resumes from the cases recorded.

Dask is imported only here and only when ``--cluster`` is given: a local grade never loads it.
"""

from __future__ import annotations

import argparse
import collections
import datetime
import functools
import logging
import math
import queue
import sys
import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from judge import __version__
from judge.classroom.grading import finish_entry, resume_entry
from judge.errors import ClusterError
from judge.languages import LANGUAGES, language_for
from judge.languages.base import read_source
from judge.model.vocabulary import SandboxTier
from judge.sandbox import TIERS

if TYPE_CHECKING:
    from judge.classroom.grading import Entry
    from judge.classroom.store import Store
    from judge.model.problem import Problem
    from judge.model.results import SubmissionResult

CONNECT_TIMEOUT = 5.0  # seconds: an unreachable scheduler is an error within seconds, not a hang
WORKER_WAIT = 30.0  # seconds to wait for a first worker to join a scheduler that has none
LOCAL_PREFIX = "local:"
INSTALL_HINT = "install the cluster extra: python3 -m pip install -e '.[cluster]'"


@dataclass(frozen=True)
class ClusterOptions:
    """How to reach the cluster and what its workers must offer."""

    address: str
    min_sandbox: str = SandboxTier.BWRAP
    tls_ca_file: Path | None = None
    tls_cert: Path | None = None
    tls_key: Path | None = None


def add_cluster_arguments(parser: argparse.ArgumentParser) -> None:
    """`judge grade`'s options for grading on a Dask cluster."""
    group = parser.add_argument_group("grading on a Dask cluster (needs the `cluster` extra)")
    group.add_argument("--cluster", metavar="ADDRESS",
                       help="judge on the Dask scheduler at ADDRESS (tcp://host:8786, tls://host:8786), "
                            "or on local:N, a Dask cluster of N worker processes on this machine")
    group.add_argument("--min-sandbox", metavar="TIER",
                       help="weakest sandbox tier a worker may have: bwrap (default), unshare or none; "
                            "weaker workers are refused")
    group.add_argument("--tls-ca-file", type=Path, help="CA certificate the scheduler's and workers' are signed by")
    group.add_argument("--tls-cert", type=Path, help="this client's TLS certificate")
    group.add_argument("--tls-key", type=Path, help="this client's TLS private key")


def options_from(args: argparse.Namespace) -> ClusterOptions | None:
    """The cluster options given on the command line (None without --cluster)."""
    tls = {"tls_ca_file": args.tls_ca_file, "tls_cert": args.tls_cert, "tls_key": args.tls_key}
    if not args.cluster:
        given = [f"--{name.replace('_', '-')}" for name, value in tls.items() if value is not None]
        given += ["--min-sandbox"] if args.min_sandbox else []
        if given:
            raise ClusterError(f"{', '.join(given)}: for grading on a cluster; add --cluster ADDRESS")
        return None

    if args.min_sandbox and args.min_sandbox not in TIERS:
        raise ClusterError(f"--min-sandbox {args.min_sandbox}: not a sandbox tier; use one of {', '.join(TIERS)}")
    for name, path in tls.items():
        if path is not None and not path.is_file():
            raise ClusterError(f"--{name.replace('_', '-')} {path}: no such file")
    if args.cluster.startswith("tls://") and not all(tls.values()):
        raise ClusterError("a tls:// scheduler needs --tls-ca-file, --tls-cert and --tls-key")
    return ClusterOptions(args.cluster, args.min_sandbox or SandboxTier.BWRAP, **tls)


def is_local(address: str) -> bool:
    """Whether ``address`` asks for a cluster of worker processes started here (local:N)."""
    return address.startswith(LOCAL_PREFIX)


def _local_workers(address: str) -> int:
    count = address[len(LOCAL_PREFIX):]
    if not count.isdigit() or int(count) < 1:
        raise ClusterError(f"--cluster {address}: give local:N with N a positive whole number of workers")
    return int(count)


class Cluster:
    """A connection to a Dask cluster whose workers judge for this process."""

    def __init__(self, options: ClusterOptions, cold: bool = False) -> None:
        if is_local(options.address):
            _start_fork_server()  # it imports Dask while this process does
        try:
            import distributed  # Dask: only with --cluster
        except ImportError:
            raise ClusterError(f"--cluster needs Dask distributed, which is not installed; {INSTALL_HINT}") from None
        # Dask's own log lines (a worker lost, a task rescheduled) are for the cluster's operator;
        # this command reports what matters to the grader itself.
        logging.getLogger("distributed").setLevel(logging.CRITICAL)
        self.options = options
        self.cold = cold
        self.run_token = uuid.uuid4().hex[:8]  # keeps this run's task keys apart from other clients'
        self.local_cluster = None
        self._bundles: dict[str, object] = {}  # problem id -> the future holding its bundle
        if is_local(options.address):
            self.client, self.languages = self._start_local(distributed)
            return
        self.client = self._connect(distributed)
        try:
            statuses = self._admit_workers()
        except BaseException:
            self.close()
            raise
        self.languages = {language for status in statuses.values() if not status["refusal"]
                          for language in status["languages"]}

    def _start_local(self, distributed):
        """A client of a cluster of worker processes started here, and the languages they judge.

        Its workers judge on this machine for this process, as `-j N` would: in its sandbox tier,
        checked here once (a machine whose tier is too weak starts no worker), and with every
        language, untested, as a local grade offers them (a submission in one whose toolchain is
        missing gets IE, as it would there). So they need no plugin to check them when they join:
        each starts with the resources a checked worker would advertise."""
        import dask  # Dask: only with --cluster

        # The worker's side imports Dask's: only once a cluster is in use (`judge grade` without one never loads Dask).
        from judge.classroom.cluster_worker import advertised_resources, probe_worker

        address = self.options.address
        workers = _local_workers(address)
        status = probe_worker(self.options.min_sandbox, __version__, tuple(LANGUAGES))
        if status.refusal:
            raise ClusterError(f"no worker of {address} can judge here: {status.refusal}")
        security = ephemeral_security(distributed)
        # Over mutual TLS with a key and certificate made now and held only by this process and
        # its own worker processes (in memory; Dask writes them for a moment to a private
        # temporary directory to load them): another user of this machine who finds the ports
        # cannot connect, and so cannot run code as this grader.
        # Their plain-HTTP servers (which Dask always starts) answer nothing: the scheduler's
        # pages would show anyone the workers' logs and the tasks, named after the students.
        no_pages = {"distributed.scheduler.http.routes": [], "distributed.worker.http.routes": []}
        # No active memory manager: it would drop a worker's copy of a problem's bundle between
        # two of its tasks (one copy suffices, to its mind), and the next would fetch it again.
        keep_bundles = {"distributed.scheduler.active-memory-manager.start": False}
        with dask.config.set({**no_pages, **keep_bundles, "distributed.worker.multiprocessing-method": "forkserver"}):
            self.local_cluster = distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                security=security, protocol="tls://", dashboard_address=None, silence_logs=logging.CRITICAL,
                resources=advertised_resources(status, slots=1),
                # That server on a free port of the loopback only: Dask's default is port 8787 on
                # every interface, taken by any other cluster on the machine (with a warning).
                scheduler_kwargs={"dashboard_address": "127.0.0.1:0"})
        try:
            return distributed.Client(self.local_cluster, timeout=CONNECT_TIMEOUT, security=security), set(status.languages)
        except BaseException:
            self.close()
            raise

    def _connect(self, distributed):
        address = self.options.address
        try:
            return distributed.Client(address, timeout=CONNECT_TIMEOUT, security=self._security(distributed))
        except (OSError, TimeoutError, ValueError) as error:
            raise ClusterError(f"cannot reach the Dask scheduler at {address}: {_reason(error)}; is "
                               f"`dask scheduler` running there, and the address right?") from None

    def _security(self, distributed):
        if not self.options.tls_ca_file:
            return None
        return distributed.Security(tls_ca_file=str(self.options.tls_ca_file),
                                    tls_client_cert=str(self.options.tls_cert),
                                    tls_client_key=str(self.options.tls_key), require_encryption=True)

    def _admit_workers(self) -> dict[str, dict]:
        """Register the plugin on every worker (and every later one); print why any is refused."""
        # The worker's side imports Dask's: only once a cluster is in use (`judge grade` without one never loads Dask).
        from judge.classroom.cluster_worker import JudgeWorkerPlugin, WorkerRefused, worker_status

        try:
            self.client.wait_for_workers(1, timeout=WORKER_WAIT)
        except TimeoutError:
            raise ClusterError(f"no worker joined the scheduler at {self.options.address} within "
                               f"{WORKER_WAIT:g} s; start some with `dask worker {self.options.address}`") from None
        try:
            self.client.register_plugin(JudgeWorkerPlugin(self.options.min_sandbox))
            statuses = self.client.run(worker_status)
        except WorkerRefused:
            statuses = self.client.run(worker_status)  # each worker's reason is printed just below
        except Exception as error:  # e.g. a worker without the judge cannot even unpickle the plugin
            raise ClusterError(f"the workers of {self.options.address} cannot run the judge "
                               f"({type(error).__name__}: {_reason(error)}); install this judge, with the "
                               f"cluster extra, on every worker machine") from None
        statuses = {address: status for address, status in statuses.items() if status}
        refused = {address: status["refusal"] for address, status in statuses.items() if status["refusal"]}
        for address, reason in sorted(refused.items()):
            print(f"judge: worker {address} refused: {reason}", file=sys.stderr)
        if len(refused) == len(statuses):
            raise ClusterError(f"no worker of {self.options.address} can judge here (this grade requires the "
                               f"{self.options.min_sandbox!r} sandbox tier)")
        return statuses

    def usable(self, entries: list[Entry], skip: Callable[[Entry, str], None]) -> list[Entry]:
        """The entries some admitted worker has the language for; the others are skipped, with why."""
        kept = []
        for entry in entries:
            language = language_for(entry.path).name
            if language in self.languages:
                kept.append(entry)
            else:
                skip(entry, f"no worker of the cluster has {language} "
                            f"(workers offer: {', '.join(sorted(self.languages))}); skipped")
        return kept

    def grade(self, entries: list[Entry], problems: dict[str, Problem], store: Store,
              on_done: Callable[[Entry], None] | None,
              skip: Callable[[Entry, str], None]) -> list[SubmissionResult | None]:
        """Each entry's result, in order: from the store when complete, else judged on the cluster
        and recorded here case by case as the workers decide them. None for a submission the
        cluster could not judge."""
        # The worker's side imports Dask's: only once a cluster is in use (`judge grade` without one never loads Dask).
        from judge.classroom.cluster_worker import cases_of

        # What the workers send, in the order it comes: ("cases", event) for cases decided,
        # ("done", key) for each task finished. Dask calls back in threads of its own; the store
        # is written here, in the grading thread, only.
        arrivals: queue.Queue = queue.Queue()
        topic = f"judge-cases-{self.run_token}"
        self.client.subscribe_topic(topic, lambda event: arrivals.put(("cases", event[1])))
        results: list[SubmissionResult | None] = [None] * len(entries)
        waiting: collections.deque = collections.deque()  # (index, entry, resumption) not yet sent
        pending = {}  # task key -> (index, entry, resumption, future)

        def send() -> None:
            index, entry, resumption = waiting.popleft()
            future = self._submit(entry, problems[entry.problem], resumption, topic)
            pending[future.key] = (index, entry, resumption, future)
            future.add_done_callback(lambda done: arrivals.put(("done", done.key)))

        try:
            for index, entry in enumerate(entries):
                resumption = resume_entry(entry, problems[entry.problem], store)
                if resumption.needs_judging:
                    waiting.append((index, entry, resumption))
                    continue
                results[index] = finish_entry(entry, problems[entry.problem], store, resumption, None)
                if on_done:
                    on_done(entry)
            while waiting and len(pending) < self._in_flight:
                send()
            while pending:
                kind, item = arrivals.get()
                if kind == "cases":
                    key, cases = cases_of(item)
                    for case in cases if key in pending else ():  # (a task's last event may come after its result)
                        pending[key][2].record(store, case)
                    continue
                index, entry, resumption, future = pending.pop(item)
                if waiting:  # first: the worker that finished waits for it
                    send()
                fresh = self._result(future, entry, skip)
                if fresh is not None:
                    results[index] = finish_entry(entry, problems[entry.problem], store, resumption, fresh)
                if on_done:
                    on_done(entry)
            return results
        finally:
            self.client.unsubscribe_topic(topic)

    @property
    def _in_flight(self) -> float:
        """How many submissions the cluster is given at a time. A local cluster gets one per
        worker, and the next as each finishes, as `-j N` takes them: Dask assigns each task it is
        given to a worker at once, and one queued behind a long submission on a busy worker was
        moved to an idle one only a second or so later, which at the end of a grade is a second
        lost. A cluster elsewhere, whose workers may come and go, gets them all at once."""
        return _local_workers(self.options.address) if self.local_cluster is not None else math.inf

    def _submit(self, entry: Entry, problem: Problem, resumption, case_topic: str):
        # The worker's side imports Dask's: only once a cluster is in use (`judge grade` without one never loads Dask).
        from judge.classroom.cluster_worker import judge_remotely, resource_name

        return self.client.submit(
            judge_remotely, self._bundle(problem), entry.path.name, read_source(entry.path),
            resumption.language, [case.name for case in resumption.remaining], self.cold, case_topic,
            key=f"judge-{entry.student}-{entry.problem}-{resumption.submission_id}-{self.run_token}",
            resources={resource_name(resumption.language, self.options.min_sandbox): 1}, pure=False)

    def _bundle(self, problem: Problem):
        """The future holding the problem's files on the cluster, keyed by their content hash."""
        # The worker's side imports Dask's: only once a cluster is in use (`judge grade` without one never loads Dask).
        from judge.classroom.cluster_worker import ANY_LANGUAGE, ProblemBundle, bundle_value, resource_name

        if problem.id not in self._bundles:
            bundle = ProblemBundle.of(problem)
            # Held only by workers admitted for this grade: a refused worker gets no expected answers.
            self._bundles[problem.id] = self.client.submit(
                bundle_value, bundle, key=f"judge-problem-{self.options.min_sandbox}-{bundle.digest}",
                resources={resource_name(ANY_LANGUAGE, self.options.min_sandbox): 1})
            if self.local_cluster is not None:
                # On every worker before its first submission: Dask gives a task only to a worker
                # that holds its inputs, so with the bundle on one worker, its submissions would
                # queue there while the others stood idle (until Dask moved them, seconds later).
                self.client.replicate([self._bundles[problem.id]])
        return self._bundles[problem.id]

    @staticmethod
    def _result(future, entry: Entry, skip: Callable[[Entry, str], None]):
        """The task's result; None (and the entry skipped) when the cluster gave up on it."""
        from distributed import KilledWorker  # Dask: only with --cluster

        try:
            return future.result()
        except KilledWorker:
            skip(entry, "every worker that ran it died; nothing was recorded, so a rerun tries again")
            return None

    def close(self) -> None:
        """Disconnect (and stop the local cluster, if this process started one)."""
        if getattr(self, "client", None) is not None:
            self.client.close()
        if self.local_cluster is not None:
            self.local_cluster.close()


class StartingCluster:
    """A ``Cluster`` being started in a thread while this process reads and checks the class
    (its problems, the submissions, the store): the grading loop waits for it only when it has
    submissions to send. An error in starting it (an unreachable scheduler, no usable worker) is
    raised there, as ``Cluster`` would have raised it."""

    def __init__(self, options: ClusterOptions, cold: bool = False) -> None:
        self.options = options
        self._started = _ThreadResult(functools.partial(Cluster, options, cold))

    def ready(self) -> Cluster:
        return self._started.result()

    def usable(self, entries: list[Entry], skip: Callable[[Entry, str], None]) -> list[Entry]:
        return self.ready().usable(entries, skip)

    def grade(self, entries: list[Entry], problems: dict[str, Problem], store: Store,
              on_done: Callable[[Entry], None] | None,
              skip: Callable[[Entry, str], None]) -> list[SubmissionResult | None]:
        return self.ready().grade(entries, problems, store, on_done, skip)

    def close(self) -> None:
        """Stop the cluster, once it has started (an error in starting it was reported, or not
        needed, already)."""
        try:
            cluster = self.ready()
        except Exception:  # noqa: BLE001 - reported where it was raised, or never needed
            return
        cluster.close()


class _ThreadResult:
    """What ``function`` returns, computed in a thread of its own meanwhile."""

    def __init__(self, function: Callable[[], object]) -> None:
        self._value: object = None
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(function,), daemon=True,
                                        name=f"judge-{getattr(function, '__name__', 'cluster')}")
        self._thread.start()

    def _run(self, function: Callable[[], object]) -> None:
        try:
            self._value = function()
        except BaseException as error:  # noqa: BLE001 - raised where the result is asked for
            self._error = error

    def result(self):
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value


def _start_fork_server() -> None:
    """Start the process a local cluster's worker processes are forked from, importing Dask and
    the judge's worker module once: each worker then starts in a fraction of a second, where a
    fresh interpreter per worker spends seconds importing them. The fork server is itself a
    fresh interpreter (exec'd, not forked from this process), so a worker holds none of this
    process's threads, open files or results store, and judges as a worker started on its own."""
    import multiprocessing.forkserver  # only for local:N, like the rest of the cluster's set-up

    multiprocessing.get_context("forkserver").set_forkserver_preload(["distributed", "judge.classroom.cluster_worker"])
    # Dask sets a preload list of its own when it first starts a worker: too late for a server
    # already running, which keeps this one.
    multiprocessing.forkserver.ensure_running()


def ephemeral_security(distributed):
    """Credentials for one grade's local cluster: a key and a self-signed certificate made in
    memory, which the scheduler, the workers and this client all require of whoever connects.

    An elliptic-curve (P-256) key, not the RSA key of Dask's ``Security.temporary()``: making one
    takes a tenth of a millisecond where RSA takes 20 to 100, and each of the cluster's TLS
    handshakes signs with it at a fraction of RSA's cost, as strong."""
    try:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID
    except ImportError:
        raise ClusterError(f"--cluster local:N secures its cluster with TLS, which needs the `cryptography` "
                           f"package; {INSTALL_HINT}") from None
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "judge-local-cluster")])
    now = datetime.datetime.now(datetime.timezone.utc)
    certificate = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
                   .serial_number(x509.random_serial_number())
                   .not_valid_before(now - datetime.timedelta(minutes=5))  # a clock stepped back a little
                   .not_valid_after(now + datetime.timedelta(days=7))  # a week-long grade is still one grade
                   .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
                   .sign(key, hashes.SHA256()))
    key_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    certificate_pem = certificate.public_bytes(serialization.Encoding.PEM).decode()
    # PEM text, not paths: Dask keeps them in memory, in this process and in its workers.
    return distributed.Security(require_encryption=True, tls_ca_file=certificate_pem,
                                **{f"tls_{role}_{part}": pem for role in ("client", "scheduler", "worker")
                                   for part, pem in (("cert", certificate_pem), ("key", key_pem))})


def _reason(error: BaseException) -> str:
    if isinstance(error, (OSError, TimeoutError)) and "Timed out" in str(error):
        return f"no answer within {CONNECT_TIMEOUT:g} s"
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]
