"""Input and output validators of packages, and interactive problems: exit codes, feedback files,
scores, verdict precedence, and broken validators as clear errors."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, judged_whole, run_judge

PACKAGES = ROOT / "tests" / "packages"


@pytest.fixture
def package_copy(tmp_path):
    def copy(name: str) -> Path:
        shutil.copytree(PACKAGES / name, tmp_path / name)
        return tmp_path / name
    return copy


def run_json(package: Path, solution: Path, *extra: str) -> dict:
    done = run_judge("run", str(package), str(solution), "--format", "json", "--no-record", *extra)
    assert done.stdout, done.stderr
    return json.loads(done.stdout)


# ---------------------------------------------------------------------------------------------
# Output validators

def test_score_txt_and_judgemessage_txt_become_score_and_message():
    # The whole result: a hidden case's message is the teacher's to read (judge/model/feedback.py).
    result = judged_whole(PACKAGES / "closest", PACKAGES / "closest/submissions/partially_accepted/off_by_one.py")
    assert result["verdict"] == "AC" and (result["score"], result["max_score"]) == (18, 20)
    assert [case["message"] for case in result["cases"]] == ["off by 1"] * 3
    shown = run_json(PACKAGES / "closest", PACKAGES / "closest/submissions/partially_accepted/off_by_one.py")
    assert [case["message"] for case in shown["cases"] if case["name"].startswith("hidden ")] == [""] * 2


def test_exit_43_is_wrong_answer_with_the_validators_message():
    result = run_json(PACKAGES / "closest", PACKAGES / "closest/submissions/wrong_answer/words.py")
    assert result["cases"][0]["verdict"] == "WA" and result["cases"][0]["message"] == "not an integer"


def test_a_validator_exiting_otherwise_is_the_judges_fault(package_copy):
    package = package_copy("closest")
    (package / "output_validator/validator.py").write_text("import sys\nsys.stdin.read()\nsys.exit(0)\n")
    result = run_json(package, package / "submissions/accepted/exact.py")
    assert {case["verdict"] for case in result["cases"]} == {"IE"}
    assert "exited 0, not 42 (accepted) or 43 (wrong answer)" in result["cases"][0]["message"]
    done = run_judge("test", str(package))
    assert done.returncode == 2
    assert "output_validator: output validator output_validator exited 0" in done.stderr


def test_a_validator_that_does_not_build_is_a_package_error(package_copy):
    package = package_copy("closest")
    (package / "output_validator/validator.py").write_text("def broken(:\n")
    for command in (["test", str(package)], ["run", str(package), str(package / "submissions/accepted/exact.py")]):
        done = run_judge(*command)
        assert done.returncode == 2, done.stdout
        assert "output_validator: the output validator does not build" in done.stderr
        assert "Traceback" not in done.stderr


def test_a_compiled_validator_directory_is_built_once_and_sandboxed(package_copy):
    package = package_copy("closest")
    shutil.rmtree(package / "output_validator")
    (package / "output_validator").mkdir()
    # A C++ validator of two files that also tries to write outside its feedback directory.
    (package / "output_validator/score.h").write_text("int score(long a, long b);\n")
    (package / "output_validator/score.cpp").write_text(
        '#include "score.h"\nint score(long a, long b) { long d = a > b ? a - b : b - a; return d > 10 ? 0 : 10 - d; }\n')
    (package / "output_validator/validate.cpp").write_text(r'''
#include <cstdio>
#include <fstream>
#include <string>
#include "score.h"
int main(int argc, char **argv) {
    std::ifstream answer(argv[2]);
    long a, b;
    answer >> a;
    std::string feedback = argv[3];
    bool escaped = std::fopen("/usr/escaped.txt", "w") != nullptr;
    if (std::scanf("%ld", &b) != 1) return 43;
    std::FILE *out = std::fopen((feedback + "score.txt").c_str(), "w");
    std::fprintf(out, "%d", score(a, b));
    std::fclose(out);
    std::FILE *message = std::fopen((feedback + "judgemessage.txt").c_str(), "w");
    std::fprintf(message, escaped ? "escaped" : "contained");
    std::fclose(message);
    return 42;
}
''')
    result = judged_whole(package, package / "submissions/partially_accepted/off_by_one.py")
    assert result["score"] == 18
    assert {case["message"] for case in result["cases"]} == {"contained"}


def test_a_build_and_run_script_validator(package_copy):
    package = package_copy("closest")
    validator = package / "output_validator"
    (validator / "validator.py").rename(validator / "check.py")
    (validator / "build").write_text("#!/bin/sh\nprintf '#!/bin/sh\\nexec python3 \"$(dirname \"$0\")/check.py\" \"$@\"\\n' > run\n")
    result = run_json(package, package / "submissions/accepted/exact.py")
    assert result["score"] == 20, result


# ---------------------------------------------------------------------------------------------
# Input validators

@pytest.mark.slow
def test_an_input_validator_rejecting_a_case_fails_judge_test(package_copy):
    package = package_copy("addition")
    (package / "data/secret/exact/02.in").write_text("seven 7\n")
    done = run_judge("test", str(package))
    assert done.returncode == 1
    assert "rejects secret/exact/02 (exit 43)" in done.stdout


# Recursion 200,000 deep with a 1 KiB frame: about 200 MiB of stack, far past a submission's
# 64 MiB (what BAPCtools' validate.h does with std::regex on a long line).
DEEP_VALIDATOR = """#include <cstdio>
#include <cstring>
static int depth(int n) { volatile char frame[1024]; memset((char *)frame, n & 0xff, sizeof frame);
                          return n == 0 ? frame[0] : depth(n - 1) + (frame[1] & 1); }
