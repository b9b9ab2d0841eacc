"""`judge grade` keeps what reports need of each case (verdict, message, an excerpt of a sample
case's output), never whole outputs: a class printing megabytes costs the judge no more memory
than a class printing nothing. Measured on the real command, as the kernel counts it."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT, run_judge
from test_grading import make_class

STUDENTS = 12
# Prints the right answer followed by a line of 1 MiB less a little: just under the output
# limit of stones (1 MiB), so every case is WA after the whole output is compared.
VERBOSE = r"""
#include <stdio.h>
int main(void) {
    int n;
    if (scanf("%d", &n) != 1) return 1;
    fputs(n % 2 ? "SK" : "CY", stdout);
    for (int i = 0; i < (1 << 19) - 600; i++) fputs(" 1", stdout);
    putchar('\n');
    return 0;
}
"""
MEASURE = ("import resource, subprocess, sys\n"
           "done = subprocess.run([sys.executable, '-m', 'judge', *sys.argv[1:]], stdout=subprocess.PIPE,\n"
           "                      stderr=subprocess.DEVNULL)\n"
           "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, done.returncode)\n"
           "sys.stderr.write(done.stdout.decode())\n")


def test_grading_a_class_printing_megabytes_holds_no_outputs(tmp_path):
    folder = make_class(tmp_path / "subs", {f"s{index:02}/stones.c": VERBOSE for index in range(STUDENTS)})
    # Compiled once beforehand, so that the measure below is the judge's (and its runs'), not gcc's.
    run_judge("run", "stones", str(folder / "s00" / "stones.c"), "--case", "smallest", "--no-record")
    done = subprocess.run([sys.executable, "-c", MEASURE, "grade", str(folder), "--db", str(tmp_path / "r.db"),
                           "-j", "2", "--format", "json"], cwd=ROOT, capture_output=True, text=True, check=False,
                          timeout=600)
    peak_kib, returncode = map(int, done.stdout.split())
    report = json.loads(done.stderr)
    assert returncode == 0
    assert [student["problems"]["stones"]["verdict"] for student in report["students"]] == ["WA"] * STUDENTS
    # Whole outputs kept would be 12 x 22 x 1 MiB = 264 MiB on top of the judge's own ~60 MiB.
    assert peak_kib < 150 * 1024, f"peak resident memory {peak_kib // 1024} MiB"


def test_results_keep_an_excerpt_of_sample_outputs_only_unless_asked_for_everything(tmp_path):
    from judge.formats.catalog import load_problem
    from judge.runner import OUTPUT_EXCERPT_CHARS, judge_submission
    stones = load_problem("stones")
    source = tmp_path / "verbose.c"
    source.write_text(VERBOSE)
    cases = [stones.case("sample-1"), stones.case("smallest")]
    lean = {case.visibility: case for case in judge_submission(stones, source, cases=cases, keep_output=False).cases}
    assert lean["sample"].output == lean["hidden"].output == ""
    assert len(lean["sample"].output_excerpt) == OUTPUT_EXCERPT_CHARS
    assert lean["sample"].output_excerpt.startswith(("SK 1 1", "CY 1 1"))
    assert lean["hidden"].output_excerpt == ""
    whole = judge_submission(stones, source, cases=cases).cases  # what `judge stress` relies on
    assert all(len(case.output) > 1_000_000 for case in whole)
