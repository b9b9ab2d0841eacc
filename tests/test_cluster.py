"""`judge grade --cluster`: a real `dask scheduler` and two `dask worker` processes on 127.0.0.1
grade a class in every language exactly as a local run does, survive a worker killed mid-task,
refuse weak workers, and fail fast on an unreachable scheduler. A local grade never loads Dask."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from conftest import ROOT, run_judge
from test_grading import SOLUTIONS, make_class

from judge.sandbox import sandbox_tier

distributed = pytest.importorskip("distributed", reason="the cluster extra is not installed: pip install -e '.[cluster]'")

EVERY_LANGUAGE = {
    "ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py",
    "ana/footholds.js": SOLUTIONS / "footholds/wrong_answer/vanish_ignored.js",
    "ben/stones.c": SOLUTIONS / "stones/accepted/parity.c",
    "ben/omok.cpp": SOLUTIONS / "omok/wrong_answer/six_wins.cpp",
    "cy/stones.java": SOLUTIONS / "stones/accepted/Parity.java",
    "cy/omok.py": SOLUTIONS / "omok/runtime_error/no_bounds_check.py",
    "dee/stones.cpp": SOLUTIONS / "stones/compile_error/type_error.cpp",
}
# Right on every case, but a quarter of a second late to each: a task long enough to kill a worker in.
SLOW_STONES = "import time\ntime.sleep(0.25)\nn = int(input())\nprint('SK' if n % 2 else 'CY')\n"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class DaskProcesses:
    """A `dask scheduler` and `dask worker` processes, started as a user would start them (with
    ``certificates``, over mutual TLS as the README shows)."""

    def __init__(self, workdir: Path, certificates: dict[str, Path] | None = None) -> None:
        self.workdir = workdir
        self.certificates = certificates
        self.address = f"{'tls' if certificates else 'tcp'}://127.0.0.1:{free_port()}"
        # The workers import the judge from this checkout, as an installed judge would be imported.
        self.env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
        self.scheduler = self._start("scheduler", "--host", "127.0.0.1", "--port", self.address.rsplit(":", 1)[1],
                                     "--no-dashboard", *self.tls_args("scheduler"))
        self.workers: dict[str, subprocess.Popen] = {}

    def tls_args(self, role: str) -> list[str]:
        if not self.certificates:
            return []
        return [*(["--protocol", "tls"] if role == "scheduler" else []), "--tls-ca-file", str(self.certificates["ca"]),
                "--tls-cert", str(self.certificates[role]), "--tls-key", str(self.certificates[f"{role}-key"])]

    def _start(self, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
        with open(self.workdir / f"{args[0]}-{len(list(self.workdir.iterdir()))}.log", "wb") as log:
            return subprocess.Popen([sys.executable, "-m", "dask", *args], cwd=self.workdir,
                                    env={**self.env, **(env or {})}, stdout=log, stderr=subprocess.STDOUT)

    def start_worker(self, name: str, env: dict[str, str] | None = None) -> None:
        self.workers[name] = self._start("worker", self.address, "--name", name, "--host", "127.0.0.1",
                                         "--nworkers", "1", "--nthreads", "1", "--no-nanny", "--no-dashboard",
                                         *self.tls_args("worker"), env=env)

    def client(self):
        security = None
        if self.certificates:
            security = distributed.Security(tls_ca_file=str(self.certificates["ca"]), require_encryption=True,
                                            tls_client_cert=str(self.certificates["grader"]),
                                            tls_client_key=str(self.certificates["grader-key"]))
        return distributed.Client(self.address, timeout=30, security=security)

    def wait_for_workers(self, count: int) -> None:
        with self.client() as client:
            client.wait_for_workers(count, timeout=120)

    def replace_dead_workers(self) -> None:
        for name, process in list(self.workers.items()):
            if process.poll() is not None:
                self.start_worker(name)
        self.wait_for_workers(len(self.workers))

    def stop(self) -> None:
        for process in [*self.workers.values(), self.scheduler]:
            process.terminate()
        for process in [*self.workers.values(), self.scheduler]:
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture(scope="module")
def dask_cluster(tmp_path_factory):
    processes = DaskProcesses(tmp_path_factory.mktemp("dask"))
    try:
        for name in ("w0", "w1"):
            processes.start_worker(name)
        processes.wait_for_workers(2)
        yield processes
    finally:
        processes.stop()


def grade(folder: Path, db: Path, *extra: str) -> subprocess.CompletedProcess:
    return run_judge("grade", str(folder), "--db", str(db), "--format", "json", *extra)


def cluster_args(address: str) -> tuple[str, ...]:
    # The machine's own tier: the tests run wherever the judge does, bubblewrap or not.
    return ("--cluster", address, "--min-sandbox", sandbox_tier())


def recorded(db: Path) -> list[tuple]:
    """Every recorded case result, without times and memory (which vary run to run)."""
    with sqlite3.connect(db) as connection:
        return connection.execute(
            "SELECT s.student, s.problem, s.language, s.complete, s.verdict, s.score, s.compile_message, "
            "c.position, c.case_name, c.case_group, c.verdict, c.message, c.visibility "
            "FROM submissions s JOIN case_results c ON c.submission_id = s.id ORDER BY 1, 2, 8").fetchall()


def counts(db: Path) -> tuple[int, int]:
    with sqlite3.connect(db) as connection:
        return (connection.execute("SELECT COUNT(*) FROM submissions").fetchone()[0],
                connection.execute("SELECT COUNT(*) FROM case_results").fetchone()[0])


def suite_size(problem: str) -> int:
    from judge.formats.catalog import load_problem
    return len(load_problem(str(ROOT / "cases" / f"{problem}.yaml")).cases)


@pytest.mark.slow
def test_cluster_grades_every_language_as_a_local_run_does(dask_cluster, tmp_path):
    folder = make_class(tmp_path / "subs", EVERY_LANGUAGE)
    local = grade(folder, tmp_path / "local.db", "-j", "2")
    assert local.returncode == 0, local.stderr
    remote = grade(folder, tmp_path / "cluster.db", *cluster_args(dask_cluster.address))
    assert remote.returncode == 0, remote.stderr
    assert json.loads(remote.stdout) == json.loads(local.stdout), remote.stderr
    assert recorded(tmp_path / "cluster.db") == recorded(tmp_path / "local.db")
    verdicts = {(s["student"], p): r["verdict"] for s in json.loads(remote.stdout)["students"]
                for p, r in s["problems"].items() if r["status"] == "graded"}
    assert verdicts == {("ana", "stones"): "AC", ("ana", "footholds"): "WA", ("ben", "stones"): "AC",
                        ("ben", "omok"): "WA", ("cy", "stones"): "AC", ("cy", "omok"): "RE",
                        ("dee", "stones"): "CE"}
    # A rerun on the cluster finds everything complete in the store and judges nothing again.
    before = recorded(tmp_path / "cluster.db")
    again = grade(folder, tmp_path / "cluster.db", *cluster_args(dask_cluster.address))
    assert json.loads(again.stdout) == json.loads(local.stdout)
    assert recorded(tmp_path / "cluster.db") == before and counts(tmp_path / "cluster.db") == counts(tmp_path / "local.db")


def test_cluster_grades_problem_packages_as_a_local_run_does(dask_cluster, tmp_path):
    packages = ROOT / "tests" / "packages"
    folder = make_class(tmp_path / "subs", {
        "ana/doubler.py": packages / "doubler/submissions/accepted/doubles.py",
        "ana/subtasks.py": packages / "subtasks/submissions/partially_accepted/small_only.py",
        "ben/doubler.py": packages / "doubler/submissions/wrong_answer/triples.py",
        "ben/subtasks.py": packages / "subtasks/submissions/accepted/twice.py",
    })
    local = grade(folder, tmp_path / "local.db", "--problems", str(packages))
    remote = grade(folder, tmp_path / "cluster.db", "--problems", str(packages), *cluster_args(dask_cluster.address))
    assert remote.returncode == local.returncode == 0, remote.stderr
    assert json.loads(remote.stdout) == json.loads(local.stdout)
    assert recorded(tmp_path / "cluster.db") == recorded(tmp_path / "local.db")
    verdicts = {s["student"]: {p: r["verdict"] for p, r in s["problems"].items() if r["status"] == "graded"} for s in json.loads(remote.stdout)["students"]}
    assert verdicts == {"ana": {"doubler": "AC", "subtasks": "WA"}, "ben": {"doubler": "WA", "subtasks": "AC"}}


@pytest.mark.slow
def test_a_worker_killed_mid_task_loses_and_duplicates_nothing(dask_cluster, tmp_path):
    folder = make_class(tmp_path / "subs", {
        "slowpoke/stones.py": SLOW_STONES,
        "ana/stones.c": SOLUTIONS / "stones/accepted/parity.c",
        "ben/stones.py": SOLUTIONS / "stones/wrong_answer/multiple_of_four.py",
    })
    db = tmp_path / "cluster.db"
    command = [sys.executable, "-m", "judge", "grade", str(folder), "--db", str(db), "--format", "json",
               *cluster_args(dask_cluster.address)]
    judge = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        victim = _worker_running(dask_cluster, "slowpoke", judge)
        time.sleep(1.0)  # a few of its cases are judged; then its worker dies under it
        os.kill(victim, signal.SIGKILL)
        out, err = judge.communicate(timeout=240)
    finally:
        judge.kill()
        dask_cluster.replace_dead_workers()
    assert judge.returncode == 0, err
    students = {s["student"]: s for s in json.loads(out)["students"]}
    assert students["slowpoke"]["problems"]["stones"] == {"status": "graded", "score": 100.0, "verdict": "AC"}
    assert students["ana"]["problems"]["stones"]["verdict"] == "AC"
    assert students["ben"]["problems"]["stones"]["verdict"] == "WA"
    assert counts(db) == (3, 3 * suite_size("stones"))  # one row per submission and per case: nothing twice
    local = grade(folder, tmp_path / "local.db", "-j", "2")
    assert json.loads(out) == json.loads(local.stdout)
    assert recorded(db) == recorded(tmp_path / "local.db")


def test_a_killed_grader_resumes_from_the_store(dask_cluster, tmp_path):
    folder = make_class(tmp_path / "subs", {
        "ana/stones.c": SOLUTIONS / "stones/accepted/parity.c",
        "zed/stones.py": SLOW_STONES,
    })
    db = tmp_path / "cluster.db"
    command = [sys.executable, "-m", "judge", "grade", str(folder), "--db", str(db), "--format", "json",
               *cluster_args(dask_cluster.address)]
    judge = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not _complete(db) and judge.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert judge.poll() is None, "the grade ended before it could be killed"
        judge.kill()  # SIGKILL: the grader records nothing more, and says goodbye to no one
        judge.wait()
    finally:
        judge.kill()
    done_before = _complete(db)
    assert len(done_before) == 1  # one finished (ana's, most likely), the other cut off
    rows_before = _rows_of(db, done_before)
    rerun = grade(folder, db, *cluster_args(dask_cluster.address))
    assert rerun.returncode == 0, rerun.stderr
    assert _rows_of(db, done_before) == rows_before  # complete submissions were not judged again
    assert counts(db) == (2, 2 * suite_size("stones"))
    students = {s["student"]: s["problems"]["stones"] for s in json.loads(rerun.stdout)["students"]}
    assert students == {"ana": {"status": "graded", "score": 100.0, "verdict": "AC"}, "zed": {"status": "graded", "score": 100.0, "verdict": "AC"}}


def test_a_cluster_records_cases_while_a_submission_is_judged(dask_cluster, tmp_path):
    folder = make_class(tmp_path / "subs", {"slowpoke/stones.py": SLOW_STONES})
    db = tmp_path / "cluster.db"
    command = [sys.executable, "-m", "judge", "grade", str(folder), "--db", str(db), "--format", "json",
               *cluster_args(dask_cluster.address)]
    judge = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen_midway = set()  # how many cases the store held while the submission was still being judged
    try:
        while judge.poll() is None:
            if db.exists() and not _complete(db):
                seen_midway.add(_case_count(db))
            time.sleep(0.05)
        out, err = judge.communicate(timeout=60)
    finally:
        judge.kill()
    assert judge.returncode == 0, err
    assert json.loads(out)["students"][0]["problems"]["stones"]["verdict"] == "AC"
    # Cases came in a few at a time (each takes a quarter of a second), not all at once at the end.
    assert len(seen_midway - {0}) >= 3, sorted(seen_midway)
    assert counts(db) == (1, suite_size("stones"))


def _case_count(db: Path) -> int:
    try:
        with sqlite3.connect(db) as connection:
            return connection.execute("SELECT COUNT(*) FROM case_results").fetchone()[0]
    except sqlite3.OperationalError:  # the grader is still creating the tables
        return 0


def _complete(db: Path) -> set[tuple[str, str]]:
    if not db.exists():
        return set()
    try:
        with sqlite3.connect(db) as connection:
            return set(connection.execute("SELECT student, problem FROM submissions WHERE complete=1").fetchall())
    except sqlite3.OperationalError:  # the grader is still creating the tables
        return set()


def _rows_of(db: Path, submissions: set[tuple[str, str]]) -> list[tuple]:
    """The case rows of these submissions, wall times included (a judged-again case would change them)."""
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT s.student, s.problem, c.case_name, c.wall_time, c.cpu_time FROM submissions s "
                                  "JOIN case_results c ON c.submission_id = s.id ORDER BY 1, 2, 3").fetchall()
    return [row for row in rows if row[:2] in submissions]


def _worker_running(cluster: DaskProcesses, student: str, judge: subprocess.Popen, timeout: float = 120) -> int:
    """The pid of the worker executing ``student``'s task, once one is."""
    deadline = time.monotonic() + timeout
    with cluster.client() as client:
        while time.monotonic() < deadline:
            if judge.poll() is not None:
                raise AssertionError(f"the grade ended before {student}'s task ran: {judge.communicate()}")
            running = client.run(lambda dask_worker: (__import__("os").getpid(),
                                                      [str(task.key) for task in dask_worker.state.executing]))
            for pid, keys in running.values():
                if any(f"judge-{student}-" in key for key in keys):
                    return pid
            time.sleep(0.1)
    raise AssertionError(f"no worker started {student}'s task within {timeout} s")


