"""The exec server (one sandbox per submission for C, C++, Java and JavaScript) must never change a
verdict: every such file under solutions/ and tests/hostile/ gets the same per-case verdicts
through it as cold, and its servers really answer (a verdict that came from the cold fallback
would prove nothing)."""

from pathlib import Path

import pytest
from conftest import ROOT, built_in_problems, example_solutions
from test_warm import run_warm_and_cold

from judge.formats.catalog import load_problem
from judge.languages import warm
from judge.runner import executor, judge_submission, prepare

EXEC_SUFFIXES = {".c": "c", ".cpp": "cpp", ".java": "java", ".js": "javascript"}
# The compiled languages first: they are the quickest to check.
ORDER = {suffix: rank for rank, suffix in enumerate(EXEC_SUFFIXES)}
SOLUTIONS = sorted(((problem, path) for problem in built_in_problems() for path, _ in example_solutions(problem)
                    if path.suffix in EXEC_SUFFIXES), key=lambda item: ORDER[item[1].suffix])
HOSTILE = sorted(path for path in (ROOT / "tests" / "hostile").iterdir() if path.suffix in EXEC_SUFFIXES)
# A fork bomb's verdict is a race between its limits (the process count, the clock, and for node,
# whose copies hold tens of MiB each, memory), run to run and so warm or cold alike: each run must
# end in one of these (as tests/hostile/test_every_language.py accepts), not in the same one.
RACES = {"fork_bomb.c": {"RE", "TLE"}, "fork_bomb.cpp": {"RE", "TLE"}, "fork_bomb.js": {"RE", "TLE", "MLE"}}


class FallbackCounter:
    """Counts the cases the pools ran cold because a server was gone or silent."""

    def __init__(self, monkeypatch) -> None:
        self.count = 0
        cold = warm.run_sandboxed

        def counted(*args, **kwargs):
            self.count += 1
            return cold(*args, **kwargs)

        monkeypatch.setattr(warm, "run_sandboxed", counted)


def verdicts(problem, path: Path, cold: bool, cases=None) -> list[tuple[str, str]]:
    result = judge_submission(problem, path, cases=cases, cold=cold, stop_on_failure=cases is None)
    return [(case.name, case.verdict) for case in result.cases]


@pytest.mark.slow
@pytest.mark.parametrize("problem_id, path", SOLUTIONS,
                         ids=[f"{p}/{path.parent.name}/{path.name}" for p, path in SOLUTIONS])
def test_solutions_get_the_same_verdicts_through_the_exec_server_and_cold(problem_id, path, monkeypatch):
    problem = load_problem(problem_id)
    fallbacks = FallbackCounter(monkeypatch)
    warm_verdicts = verdicts(problem, path, cold=False)
    assert fallbacks.count == 0, "a server died or fell silent on an example solution"
    assert warm_verdicts == verdicts(problem, path, cold=True)


@pytest.mark.slow
@pytest.mark.parametrize("path", HOSTILE, ids=[path.name for path in HOSTILE])
def test_hostile_programs_get_the_same_verdicts_through_the_exec_server_and_cold(path):
    stones = load_problem("stones")
    cases = [stones.case("smallest")]
    warm_verdicts, cold_verdicts = (verdicts(stones, path, cold=cold, cases=cases) for cold in (False, True))
    if path.name in RACES:
        assert {verdict for _, verdict in warm_verdicts + cold_verdicts} <= RACES[path.name]
    else:
        assert warm_verdicts == cold_verdicts


def test_a_case_sees_the_environment_files_and_signals_a_cold_run_sees(write_program):
    """Same environment, an empty working directory and /tmp whatever the previous case left,
    default signal dispositions and no blocked signal."""
    path = write_program("look.c", r"""
#define _GNU_SOURCE
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
extern char **environ;
static int entries(const char *path) {
    int count = 0; DIR *dir = opendir(path); struct dirent *entry;
    while (dir && (entry = readdir(dir))) count += entry->d_name[0] != '.';
    if (dir) closedir(dir);
    return count;
}
int main(void) {
    for (char **name = environ; *name; name++) printf("env %s\n", *name);
    printf("files %d %d\n", entries("."), entries("/tmp"));
    sigset_t blocked; sigprocmask(SIG_BLOCK, NULL, &blocked);
    struct sigaction action; sigaction(SIGPIPE, NULL, &action);
    printf("blocked %d pipe-ignored %d\n", sigismember(&blocked, SIGTERM), action.sa_handler == SIG_IGN);
    fclose(fopen("left-here", "w")); fclose(fopen("/tmp/left-there", "w"));
    return 0;
}
""")
    stones = load_problem("stones")
    prepared = prepare(stones, path)
    program, limits = prepared.program, prepared.limits
    with executor(prepared.language, program, stones.io, limits) as execute:
        first, second = (execute(program.argv(limits), b"", limits, program.directory) for _ in range(2))
    _, (_, cold_stdout, _) = run_warm_and_cold(path, b"")
    assert first.stdout == second.stdout == cold_stdout
    assert b"files 0 0\nblocked 0 pipe-ignored 0\n" in first.stdout