int main() { while (getchar() != EOF) {} return depth(200000) >= 0 ? 42 : 43; }
"""


def test_an_input_validator_has_the_stack_it_needs(package_copy):
    package = package_copy("addition")
    (package / "input_validators/validate.py").unlink()
    (package / "input_validators/deep.cpp").write_text(DEEP_VALIDATOR)
    done = run_judge("test", str(package))
    assert "input validator deep.cpp" in done.stdout and "accepts all" in done.stdout, done.stdout + done.stderr


@pytest.mark.slow
def test_an_input_validator_that_crashes_is_reported_as_crashing_not_rejecting(package_copy):
    package = package_copy("addition")
    (package / "input_validators/validate.py").write_text("import os, signal, sys\nsys.stdin.read()\n"
                                                           "os.kill(os.getpid(), signal.SIGSEGV)\n")
    done = run_judge("test", str(package))
    assert done.returncode == 1
    assert "crashed (killed by SIGSEGV" in done.stdout and "rejects" not in done.stdout, done.stdout


@pytest.mark.slow
def test_an_input_validator_exiting_0_is_a_package_error(package_copy):
    package = package_copy("addition")
    (package / "input_validators/validate.py").write_text("import sys\nsys.stdin.read()\n")
    done = run_judge("test", str(package))
    assert done.returncode == 2
    assert "validate.py: the input validator exited 0" in done.stderr


@pytest.mark.slow
def test_input_validator_flags_come_from_the_group(package_copy):
    package = package_copy("addition")
    (package / "input_validators/validate.py").write_text(
        "import sys\nsys.stdin.read()\nsys.exit(43 if sys.argv[1:] == ['strict'] else 42)\n")
    (package / "data/secret/exact/testdata.yaml").write_text("input_validator_flags: strict\n")
    done = run_judge("test", str(package))
    assert done.returncode == 1 and "rejects secret/exact/01" in done.stdout


# ---------------------------------------------------------------------------------------------
# Interactive problems

def test_interactive_package_verifies():
    done = run_judge("test", str(PACKAGES / "doubler"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "got TLE" in done.stdout and "got RE" in done.stdout and "sent 3, got 9" in done.stdout


def test_a_validator_that_rejects_first_wins_over_the_crash_that_follows(tmp_path):
    # The submission answers wrongly, then dies at once on the closed pipe (EOFError): WA, not RE.
    solution = tmp_path / "wrong_then_crash.py"
    solution.write_text("while True:\n    print(int(input()) + 1, flush=True)\n")
    result = run_json(PACKAGES / "doubler", solution)
    assert [case["verdict"] for case in result["cases"]] == ["WA", "WA"]


def test_a_crash_after_the_validator_accepted_is_still_a_crash(tmp_path):
    solution = tmp_path / "crash_after.py"
    solution.write_text("while True:\n    n = int(input())\n    if n == 0:\n        break\n"
                        "    print(2 * n, flush=True)\nraise SystemExit(5)\n")
    result = run_json(PACKAGES / "doubler", solution)
    assert [case["verdict"] for case in result["cases"]] == ["RE", "RE"]


def test_an_interactive_validator_failure_is_the_judges_fault(package_copy):
    package = package_copy("doubler")
    (package / "output_validator/validator.py").write_text("raise SystemExit(1)\n")
    result = run_json(package, package / "submissions/accepted/doubles.py")
    assert {case["verdict"] for case in result["cases"]} == {"IE"}


PSEUDO_VALIDATOR = '''"""Sends every number, closes its output, then reads all the answers (a pseudo-interaction)."""
import os
import sys

numbers = open(sys.argv[1]).read().split()[1:]
for number in numbers:
    print(number)
sys.stdout.flush()
os.close(1)  # (sys.stdout.close() would leave the descriptor open)
answers = sys.stdin.read().split()
sys.exit(42 if answers == [str(2 * int(number)) for number in numbers] else 43)
'''


@pytest.mark.parametrize("tier", [*(["root"] if os.geteuid() == 0 else []), "bwrap", pytest.param("unshare", marks=pytest.mark.xfail(
    strict=True, reason="unshare's own parent process keeps every descriptor it was given: the submission "
                        "gets end of file only when the validator's sandbox ends")), "none"])
def test_a_validator_closing_its_output_is_the_submissions_end_of_file(package_copy, tmp_path, tier):
    package = package_copy("doubler")
    (package / "output_validator/validator.py").write_text(PSEUDO_VALIDATOR)
    solution = tmp_path / "until_eof.py"
    solution.write_text("import sys\nprint(*(2 * int(line) for line in sys.stdin), sep='\\n')\n")
    done = run_judge("run", str(package), str(solution), "--format", "json", "--no-record",
                     env={"JUDGE_SANDBOX": tier})
    assert [case["verdict"] for case in json.loads(done.stdout)["cases"]] == ["AC", "AC"], done.stdout


def test_output_after_the_validator_accepted_is_dropped_not_a_crash(package_copy, tmp_path):
    # A validator that accepts without reading to the end: what the submission writes after it
    # ended must not kill it with SIGPIPE (RE); BAPCtools' runner reads and drops it too.
    package = package_copy("doubler")
    validator = package / "output_validator/validator.py"
    validator.write_text(validator.read_text().replace('if sys.stdin.read().strip():\n    reject("trailing output")\n',
                                                       ""))
    solution = tmp_path / "chatty.c"
    solution.write_text('#include <stdio.h>\n#include <unistd.h>\nint main(void) { long n;\n'
                        '  while (scanf("%ld", &n) == 1 && n) { printf("%ld\\n", 2 * n); fflush(stdout); }\n'
                        '  usleep(200000);  /* the validator has accepted and ended by now */\n'
                        '  for (int i = 0; i < 20000; i++) printf("extra output %d\\n", i);\n  return 0; }\n')
    result = run_json(package, solution)
    assert [case["verdict"] for case in result["cases"]] == ["AC", "AC"], result


def test_the_output_validator_is_built_before_the_input_validators_run(package_copy, cache, monkeypatch):
    """Every case of every submission waits for the output validator, so `judge test` builds it
    before the package's other checks, which report it in its place as ever."""
    from judge.formats.icpc import verify
    from judge.formats.icpc.loading import load_package

    problem = load_package(package_copy("multiplier"))
    built_by_then = []
    check_inputs = verify.check_input_validators
    monkeypatch.setattr(verify, "check_input_validators",
                        lambda package: built_by_then.append(problem.task.validator._program is not None)
                        or check_inputs(package))
    checks = [check.what for check in verify._package_checks(problem)]
    assert built_by_then == [True]
    assert checks.index("input validator validate.py") < checks.index("output validator")


