"""Test data made from BAPCtools' generators/generators.yaml: the plan (names, seeds, faults) and
the data made from it in the sandbox (answers by the solution, validation, determinism, the
cache), through `judge test`, `judge run` and `judge generate`."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, run_judge

from judge.errors import SuiteError
from judge.formats.icpc.generators import read_plan, seed_of
from judge.formats.icpc.loading import load_package
from judge.formats.icpc.package import PackageError

PACKAGE = ROOT / "tests" / "packages" / "generated_sum"
NAMES = ["sample/1", "sample/2", "secret/handmade", "secret/nested/3-pair", "secret/nested/4-pair",
         "secret/random-1", "secret/random-2", "secret/random-3", "secret/repeated/3-pair", "secret/repeated/4-pair",
         "secret/repeated/handmade", "secret/spelled"]


@pytest.fixture
def package(tmp_path) -> Path:
    target = tmp_path / "generated_sum"
    shutil.copytree(PACKAGE, target)
    return target


def write_generators(package: Path, text: str) -> None:
    (package / "generators" / "generators.yaml").write_text(text)


def test_seeds_are_bapctools_own():
    # Values BAPCtools gives circles' `rand.py {seed:1}` with count 10 (its first and second case):
    # the count shows in the hash from the second case on, as count - 1.
    assert seed_of("rand.py {seed:1}", "", 1) == 1234641824
    assert seed_of("rand.py {seed:1}", "", 2) == 1910664551
    assert seed_of(" rand.py {seed:1} ", "", 1) == 1234641824  # stripped
    assert seed_of("rand.py {seed:1}", "salt", 1) != seed_of("rand.py {seed:1}", "", 1)
    assert seed_of("rand.py {seed:2}", "", 1) != seed_of("rand.py {seed:1}", "", 1)


def test_the_plan_names_cases_as_bapctools_does():
    plan = read_plan(PACKAGE, None)
    assert sorted(case.name for case in plan.cases) == NAMES  # made in the order of the file
    random_2 = next(case for case in plan.cases if case.name == "secret/random-2")
    assert random_2.command.text == "small.py {seed} 2"  # {count} filled in
    assert random_2.command.arguments(random_2.seed) == [str(seed_of("small.py {seed} 2", "", 2)), "2"]
    assert random_2.solution == "/submissions/accepted/sum.py"
    assert plan.generators == {"pair": ("pair.py", "bounds.py")}


def test_numbered_lists_share_one_counter_padded_to_the_whole_tree(package):
    # circles' generators.yaml: two samples, then ten counted cases: 12 cases, two digits.
    write_generators(package, "data:\n  sample:\n    data:\n      - '': {in: '1 2', ans: '3'}\n"
                              "      - '': {in: '2 2', ans: '4'}\n"
                              "  secret:\n    data:\n      - large:\n          generate: small.py {seed:1} 3\n"
                              "          count: 10\n")
    names = [case.name for case in read_plan(package, None).cases]
    assert names[:3] == ["sample/01", "sample/02", "secret/03-large-01"]
    assert names[-1] == "secret/12-large-10" and len(names) == 12


@pytest.mark.parametrize(("text", "message"), [
    ("data:\n  secret:\n    data:\n      a: missing.py 1\n", r"secret/a: `missing.py 1`: the generator generators/missing.py does not exist"),
    ("data:\n  secret:\n    data:\n      a: {generate: small.py 1, count: 500}\n", r"secret: count: 500; it must be between 1 and 100"),
    ("data:\n  secret:\n    data:\n      a: {copy: manual/none}\n", r"secret/a: copy: manual/none: no generators/manual/none.in"),
    ("data:\n  secret:\n    data:\n      a: {in: 12}\n", r"secret/a: in: expected a string \(quote numbers: '1'\)"),
    ("data:\n  public:\n    data: {}\n", r"data: unknown top-level directory 'public'"),
    ("data:\n  secret:\n    include: [nothing]\n", r"secret: include: 'nothing' is no earlier test case or group"),
    ("solution: sol.py\ndata: {}\n", r"solution must be a path from the package root"),
    ("solution: /../generated_sum/problem.yaml\ndata: {}\n", r"solution must be a path from the package root"),
    ("data: [\n", r"generators.yaml"),
    ("data:\n  secret:\n    data:\n      a: small.py {seeed}\n", r"secret/a: `small.py \{seeed\}`: unknown placeholder"),
    ("data:\n  secret:\n    data:\n      a:\n", r"secret/a: no value, and data/secret/a.in does not exist"),
])
def test_faults_in_generators_yaml_are_errors_naming_the_entry(package, text, message):
    write_generators(package, text)
    with pytest.raises(SuiteError, match=message):  # a GeneratorsError, or (bad YAML) the YAML reader's
        read_plan(package, None)


GENERATORS_FORMS = ROOT / "tests" / "packages" / "generators_forms"


@pytest.mark.parametrize("name", ["every_form", "folder_dependencies", "generator_in_a_folder"])
def test_every_form_of_a_valid_generators_yaml_is_read(name):
    """generators.yaml files in every form BAPCtools accepts (tests/packages/generators_forms), with
    the generators they name: each loads."""
    plan = read_plan(GENERATORS_FORMS / name, None)
    commands = {case.name: case.command for case in plan.cases}
    if name == "every_form":  # {count} without count: is 1; count: lists, negative ranges, spelled-out files
        assert commands["secret/once"].args == ("1",)
        assert commands["secret/span-below--12"].args == ("-12",) and commands["secret/mixed--4"].args == ("-4",)
        assert commands["secret/more-braces-3"].args[-4:] == ("--first", "3", "--again", "3")
        assert commands["secret/copied-1"] is None and "secret/numbered/1-test_group" in commands
        assert {"invalid_input/4", "invalid_answer/3", "invalid_output/2"} <= set(commands)
        assert len(plan.cases) == 296 and not plan.warnings
    elif name == "folder_dependencies":  # a declared generator's files may be folders
        assert plan.generators == {"maker": ("tools", "tools/make.py", "tools/lib/sizes.txt", "tools/lib")}
    else:
        assert commands["secret/path"].program == "walk/walk.py" and "1" in commands["secret/path"].args


def test_a_case_with_no_value_is_the_case_data_holds_as_it_is(cache, package):
    """GCPC 2025's jinxedjewelry writes its hand-made sample as `'1':` with no value (the
    generators.yaml draft's manual case): the case is data/sample/1 as it is, said in a warning."""
    write_generators(package, "solution: /submissions/accepted/sum.py\ndata:\n  sample:\n    data:\n      '1':\n"
                              "  secret:\n    data:\n      - '': {in: '4 5'}\n")
    (package / "data" / "sample").mkdir(parents=True)
    (package / "data" / "sample" / "1.in").write_text("20 22\n")
    (package / "data" / "sample" / "1.ans").write_text("42\n")
    problem = load_package(package)
    cases = {case.name: case for case in problem.cases}
    assert (cases["sample/1"].input, cases["sample/1"].expected) == ("20 22\n", "42\n")
    assert cases["secret/1"].expected == "9\n"
    assert any("sample/1: no value: the case is data/sample/1 as it is" in warning
               for warning in problem.package.generated.warnings)


