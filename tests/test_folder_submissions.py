"""A folder submission (`judge run PKG DIR --student S`) is read without following symbolic links
and within its caps (judge/languages/folder.py): a link to the package's secret answers, to a
folder, a 3 GiB sparse file or a folder of too many files is refused before anything runs."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import ROOT, run_judge

from judge.errors import RefusedSubmission
from judge.languages.folder import FOLDER_MAX_BYTES, FOLDER_MAX_FILES, _read_file, _Budget, read_folder

PACKAGE = ROOT / "tests" / "packages" / "addition"
SECRET = PACKAGE / "data" / "secret" / "exact" / "01.ans"
# Prints the file next to it: what a linked secret would show in every case's message.
PRINTER = 'import os\nprint(open(os.path.join(os.path.dirname(__file__), "answers.txt")).read())\n'


def folder_with(tmp_path, **links) -> os.PathLike:
    folder = tmp_path / "eve"
    folder.mkdir()
    (folder / "main.py").write_text(PRINTER)
    for name, target in links.items():
        (folder / name).symlink_to(target)
    return folder


def judge_run_as_student(folder) -> subprocess.CompletedProcess:
    return run_judge("run", str(PACKAGE), str(folder), "--student", "eve", "--format", "json", "--no-record",
                     "--allow-weak-sandbox")


def test_a_link_to_the_packages_secret_answer_is_refused_and_never_shown(tmp_path):
    folder = folder_with(tmp_path, **{"answers.txt": SECRET})
    done = judge_run_as_student(folder)
    assert done.returncode == 2
    assert "not graded: eve/answers.txt is a symbolic link" in done.stderr and "Traceback" not in done.stderr
    secret = SECRET.read_text().strip()
    assert secret not in done.stdout + done.stderr
    with pytest.raises(RefusedSubmission, match="answers.txt is a symbolic link"):
        read_folder(folder)


def test_a_link_to_a_folder_is_refused(tmp_path):
    folder = folder_with(tmp_path, data=PACKAGE / "data" / "secret")
    done = judge_run_as_student(folder)
    assert done.returncode == 2 and "not graded: eve/data is a symbolic link" in done.stderr


def test_a_link_deeper_inside_is_refused_and_hidden_files_are_left_unread(tmp_path):
    folder = folder_with(tmp_path)
    (folder / ".git").mkdir()
    (folder / ".git" / "HEAD").symlink_to(SECRET)  # hidden: never read, so harmless
    assert list(read_folder(folder)) == ["main.py"]
    (folder / "lib" / "deep").mkdir(parents=True)
    (folder / "lib" / "deep" / "answers.txt").symlink_to(SECRET)
    with pytest.raises(RefusedSubmission, match="eve/lib/deep/answers.txt is a symbolic link"):
        read_folder(folder)


def test_a_link_swapped_in_after_the_check_is_not_followed(tmp_path):
    folder = folder_with(tmp_path, **{"answers.txt": SECRET})
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:  # the file is opened as the walk opens it, by name relative to its folder, O_NOFOLLOW
        with pytest.raises(RefusedSubmission, match="it became a symbolic link"):
            _read_file("answers.txt", descriptor, "eve/answers.txt", _Budget("eve"), follow_file_links=False)
    finally:
        os.close(descriptor)


# The judge's own peak memory and what it leaves in its build cache, on the real command.
MEASURE = ("import resource, subprocess, sys\n"
           "done = subprocess.run([sys.executable, '-m', 'judge', *sys.argv[1:]], capture_output=True, text=True)\n"
           "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, done.returncode)\n"
           "sys.stderr.write(done.stderr)\n")


def test_a_sparse_file_of_3_gib_is_refused_by_its_size_unread(tmp_path):
    folder = folder_with(tmp_path)
    with open(folder / "answers.txt", "wb") as sparse:
        sparse.truncate(3 << 30)  # 3 GiB of holes: no disk, but read in full it would be 3 GiB of memory
    cache = tmp_path / "cache"
    done = subprocess.run([sys.executable, "-c", MEASURE, "run", str(PACKAGE), str(folder), "--student", "eve",
                           "--no-record", "--allow-weak-sandbox"], cwd=ROOT, capture_output=True, text=True,
                          check=False, timeout=300, env={**os.environ, "JUDGE_CACHE": str(cache)})
    peak_kib, returncode = map(int, done.stdout.split())
    assert returncode == 2
    assert f"more than {FOLDER_MAX_BYTES >> 20} MiB (eve/answers.txt alone is 3.0 GiB)" in done.stderr
    assert peak_kib < 200 * 1024, f"the judge's peak resident memory was {peak_kib // 1024} MiB"
    written = sum(path.stat().st_size for path in cache.rglob("*") if path.is_file()) if cache.exists() else 0
    assert written < 1 << 20


def test_a_folder_of_too_many_files_is_refused(tmp_path):
    folder = folder_with(tmp_path)
    for index in range(FOLDER_MAX_FILES):
        (folder / f"module_{index:03}.py").write_text("")
    done = judge_run_as_student(folder)
    assert done.returncode == 2
    assert f"holds more than {FOLDER_MAX_FILES} files and folders" in done.stderr


def test_a_folder_within_the_caps_is_read_whole(tmp_path):
    folder = folder_with(tmp_path)
    (folder / "lib").mkdir()
    (folder / "lib" / "data.bin").write_bytes(b"\0" * 1000)
    assert read_folder(folder) == {"lib/data.bin": b"\0" * 1000, "main.py": PRINTER.encode()}


def test_a_packages_own_program_reads_through_its_links_to_files_and_folders(tmp_path):
    """A package's validator or example submission may link to files and folders of the package
    (load_package checked they stay inside it); a folder that would hold itself is refused."""
    package = tmp_path / "package"
    (package / "shared").mkdir(parents=True)
    (package / "shared" / "util.py").write_text("X = 1\n")
    program = package / "program"
    program.mkdir()
    (program / "main.py").write_text("import util\n")
    (program / "util.py").symlink_to("../shared/util.py")
    (program / "lib").symlink_to("../shared")
    assert read_folder(program, follow_file_links=True) == {
        "lib/util.py": b"X = 1\n", "main.py": b"import util\n", "util.py": b"X = 1\n"}
    with pytest.raises(RefusedSubmission, match="program/lib is a symbolic link"):
        read_folder(program)  # a contestant's folder: no link followed
    (package / "shared" / "again").symlink_to(".")
    with pytest.raises(RefusedSubmission, match="lib/again is a symbolic link to a folder it is in"):
        read_folder(program, follow_file_links=True)