def test_a_broken_part_is_named_before_the_time_limit_it_leaves_no_way_to_infer(package_copy):
    """The package's checks run beside the time limit's inference: when both fail (an input
    validator that does not build, and no accepted submission), the broken part is named."""
    package = package_copy("closest")
    (package / "problem.yaml").write_text((package / "problem.yaml").read_text().replace("  time_limit: 2\n", ""))
    shutil.rmtree(package / "submissions" / "accepted")
    (package / "input_validators").mkdir()
    (package / "input_validators" / "validate.py").write_text("def broken(:\n")
    done = run_judge("test", str(package))
    assert done.returncode == 2, done.stdout
    assert "the input validator does not build" in done.stderr and "Traceback" not in done.stderr


def test_a_validator_that_does_not_build_ends_the_command_before_the_limit_is_inferred(package_copy):
    """The checks run beside the accepted runs: the broken validator ends `judge test` when it
    is found, and the accepted submissions still queued (all but as many as there are cores) never start."""
    package = package_copy("addition")
    (package / ".timelimit").unlink()
    shutil.rmtree(package / "submissions" / "accepted")
    (package / "submissions" / "accepted").mkdir()
    for number in range(1, 9):
        (package / "submissions" / "accepted" / f"slow{number}.py").write_text(
            "import time\ntime.sleep(1)\na, b = map(float, input().split())\nprint(a + b)\n")
    (package / "input_validators" / "validate.py").write_text("def broken(:\n")
    done = run_judge("test", str(package))
    assert done.returncode == 2, done.stdout
    assert "the input validator does not build" in done.stderr and "Traceback" not in done.stderr
    assert "(8/8" not in done.stderr