def make_certificates(folder: Path) -> dict[str, Path]:
    """A CA and, signed by it, certificates for the scheduler, a worker and the grader; and one
    intruder's certificate signed by no one."""
    if not shutil.which("openssl"):
        pytest.skip("openssl is not installed")
    paths: dict[str, Path] = {}

    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)

    def self_signed(name: str) -> None:
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}.key", "-out", f"{name}.pem",
                "-days", "2", "-subj", f"/CN={name}")
        paths[name], paths[f"{name}-key"] = folder / f"{name}.pem", folder / f"{name}.key"

    self_signed("ca")
    self_signed("intruder")
    for role in ("scheduler", "worker", "grader"):
        openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{role}.key", "-out", f"{role}.csr", "-subj", f"/CN={role}")
        openssl("x509", "-req", "-in", f"{role}.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", f"{role}.pem", "-days", "2")
        paths[role], paths[f"{role}-key"] = folder / f"{role}.pem", folder / f"{role}.key"
    return paths


def test_a_tls_cluster_grades_for_the_grader_and_turns_an_intruder_away(tmp_path):
    certificates = make_certificates(tmp_path)
    processes = DaskProcesses(tmp_path, certificates)
    try:
        processes.start_worker("tls0")
        processes.wait_for_workers(1)
        folder = make_class(tmp_path / "subs", {"ana/stones.c": SOLUTIONS / "stones/accepted/parity.c"})

        def tls_grade(who: str) -> subprocess.CompletedProcess:
            return grade(folder, tmp_path / f"{who}.db", *cluster_args(processes.address),
                         "--tls-ca-file", str(certificates["ca"]), "--tls-cert", str(certificates[who]),
                         "--tls-key", str(certificates[f"{who}-key"]))

        graded = tls_grade("grader")
        assert graded.returncode == 0, graded.stderr
        assert json.loads(graded.stdout)["students"][0]["problems"]["stones"] == {"status": "graded", "score": 100.0, "verdict": "AC"}
        intruder = tls_grade("intruder")
        assert intruder.returncode == 2 and "cannot reach the Dask scheduler at tls://" in intruder.stderr
        no_certificate = run_judge("grade", str(folder), "--cluster", processes.address)
        assert no_certificate.returncode == 2 and "needs --tls-ca-file, --tls-cert and --tls-key" in no_certificate.stderr
    finally:
        processes.stop()