def test_limits_reach_the_case_as_they_reach_a_cold_run(write_program):
    """A program that allocates far past its memory limit, or spins past its CPU limit, is
    stopped through the server as cold: the same verdicts."""
    stones = load_problem("stones")
    cases = [stones.case("smallest")]
    hog = write_program("hog.c", "#include <stdlib.h>\n#include <string.h>\n"
                                 "int main(void) { for (;;) { char *p = malloc(1 << 24); if (!p) return 3;"
                                 " memset(p, 1, 1 << 24); } }\n")
    spin = write_program("spin.c", "int main(void) { volatile unsigned long n = 0; for (;;) n++; }\n")
    for path in (hog, spin):
        warm_verdicts = verdicts(stones, path, cold=False, cases=cases)
        assert warm_verdicts == verdicts(stones, path, cold=True, cases=cases)
        assert warm_verdicts[0][1] != "AC"


def test_a_case_leaves_no_process_behind_for_the_next(write_program):
    """A daemon that left its session and double-forked is killed with its case: the next case
    of the same server finds no process of the previous one."""
    path = write_program("daemon.c", r"""
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
int main(void) {
    int found = 0; DIR *proc = opendir("/proc"); struct dirent *entry;
    while (proc && (entry = readdir(proc))) {
        char path[300], line[64] = ""; snprintf(path, sizeof path, "/proc/%s/comm", entry->d_name);
        FILE *file = fopen(path, "r");
        if (file) { found += fgets(line, sizeof line, file) && strncmp(line, "judge-daemon", 12) == 0; fclose(file); }
    }
    printf("%s\n", found ? "LEFTOVER" : "SK");
    fflush(stdout);
    if (fork() == 0) { setsid(); if (fork() == 0) { prctl(PR_SET_NAME, "judge-daemon"); sleep(30); } _exit(0); }
    return 0;
}
""")
    stones = load_problem("stones")
    cases = [stones.case(name) for name in ("smallest", "takes-all-three", "small-odd")]
    result = judge_submission(stones, path, cases=cases, jobs=1)
    assert [case.verdict for case in result.cases] == ["AC", "AC", "AC"], [case.output for case in result.cases]


def test_a_case_cannot_kill_the_server(write_program, monkeypatch):
    """A case that kills its parent (the server) fails to: it and the next cases run through
    the same server, with the verdicts of cold runs (tests/hostile/test_stopped_watcher.py kills
    a server from outside)."""
    path = write_program("parricide.c", "#include <signal.h>\n#include <stdio.h>\n#include <unistd.h>\n"
                                        "int main(void) { int n; scanf(\"%d\", &n); if (n == 1) kill(getppid(), SIGKILL);"
                                        " puts(n % 2 ? \"SK\" : \"CY\"); return 0; }\n")
    stones = load_problem("stones")
    cases = [stones.case(name) for name in ("smallest", "takes-all-three", "small-odd")]
    fallbacks = FallbackCounter(monkeypatch)
    warm_verdicts = verdicts(stones, path, cold=False, cases=cases)
    assert fallbacks.count == 0
    assert warm_verdicts == verdicts(stones, path, cold=True, cases=cases)


def test_an_input_larger_than_the_output_limit_runs_cold_and_the_server_stays(write_program, monkeypatch):
    """Cases share the server's file size limit, the output limit, under which the server cannot
    write a larger input to the case's file: that case runs cold, and the server goes on to
    the next (it died of it before, and was replaced)."""
    path = write_program("counts.c", "#include <stdio.h>\nint main(void) { long n = 0; while (getchar() != EOF) n++;"
                                     " printf(\"%ld\\n\", n); return 0; }\n")
    stones = load_problem("stones")
    prepared = prepare(stones, path)
    program, limits = prepared.program, prepared.limits
    servers = []
    started = warm.SandboxedServer

    def counted(*args, **kwargs):
        servers.append(args)
        return started(*args, **kwargs)

    monkeypatch.setattr(warm, "SandboxedServer", counted)
    inputs = [b"1\n", b"7\n" * (limits.output // 2 + 1), b"3\n"]
    with executor(prepared.language, program, stones.io, limits) as execute:
        outputs = [execute(list(program.command), stdin, limits, program.directory).stdout for stdin in inputs]
    assert outputs == [f"{len(stdin)}\n".encode() for stdin in inputs]
    assert len(servers) == 1
