"""The JVM compilers' class archives: made once per machine by the judge's own program, mapped by
every build after, remade when what they depend on changes or the file is not as it was written,
and never a source of warnings or failed builds. Real compilers throughout."""

from __future__ import annotations

import dataclasses
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from conftest import run_judge

from judge.errors import CompileError
from judge.formats.catalog import load_problem
from judge.languages import LANGUAGES
from judge.languages.base import COMPILE_ENV, COMPILE_LIMITS
from judge.languages.compiler_archive import FOLDER, CompilerArchive, _locked, archive_folder, forget_archiving
from judge.model.vocabulary import TaskStyle
from judge.runner import judge_submission
from judge.sandbox import run_sandboxed

needs_kotlin = pytest.mark.skipif(shutil.which("kotlinc") is None, reason="kotlinc is not installed")
needs_javac = pytest.mark.skipif(shutil.which("javac") is None, reason="javac is not installed")
SUM_KT = 'fun main() {\n    val (a, b) = readLine()!!.trim().split(" ").map { it.toLong() }\n    println(a + b)\n}\n'
SUM_JAVA = ("import java.util.Scanner;\npublic class Sum { public static void main(String[] a) {"
            " Scanner in = new Scanner(System.in); System.out.println(in.nextLong() + in.nextLong()); } }\n")


@pytest.fixture(autouse=True)
def own_archiving(cache):
    """Each test in a cache of its own, and no archive still being made when it ends."""
    forget_archiving()
    yield cache
    forget_archiving()


def build(language: str, name: str, source: str, folder: Path):
    path = folder / name
    path.write_text(source)
    return LANGUAGES[language].prepare(path, TaskStyle.STDIO)


def maps(archive: CompilerArchive, language: str, folder: Path) -> bool:
    """Whether a build of ``language`` maps ``archive`` in the sandbox: run as the judge builds,
    but with sharing required (-Xshare:on: the JVM refuses to start without the archive)."""
    work = Path(tempfile.mkdtemp(dir=folder))
    name = "sum.kt" if language == "kotlin" else "Sum.java"
    (work / name).write_text(SUM_KT if language == "kotlin" else SUM_JAVA)
    command, shown = archive.for_build(LANGUAGES[language].compile_command([name]))
    if shown is None:
        return False
    required = [part.replace("-Xshare:auto", "-Xshare:on") for part in command]
    outcome = run_sandboxed(required, stdin=b"", limits=COMPILE_LIMITS, work_dir=work, env=COMPILE_ENV,
                            program_dir=shown)
    return outcome.exit_code == 0 and any(work.rglob("*.class"))


@needs_kotlin
def test_the_first_kotlin_build_makes_the_archive_and_the_builds_after_map_it(tmp_path, monkeypatch):
    archive = LANGUAGES["kotlin"].compiler_archive()
    assert archive.ready() is None
    build("kotlin", "first.kt", SUM_KT, tmp_path)  # finds none: made beside it
    forget_archiving()
    made = archive.ready()
    assert made is not None and made.parent == archive_folder() and made.parent.name == FOLDER
    assert made.stat().st_mode & 0o777 == 0o644
    assert maps(archive, "kotlin", tmp_path)

    commands = []
    original = CompilerArchive.for_build

    def watched(self, command):
        commands.append(found := original(self, command))
        return found
    monkeypatch.setattr(CompilerArchive, "for_build", watched)
    program = build("kotlin", "second.kt", SUM_KT.replace("a + b", "b + a"), tmp_path)
    assert (program.directory / "SecondKt.class").exists()
    [(command, shown)] = commands
    assert shown == made.parent and f"-XX:SharedArchiveFile={{prog}}/{made.name}" in command
    assert archive.ready() == made  # used, not made again


@needs_kotlin
def test_kotlin_and_java_submissions_get_their_verdicts_with_the_archives(tmp_path):
    for language in ("kotlin", "java"):
        assert LANGUAGES[language].compiler_archive().make() is None
    stones = load_problem("stones")
    cases = [stones.case(name) for name in ("sample-1", "smallest-even")]
    right = tmp_path / "right.kt"
    right.write_text('fun main() {\n    val n = readLine()!!.trim().toInt()\n    println(if (n % 2 == 1) "SK" else "CY")\n}\n')
    wrong = tmp_path / "Wrong.java"
    wrong.write_text('public class Wrong { public static void main(String[] a) { System.out.println("SK"); } }\n')
    assert [case.verdict for case in judge_submission(stones, right, cases=cases).cases] == ["AC", "AC"]
    assert [case.verdict for case in judge_submission(stones, wrong, cases=cases).cases] == ["AC", "WA"]