# Another user of the machine, who found the local cluster's ports: a plain Dask connection, a TLS
# one that trusts anything but has no certificate, and one with a certificate of its own.
INTRUDER = """
import asyncio, ssl, sys
import distributed
from distributed.comm import connect

def no_certificate():
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    return {"ssl_context": context}

async def attempt(address, **connection_args):
    try:
        comm = await connect(address, timeout=3, **connection_args)
        await comm.write({"op": "identity"})
        answer = await asyncio.wait_for(comm.read(), 3)
    except Exception as error:
        return f"refused ({type(error).__name__})"
    return f"ANSWERED {sorted(answer)[:3]}"

async def main():
    own = distributed.Security.temporary().get_connection_args("client")
    for address in sys.argv[1:]:
        port = address.rsplit("://", 1)[1]
        print(address, await attempt("tcp://" + port), await attempt("tls://" + port, **no_certificate()),
              await attempt("tls://" + port, **own))

asyncio.run(main())
try:  # a whole Dask client, as an intruder would run one, at the scheduler's port
    distributed.Client("tcp://" + sys.argv[1].rsplit("://", 1)[1], timeout=3)
    print("CLIENT CONNECTED")
except Exception as error:
    print(f"client refused ({type(error).__name__})")
"""


def test_a_local_cluster_talks_only_to_its_own_grader(tmp_path):
    from judge.classroom.cluster import Cluster, ClusterOptions
    from judge.classroom.grading import grade_folder
    from judge.classroom.store import Store

    cluster = Cluster(ClusterOptions("local:2", sandbox_tier()))
    try:
        workers = cluster.client.scheduler_info()["workers"]
        addresses = [cluster.local_cluster.scheduler_address, *workers,
                     *(info["nanny"] for info in workers.values() if info.get("nanny"))]
        assert len(addresses) == 5 and all(address.startswith("tls://127.0.0.1:") for address in addresses)
        probe = subprocess.run([sys.executable, "-c", INTRUDER, *addresses], capture_output=True, text=True,
                               timeout=120, check=False)
        lines = probe.stdout.splitlines()
        assert probe.returncode == 0 and len(lines) == len(addresses) + 1, probe.stderr
        assert not any("ANSWERED" in line or "CONNECTED" in line for line in lines), lines
        assert all(line.count("refused") == 3 for line in lines[:-1]), lines
        assert lines[-1].startswith("client refused"), lines
        # The scheduler's web pages (its workers' logs, the tasks named after students) are not
        # served, by a server on the loopback only, on a port of its own (not Dask's 8787).
        http = cluster.local_cluster.scheduler.http_server
        assert {socket.getsockname()[0] for socket in http._sockets.values()} == {"127.0.0.1"} and http.port != 8787
        page = f"http://127.0.0.1:{http.port}/info/main/workers.html"
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(page, timeout=10)
        assert refused.value.code == 404
        # The grader's own credentials do get through, and the grade is judged as ever.
        assert "scheduler" in cluster.client.run_on_scheduler(lambda dask_scheduler: "scheduler")
        folder = make_class(tmp_path / "subs", {"ana/stones.c": SOLUTIONS / "stones/accepted/parity.c",
                                                "ben/stones.py": SOLUTIONS / "stones/wrong_answer/multiple_of_four.py"})
        report = grade_folder(folder, Store(tmp_path / "r.db"), backend=cluster)
        verdicts = {student.student: student.results["stones"].verdict.value for student in report.students}
        assert verdicts == {"ana": "AC", "ben": "WA"}, report.issues
    finally:
        cluster.close()