# ---------------------------------------------------------------------------------------------
# Validators as the formats' tools write them: checktestdata, VIVA, BAPCtools' validation.h

def _rows(done) -> dict[str, str]:
    """judge test's lines by what they check."""
    return {line.split("  ")[1]: line for line in done.stdout.splitlines() if "  " in line}


def test_a_checktestdata_validator_is_run(package_copy):
    package = package_copy("tool_sum")
    shutil.rmtree(package / "input_validators/bounds")  # the grammar alone decides
    done = run_judge("test", str(package))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "format.ctd  ok  accepts all 3 inputs" in _rows(done)["input validator format.ctd"]
    assert "input validators on invalid_input  ok  rejects all 1 invalid inputs" in done.stdout
    (package / "data/secret/3.in").write_text("1001 1\n")  # past the grammar's bound
    (package / "data/secret/3.ans").write_text("1002\n")
    done = run_judge("test", str(package))
    assert done.returncode == 1, done.stdout + done.stderr
    row = _rows(done)["input validator format.ctd"]
    assert "FAIL  rejects secret/3 (exit 43)" in row and "1001" in row, row


def test_a_checktestdata_grammar_that_does_not_parse_is_a_validator_that_does_not_build(package_copy):
    package = package_copy("tool_sum")
    (package / "input_validators/format.ctd").write_text("INT(0, 10 NEWLINE\n")
    done = run_judge("test", str(package))
    assert done.returncode == 2, done.stdout + done.stderr
    assert "format.ctd: the input validator does not build: format.ctd: unexpected token at 1:11 'NEWLINE'" \
        in done.stderr


def test_checktestdata_validators_take_the_packages_constants(package_copy):
    package = package_copy("tool_sum")
    (package / "problem.yaml").write_text((package / "problem.yaml").read_text() + "constants:\n  most: 998\n")
    (package / "input_validators/format.ctd").write_text("INT(-1000, {{most}}) SPACE INT(-1000, 1000) NEWLINE\n")
    done = run_judge("test", str(package))
    assert "format.ctd  FAIL  rejects secret/2 (exit 43)" in done.stdout, done.stdout + done.stderr


def test_a_viva_validator_is_not_checked_and_strict_fails_on_it(package_copy):
    package = package_copy("tool_sum")
    (package / "input_validators/format.viva").write_text("* a, b;\n")
    done = run_judge("test", str(package))
    assert done.returncode == 0, done.stdout + done.stderr
    row = _rows(done)["input validator format.viva"]
    assert "not checked  this judge does not run VIVA validators (.viva)" in row and " ok " not in row
    assert done.stdout.rstrip().endswith("passed, 0 failed, 1 not checked: this judge does not run VIVA validators")
    strict = run_judge("test", "--strict", str(package))
    assert strict.returncode == 1, strict.stdout + strict.stderr


BAPCTOOLS_LINK = "../../../../bapctools/resources/headers/validation.h"  # as `bt new_problem` makes it


@pytest.fixture
def bapctools_package(package_copy):
    """tool_sum inside a BAPCtools checkout's layout, its validator's validation.h a link to
    BAPCtools' copy, outside the package (here a file no validator could build with)."""
    package = package_copy("tool_sum")
    contest = package.parent / "bapctools/test/problems"
    contest.mkdir(parents=True)
    package = package.rename(contest / "tool_sum")
    theirs = contest.parent.parent / "bapctools/resources/headers/validation.h"
    theirs.parent.mkdir(parents=True)
    theirs.write_text("#error this is not the copy the judge compiles with\n")
    (package / "input_validators/bounds/validation.h").symlink_to("../../../../" + BAPCTOOLS_LINK)
    return package