@needs_javac
def test_a_changed_input_makes_a_new_archive_and_drops_the_old(tmp_path):
    marker = tmp_path / "compiler.jar"
    marker.write_bytes(b"one")
    java = LANGUAGES["java"].compiler_archive()
    archive = dataclasses.replace(java, inputs=(*java.inputs, str(marker)))
    assert archive.make() is None
    old = archive.ready()
    assert old is not None and maps(archive, "java", tmp_path)
    marker.write_bytes(b"another version")
    assert archive.ready() is None  # a stale key is never used
    half_written = archive_folder() / f".{old.name}.x1y2"  # left by a judge killed as it copied
    half_written.write_bytes(b"half")
    assert archive.make() is None
    new = archive.ready()
    assert new is not None and new != old and not old.exists() and not half_written.exists()
    assert maps(archive, "java", tmp_path)


@needs_javac
@pytest.mark.parametrize("damage", ["truncated", "overwritten"])
def test_a_damaged_archive_is_not_trusted_the_build_compiles_and_it_is_made_again(tmp_path, damage):
    archive = LANGUAGES["java"].compiler_archive()
    assert archive.make() is None
    made = archive.ready()
    size = made.stat().st_size
    with open(made, "r+b") as file:  # either way the JVM would crash mapping it
        if damage == "truncated":
            file.truncate(size // 2)
        else:
            file.seek(size // 2)
            file.write(b"\xff" * 4096)
    assert archive.ready() is None
    program = build("java", "Sum.java", SUM_JAVA, tmp_path)
    assert (program.directory / "Sum.class").exists()
    forget_archiving()  # the build found none it could trust: made again beside it
    remade = archive.ready()
    assert remade is not None and remade.stat().st_size == size
    assert maps(archive, "java", tmp_path)


@needs_kotlin
def test_an_archive_the_jvm_refuses_costs_only_speed_and_prints_nothing(tmp_path):
    """An archive that passes the judge's checks but that the JVM refuses (as one for another JDK
    would be): the build goes on without it, and its message is the compiler's alone."""
    archive = LANGUAGES["kotlin"].compiler_archive()
    not_an_archive = tmp_path / "dumped.jsa"
    not_an_archive.write_bytes(b"\x00" * 4096)
    assert archive._install(archive_folder(), archive.key(), not_an_archive, time.time_ns()) is None
    assert archive.ready() is not None
    program = build("kotlin", "fine.kt", SUM_KT, tmp_path)
    assert (program.directory / "FineKt.class").exists()
    with pytest.raises(CompileError) as failed:
        build("kotlin", "broken.kt", 'fun main() {\n    val x: Int = "text"\n}\n', tmp_path)
    message = str(failed.value)
    assert "type mismatch" in message
    assert "warning" not in message.lower() and "archive" not in message.lower() and "cds" not in message.lower()


@needs_javac
def test_one_judge_makes_an_archive_at_a_time(tmp_path):
    archive = LANGUAGES["java"].compiler_archive()
    with _locked(archive_folder() / "javac.lock", wait=True) as held:  # another judge making it
        assert held
        assert archive.make(wait=False) == "another judge is making it"
        program = build("java", "Sum.java", SUM_JAVA, tmp_path)  # the build goes on without it
        assert (program.directory / "Sum.class").exists()
        forget_archiving()
        assert archive.ready() is None
    assert archive.make(wait=False) is None and archive.ready() is not None


@needs_javac
def test_builds_see_the_archives_folder_read_only(tmp_path):
    archive = LANGUAGES["java"].compiler_archive()
    assert archive.make() is None
    made = archive.ready()
    before = made.read_bytes()
    outcome = run_sandboxed(["sh", "-c", f"echo changed > {{prog}}/{made.name}; echo x > {{prog}}/new"], stdin=b"",
                            limits=COMPILE_LIMITS, program_dir=made.parent)
    assert outcome.exit_code != 0
    assert made.read_bytes() == before and not (made.parent / "new").exists()
    assert archive.ready() == made


@needs_javac
def test_judge_doctor_makes_and_shows_the_archives(own_archiving):
    done = run_judge("doctor", env={"JUDGE_CACHE": str(own_archiving)})
    shown = done.stdout.split("compiler class archives:")[1]
    for language, compiler in (("java", "javac"), ("kotlin", "kotlinc")):
        if language == "kotlin" and shutil.which("kotlinc") is None:
            continue
        made = LANGUAGES[language].compiler_archive().ready()
        assert made is not None and made.parent == own_archiving / FOLDER
        assert f"{compiler}: {made} (" in shown


@needs_javac
def test_a_cache_folder_that_cannot_hold_archives_only_costs_speed(own_archiving, tmp_path):
    (own_archiving / FOLDER).write_text("not a folder")
    program = build("java", "Sum.java", SUM_JAVA, tmp_path)
    assert (program.directory / "Sum.class").exists()
    forget_archiving()
    assert (own_archiving / FOLDER).read_text() == "not a folder"