def test_a_local_cluster_sends_each_worker_a_problem_once(tmp_path):
    from judge.classroom.cluster import Cluster, ClusterOptions
    from judge.classroom.grading import grade_folder
    from judge.classroom.store import Store

    tenth_late = SLOW_STONES.replace("0.25", "0.1")  # each submission a couple of seconds long
    folder = make_class(tmp_path / "subs", {f"s{index}/stones.py": f"# {index}\n{tenth_late}" for index in range(6)})
    cluster = Cluster(ClusterOptions("local:2", sandbox_tier()))
    try:
        report = grade_folder(folder, Store(tmp_path / "r.db"), backend=cluster)
        assert {student.results["stones"].verdict.value for student in report.students} == {"AC"}, report.issues

        def seen(dask_worker):
            bundles = [str(key) for key, event, *_ in dask_worker.state.log  # made here or received
                       if event == "put-in-memory" and str(key).startswith("judge-problem-")]
            judged = {str(key) for key, *_ in dask_worker.state.log if str(key).startswith("judge-s")}
            return bundles, len(judged), sorted(dask_worker.state.total_resources)

        workers = cluster.client.run(seen).values()
    finally:
        cluster.close()
    assert all(count for _, count, _ in workers), "each worker judges some of the class"
    # Each worker holds the bundle from before its first submission and gets it once, though it
    # judges several submissions with it (and the tasks are minutes apart in a real class).
    assert all(len(bundles) == 1 for bundles, _, _ in workers), [bundles for bundles, _, _ in workers]
    # Each worker started with the resources a checked worker advertises, for its tier and each weaker one.
    assert all(f"judge-python-{sandbox_tier()}" in resources and "judge-python-none" in resources
               for _, _, resources in workers)