@pytest.mark.slow
def test_validation_h_linked_out_of_the_package_is_bapctools_copy(bapctools_package, tier, cache):
    done = run_judge("test", str(bapctools_package))  # built afresh in each tier (an empty cache)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "input validator bounds  ok  accepts all 3 inputs" in done.stdout
    assert "rejects all 1 invalid inputs" in done.stdout  # validation.h's own checks ran


def test_validation_h_linked_to_nowhere_or_missing_is_supplied(package_copy, tmp_path):
    package = package_copy("tool_sum")
    (package / "input_validators/bounds/validation.h").symlink_to(BAPCTOOLS_LINK)  # the package copied alone
    assert not (package / "input_validators/bounds/validation.h").exists()
    done = run_judge("test", str(package))
    assert done.returncode == 0 and "input validator bounds  ok" in done.stdout, done.stdout + done.stderr
    # A validator of one file, with no header beside it at all.
    (package / "input_validators/bounds/bounds.cpp").rename(package / "input_validators/bounds.cpp")
    shutil.rmtree(package / "input_validators/bounds")
    done = run_judge("test", str(package))
    assert done.returncode == 0 and "input validator bounds.cpp  ok" in done.stdout, done.stdout + done.stderr


def test_a_validators_own_validation_h_wins(package_copy):
    package = package_copy("tool_sum")
    (package / "input_validators/bounds/validation.h").write_text(
        "#include <cstdlib>\n#include <string>\n"
        "struct InputValidator {\n  InputValidator(int, char**) { std::exit(43); }\n"
        "  long long read_integer(const std::string&, long long, long long) { return 0; }\n"
        "  void space() {}\n  void newline() {}\n};\n")
    done = run_judge("test", str(package))
    assert "input validator bounds  FAIL  rejects sample/1 (exit 43)" in done.stdout, done.stdout + done.stderr


def test_a_missing_testlib_h_says_where_to_get_it(package_copy):
    package = package_copy("tool_sum")
    (package / "input_validators/bounds/bounds.cpp").write_text(
        '#include "testlib.h"\nint main(int argc, char* argv[]) { registerValidation(argc, argv); inf.readEof(); }\n')
    done = run_judge("test", str(package))
    assert done.returncode == 2, done.stdout + done.stderr
    assert "testlib.h is not in the package: copy it from https://github.com/MikeMirzayanov/testlib" in done.stderr


def test_answer_validators_are_run_on_every_answer(package_copy):
    package = package_copy("tool_sum")
    folder = package / "answer_validators"
    folder.mkdir()
    (folder / "range.ctd").write_text("INT(-2000, 2000) NEWLINE\n")  # reads the answer alone
    (folder / "is_sum.py").write_text(  # the case's input is its first argument, the answer its stdin
        "import sys\na, b = map(int, open(sys.argv[1]).read().split())\n"
        "sys.exit(42 if int(sys.stdin.read()) == a + b else 43)\n")
    done = run_judge("test", str(package))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = _rows(done)
    assert "ok  accepts all 3 answers" in rows["answer validator range.ctd"]
    assert "ok  accepts all 3 answers" in rows["answer validator is_sum.py"]
    (package / "data/secret/2.ans").write_text("1999\n")
    done = run_judge("test", str(package))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "answer validator is_sum.py  FAIL  rejects secret/2 (exit 43)" in done.stdout
    assert "answer validator range.ctd  ok" in done.stdout


def test_translating_a_checktestdata_grammar_keeps_the_judges_limit_on_an_ints_digits():
    """The checktestdata package lifts the interpreter's limit on an int's digits when imported;
    the judge's own process keeps it, since it bounds what reading a returned value costs."""
    import sys

    from judge.formats.icpc.checktestdata import translate
    from judge.model.returned_value import UnreadableValue, decode_returned_value

    before = sys.get_int_max_str_digits()
    assert "def " in translate("sum.ctd", b"INT(1, 10) NEWLINE EOF")
    assert sys.get_int_max_str_digits() == before
    with pytest.raises(UnreadableValue, match="not JSON"):
        decode_returned_value("1" * 5000)