def test_a_count_for_a_command_that_cannot_vary_is_a_warning(package):
    write_generators(package, "data:\n  secret:\n    data:\n      a: {generate: small.py 1 2, count: 3}\n")
    plan = read_plan(package, None)
    assert len(plan.cases) == 3
    assert plan.warnings == [("generators.yaml: secret/a-1: count: makes the same case each time: the command "
                              "`small.py 1 2` uses neither {seed} nor {count}")]


def test_an_unknown_key_is_a_warning(package):
    write_generators(package, "data:\n  secret:\n    data:\n      a: {in: '1 2', visualize: 'yes'}\n")
    plan = read_plan(package, None)
    assert [case.name for case in plan.cases] == ["secret/a"]
    assert plan.warnings and "secret/a: unknown key 'visualize' ignored" in plan.warnings[0]


def test_the_data_are_made_answered_and_loaded(cache):
    problem = load_package(PACKAGE)
    cases = {case.name: case for case in problem.cases}
    assert list(cases) == NAMES
    assert (cases["sample/1"].input, cases["sample/1"].expected) == ("1 2\n", "3\n")  # hard-coded
    assert cases["secret/handmade"].expected == "2000000000\n"  # copied with its .ans
    assert cases["secret/spelled"].expected == "0\n"  # answered by the solution
    for name in ("sample/2", "secret/random-1", "secret/nested/3-pair"):  # stdout, and testcase.in
        a, b = map(int, cases[name].input.split())
        assert cases[name].expected == f"{a + b}\n"
    assert cases["secret/nested/3-pair"].input != cases["secret/nested/4-pair"].input  # {seed:1}, {seed:2}
    for name in ("handmade", "nested/3-pair"):  # include: repeats a case, or a group's cases, by key
        again = cases[f"secret/repeated/{name.rpartition('/')[2]}"]
        assert (again.input, again.expected) == (cases[f"secret/{name}"].input, cases[f"secret/{name}"].expected)
    assert problem.package.generated.folder.is_relative_to(cache)