@pytest.mark.slow
def test_a_refused_worker_gets_neither_submissions_nor_problems(tmp_path):
    if sandbox_tier() == "none":
        pytest.skip("this machine has no sandbox tier weaker than its own")
    processes = DaskProcesses(tmp_path)
    try:
        processes.start_worker("strong")
        processes.start_worker("weak", env={"JUDGE_SANDBOX": "none"})
        processes.wait_for_workers(2)
        folder = make_class(tmp_path / "subs", {"ana/stones.c": SOLUTIONS / "stones/accepted/parity.c",
                                                "ben/stones.py": SOLUTIONS / "stones/accepted/game_dp.py"})
        done = grade(folder, tmp_path / "r.db", *cluster_args(processes.address))
        assert done.returncode == 0, done.stderr
        assert f"refused: its sandbox tier is 'none', weaker than the '{sandbox_tier()}'" in done.stderr
        assert {s["student"]: s["total"] for s in json.loads(done.stdout)["students"]} == {"ana": 100, "ben": 100}
        with processes.client() as client:
            names = {info["name"]: address for address, info in client.scheduler_info()["workers"].items()}
            seen = client.run(lambda dask_worker: [str(entry) for entry in dask_worker.state.log])
        assert any("judge-problem-" in entry for entry in seen[names["strong"]])
        assert not any("judge-" in entry for entry in seen[names["weak"]])
    finally:
        processes.stop()


def test_a_worker_with_a_weaker_sandbox_is_refused(tmp_path):
    folder = make_class(tmp_path / "subs", {"ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py"})
    done = run_judge("grade", str(folder), "--db", str(tmp_path / "r.db"), "--cluster", "local:1",
                     "--min-sandbox", "unshare", env={"JUDGE_SANDBOX": "none"})
    assert done.returncode == 2
    # Checked before any worker is started (none says it is refused): the command's last word says why.
    assert done.stderr.splitlines()[-1].startswith(
        "judge: error: no worker of local:1 can judge here: its sandbox tier is 'none', weaker than the 'unshare' "
        "this grade requires"), done.stderr
    assert "refused" not in done.stderr
    assert "Traceback" not in done.stderr


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path):
    folder = make_class(tmp_path / "subs", {"ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py"})
    done = run_judge("grade", str(folder), "--cluster", f"tcp://127.0.0.1:{free_port()}", timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("judge: error: cannot reach the Dask scheduler at tcp://127.0.0.1:")
    assert "Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1


def test_cluster_options_need_cluster_and_a_known_tier(tmp_path):
    folder = make_class(tmp_path / "subs", {"ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py"})
    alone = run_judge("grade", str(folder), "--min-sandbox", "bwrap")
    assert alone.returncode == 2 and "add --cluster ADDRESS" in alone.stderr
    unknown = run_judge("grade", str(folder), "--cluster", "local:1", "--min-sandbox", "chroot")
    assert unknown.returncode == 2 and "not a sandbox tier; use one of root, bwrap, unshare, none" in unknown.stderr
    bad_local = run_judge("grade", str(folder), "--cluster", "local:0")
    assert bad_local.returncode == 2 and "local:N with N a positive whole number" in bad_local.stderr


def test_a_local_grade_never_imports_dask(tmp_path):
    folder = make_class(tmp_path / "subs", {"ana/stones.py": SOLUTIONS / "stones/accepted/game_dp.py"})
    program = ("import sys\nfrom judge.cli import main\n"
               f"status = main(['grade', {str(folder)!r}, '--db', {str(tmp_path / 'l.db')!r}, '--format', 'json'])\n"
               "loaded = sorted({name.split('.')[0] for name in sys.modules} & {'dask', 'distributed'})\n"
               "print('loaded:', loaded, 'status:', status)\n")
    done = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.stdout.strip().splitlines()[-1] == "loaded: [] status: 0", done.stderr


@pytest.mark.slow
def test_a_local_cluster_has_credentials_of_its_own_each_grade():
    from cryptography import x509
    from cryptography.hazmat.primitives.asymmetric import ec

    from judge.classroom.cluster import ephemeral_security

    first, second = ephemeral_security(distributed), ephemeral_security(distributed)
    assert first.require_encryption and first.tls_worker_key != second.tls_worker_key
    certificate = x509.load_pem_x509_certificate(first.tls_ca_file.encode())
    # An elliptic-curve key (made in a tenth of a millisecond), whose certificate signs all three roles.
    assert isinstance(certificate.public_key(), ec.EllipticCurvePublicKey)
    assert first.tls_client_cert == first.tls_scheduler_cert == first.tls_worker_cert == first.tls_ca_file
    # The key is in memory only: not a path to a file another user might read.
    assert "-----BEGIN PRIVATE KEY-----" in first.tls_worker_key and "\n" in first.tls_worker_key