def test_generated_data_are_cached_and_made_again_when_a_generator_changes(cache, package):
    first = load_package(package).package.generated.folder
    marker = first / "secret" / "spelled.ans"
    marker.write_text("from the cache\n")
    again = load_package(package)
    assert again.package.generated.folder == first  # not made again
    assert {case.name: case.expected for case in again.cases}["secret/spelled"] == "from the cache\n"
    small = package / "generators" / "small.py"
    small.write_text(small.read_text().replace("scale = 10 *", "scale = 100 *"))
    changed = load_package(package)
    assert changed.package.generated.folder != first
    assert {case.name: case.expected for case in changed.cases}["secret/spelled"] == "0\n"


def test_a_generator_that_is_not_deterministic_is_an_error(cache, package):
    (package / "generators" / "small.py").write_text("import os\nprint(int.from_bytes(os.urandom(4), 'big'), 1)\n")
    with pytest.raises(PackageError, match=r"sample/2 \(`small.py 5 7`\): the generator is not deterministic"):
        load_package(package)


def test_a_generator_that_crashes_is_an_error_naming_the_case_and_command(cache, package):
    (package / "generators" / "small.py").write_text("import sys\nraise SystemExit(f'no such size {sys.argv[2]}')\n")
    with pytest.raises(PackageError, match=r"sample/2 \(`small.py 5 7`\): the generator exited 1: no such size 7"):
        load_package(package)


def test_an_input_the_validator_rejects_is_an_error(cache, package):
    text = (package / "generators" / "generators.yaml").read_text()
    write_generators(package, text.replace('in: "-5 5"', 'in: "-5"'))
    with pytest.raises(PackageError, match=r"secret/spelled \(hard-coded in\): the input validator validate.py "
                                           r"rejects it \(exit 43\): expected one line of two integers"):
        load_package(package)


def test_a_validator_exiting_0_is_told_what_the_exit_statuses_mean(cache, package):
    (package / "input_validators" / "validate.py").write_text("import sys\nsys.stdin.read()\n")
    with pytest.raises(PackageError, match=r"validate.py rejects it \(exit 0\); input validators exit 42 for "
                                           r"a valid input and 43 for an invalid one"):
        load_package(package)


def test_a_solution_that_crashes_is_an_error(cache, package):
    (package / "submissions" / "accepted" / "sum.py").write_text("raise ValueError('cannot add')\n")
    with pytest.raises(PackageError, match=r"sample/2 .*: the solution /submissions/accepted/sum.py exited 1: "
                                           r"ValueError: cannot add"):
        load_package(package)


def test_without_a_solution_the_first_accepted_submission_answers(cache, package):
    text = (package / "generators" / "generators.yaml").read_text()
    write_generators(package, text.replace("solution: /submissions/accepted/sum.py\n", ""))
    plan = read_plan(package, "/submissions/accepted/sum.py")
    assert {case.solution for case in plan.cases if not case.included} == {"/submissions/accepted/sum.py"}
    assert {case.name: case.expected for case in load_package(package).cases}["secret/spelled"] == "0\n"


def test_judge_test_and_run_use_the_generated_data(cache):
    env = {"JUDGE_CACHE": str(cache)}
    shown = run_judge("show", str(PACKAGE), env=env)
    assert "Test data: to be made from generators/generators.yaml" in shown.stdout  # showing runs nothing
    done = run_judge("test", str(PACKAGE), env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "generated data  ok  12 cases made by generators/generators.yaml" in done.stdout
    assert "input validator validate.py  ok  accepts all 12 inputs" in done.stdout
    wrong = run_judge("run", str(PACKAGE), str(PACKAGE / "submissions/wrong_answer/difference.py"), "--no-record",
                      env=env)
    assert wrong.returncode == 1 and "0/12 cases passed" in wrong.stdout


def test_judge_generate_writes_the_data_tree(cache, tmp_path):
    out = tmp_path / "data"
    done = run_judge("generate", str(PACKAGE), "--out", str(out), env={"JUDGE_CACHE": str(cache)})
    assert done.returncode == 0, done.stderr
    assert "secret/random-1  `small.py {seed} 1` (seed " in done.stdout
    assert f"wrote 24 files (12 cases) to {out}" in done.stdout
    assert (out / "secret/nested/3-pair.in").is_file() and (out / "secret/handmade.ans").read_text() == "2000000000\n"
    again = run_judge("generate", str(PACKAGE), "--out", str(out), env={"JUDGE_CACHE": str(cache)})
    assert again.returncode == 2 and "is not an empty folder" in again.stderr and "Traceback" not in again.stderr


def test_judge_generate_refuses_a_problem_without_generators(cache):
    done = run_judge("generate", str(ROOT / "tests/packages/addition"), env={"JUDGE_CACHE": str(cache)})
    assert done.returncode == 2 and "no generators/generators.yaml to make the test data from" in done.stderr


def test_an_input_that_does_not_match_its_pattern_is_an_error(cache, package):
    text = (package / "generators" / "generators.yaml").read_text()
    write_generators(package, text.replace('in: "-5 5"', 'in: "-5 5"\n        match: "^-5 [0-9]+$"\n'))
    assert {case.name: case.input for case in load_package(package).cases}["secret/spelled"] == "-5 5\n"
    write_generators(package, text.replace('in: "-5 5"', 'in: "-5 5"\n        match: {ans: "^1"}\n'))
    with pytest.raises(PackageError, match=r"secret/spelled \(hard-coded in\): its .ans does not match '\^1'"):
        load_package(package)


def test_a_hidden_failure_gets_a_counterexample_from_the_packages_own_generators():
    # The search makes fresh cases with the seeded generators, with seeds of the judge's own.
    package = PACKAGE
    wrong = package / "submissions" / "wrong_answer" / "difference.py"
    done = run_judge("run", str(package), str(wrong), "--format", "json", "--no-record", "--explain", "30")
    result = json.loads(done.stdout)
    example = result["counterexample"]
    assert example is not None, result["counterexample_note"]
    hidden = {case.input.strip() for case in load_package(package).cases if case.visibility != "sample"}
    assert example["input"].strip() not in hidden
    a, b = map(int, example["input"].split())
    assert int(example["expected"]) == a + b and int(example["got"]) == a - b and example["verdict"] == "WA"


def test_stress_on_a_package_uses_its_seeded_generators():
    wrong = run_judge("stress", str(PACKAGE), str(PACKAGE / "submissions/wrong_answer/difference.py"), "--format", "json")
    assert wrong.returncode == 1, wrong.stderr
    example = json.loads(wrong.stdout)["counterexample"]
    a, b = map(int, example["input"].split())
    assert int(example["expected"]) == a + b and int(example["got"]) == a - b
    again = run_judge("stress", str(PACKAGE), str(PACKAGE / "submissions/wrong_answer/difference.py"), "--format", "json")
    assert json.loads(again.stdout)["counterexample"]["input"] == example["input"]  # the same seed, the same input
    right = run_judge("stress", str(PACKAGE), str(PACKAGE / "submissions/accepted/sum.py"), "--examples", "6",
                      "--format", "json")
    assert right.returncode == 0 and json.loads(right.stdout)["examples_run"] == 6
    saving = run_judge("stress", str(PACKAGE), str(PACKAGE / "submissions/wrong_answer/difference.py"), "--save")
    assert saving.returncode == 2 and "is a problem package" in saving.stderr


def test_a_generator_that_never_ends_ran_out_of_time(package, tmp_path):
    """Stopped at problem.yaml's validation_time (by the judge, or the kernel's CPU limit just
    over it: SIGXCPU), a generator ran out of time; it did not crash."""
    yaml_path = package / "problem.yaml"
    yaml_path.write_text(yaml_path.read_text() + "  validation_time: 1\n")
    (package / "generators" / "pair.py").write_text("while True:\n    pass\n")
    done = run_judge("generate", str(package), "--out", str(tmp_path / "data"))
    assert done.returncode == 2, done.stdout + done.stderr
    assert "ran out of time (1 s of CPU, problem.yaml's limits.validation_time)" in done.stderr, done.stderr
    assert "crashed" not in done.stderr


def test_an_input_validator_linked_as_a_generator_generates(cache, package):
    """BAPCtools' validation.h validates, or generates when its argv[0] holds "generat" (BAPCtools
    runs a generator as .../generators/NAME/run); packages link `generators/generator` to their
    input validator's folder and use it both ways."""
    folder = package / "input_validators" / "two_ways"
    folder.mkdir()
    (folder / "two_ways.c").write_text(
        '#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n'
        'int main(int argc, char **argv) {\n'
        '    if (strstr(argv[0], "generat")) { printf("%d 1\\n", atoi(argv[1]) % 100); return 0; }\n'
        '    int a, b; return scanf("%d %d", &a, &b) == 2 ? 42 : 43;\n}\n')
    (package / "generators" / "generator").symlink_to("../input_validators/two_ways/")
    write_generators(package, "solution: /submissions/accepted/sum.py\ndata:\n  sample:\n    data: []\n"
                              "  secret:\n    data:\n      - both: generator {seed:1}\n")
    cases = {case.name: case for case in load_package(package).cases}
    assert list(cases) == ["secret/1-both"]
    number = int(cases["secret/1-both"].input.split()[0])
    assert cases["secret/1-both"].expected == f"{number + 1}\n"


def test_judge_test_says_when_committed_data_stand_in_for_generators_yaml(cache, package):
    secret = package / "data" / "secret"
    secret.mkdir(parents=True)
    (secret / "committed.in").write_text("2 2\n")
    (secret / "committed.ans").write_text("4\n")
    done = run_judge("test", str(package))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "generated data  ok  warning: generators/generators.yaml is not run: data/secret holds cases" in done.stdout
    assert "package loads  ok  1 cases" in done.stdout  # the committed one: nothing generated


def test_a_hand_written_file_a_generated_case_replaces_is_a_warning(cache, package):
    sample = package / "data" / "sample"
    sample.mkdir(parents=True)
    (sample / "1.in").write_text("40 2\n")  # generators.yaml makes sample/1 (1 2) too
    (sample / "1.ans").write_text("42\n")
    (sample / "hand.in").write_text("3 4\n")
    (sample / "hand.ans").write_text("7\n")
    problem = load_package(package)
    cases = {case.name: case for case in problem.cases}
    assert cases["sample/1"].input == "1 2\n" and cases["sample/hand"].input == "3 4\n"
    assert ("sample/1: the generated .in, .ans replace data/sample/1 as written there (as bt generate would); rename "
            "one of them to keep both") in problem.package.generated.warnings


def test_a_large_counterexample_is_shown_in_part_and_whole_in_json():
    """A package's generators may make inputs of megabytes: the table shows the first lines of
    the input and the lines around the first difference of the outputs, and says where the rest is."""
    from judge.authoring.stress import Counterexample, StressResult
    from judge.commands.stress_command import render_stress

    problem = load_package(PACKAGE)
    big_input = "".join(f"{n} {n}\n" for n in range(5000))
    expected = "".join(f"{2 * n}\n" for n in range(5000))
    got = expected.replace("\n7000\n", "\n7001\n")
    result = StressResult("generated_sum", "wrong.py", 1, True, Counterexample(big_input, expected, got, "WA", "wrong"),
                          shrunk=False)
    shown = render_stress(result, problem, None, 10)
    assert len(shown) < 6000 and "0 0" in shown and "4999 4999" not in shown
    assert "> 3501 | 7001" in shown and "(shown in part: `--format json` gives the whole of each)" in shown
    small = StressResult("generated_sum", "wrong.py", 1, True, Counterexample("1 2\n", "3\n", "-1\n", "WA", "wrong"))
    assert "1 2\n\nexpected:\n3\n\ngot:\n-1\n" in render_stress(small, problem, None, 10)
    assert json.loads(json.dumps(result.to_json(problem.task)))["counterexample"]["input"] == big_input


def test_a_generator_that_waits_is_told_it_ran_out_of_wall_time(package, tmp_path):
    """A generator that sleeps spends no CPU: what stopped it is the wall clock, and the message
    gives that clock's seconds, not the CPU limit's."""
    yaml_path = package / "problem.yaml"
    yaml_path.write_text(yaml_path.read_text() + "  validation_time: 1\n")
    (package / "generators" / "pair.py").write_text("import time\ntime.sleep(600)\n")
    done = run_judge("generate", str(package), "--out", str(tmp_path / "data"))
    assert done.returncode == 2, done.stdout + done.stderr
    said = re.search(r"ran out of time \(still running after (\d+) s of wall time, the clock allowed with 1 s of CPU, "
                     r"problem.yaml's limits.validation_time\)", done.stderr)
    assert said and int(said.group(1)) > 1, done.stderr
