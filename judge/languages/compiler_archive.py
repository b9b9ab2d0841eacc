"""A class-data-sharing archive of a JVM compiler (kotlinc's, javac's), made once per machine.

Most of a small build's time on the JVM is the compiler's own start: loading, parsing and
linking thousands of its classes. The JVM can dump the classes one run loaded into an archive
(``-XX:ArchiveClassesAtExit``) and map it in the next run (``-XX:SharedArchiveFile``), which
roughly halves a Kotlin build's CPU time and takes a third off javac's. The compiler, its
arguments and its output stay the same; only where its classes come from changes.

Where: ``.compiler-archives/`` in the compile cache folder (a dot name, which the cache's sweep
leaves alone, as the sandbox probes' file beside it), one ``<compiler>-<key>.jsa`` per compiler
and an index ``<compiler>.json`` naming the current one. The key digests what the archive
depends on: the identity (path, size, mtime, inode) of the JVM's own files and of the compiler's
jars, and the JVM options and class path it runs with. A changed JDK or compiler makes a new
archive, never a wrong one (the JVM refuses a mismatched archive too).

Trust: the archive is made by compiling a fixed program of the judge's own in the sandbox, as a
build is, so no submission ever writes it; the judge copies it into the folder (a temporary
name, then a rename), dates it when its making began (any later write dates it later) and
records its size and date in the index. A build uses the archive only while the file is the
judge's, writable by nobody else and unchanged since it was recorded: a truncated or overwritten
archive makes the JVM crash, so it is never handed over, but made again. (A copy that keeps the
times, ``cp -p``, is as good as the original: that is how a benchmark carries the machine's
archives into each cold round's cache.) Builds see the folder read-only (it is their run's
program folder), and the JVM is told to print nothing about the archive (``-Xlog:cds*=off``) and
to go on without it if it refuses it (``-Xshare:auto``): a missing or refused archive only costs
speed.

When: the first build that finds none starts making it on a thread beside that build (about
five seconds of CPU, the build itself going on without it); the judge waits for that thread
before it exits. `judge doctor` makes it at once. One judge makes a compiler's archive at a
time (a lock file beside it); another that finds it locked goes on without.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import stat
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from judge.errors import JudgeError
from judge.languages.build_cache import cache_root
from judge.languages.cache_locks import fcntl
from judge.sandbox import Limits, run_sandboxed
from judge.sandbox.host import CLOSE_ON_EXEC, NO_FOLLOW, OTHERS_MAY_WRITE, file_owner_id
from judge.sandbox.probe_cache import file_identity

FOLDER = ".compiler-archives"
DUMPED = "classes.jsa"  # what the archiving run writes in its working folder
# The archiving run: a compiler's start and its dump of some ten thousand classes.
DUMP_LIMITS = Limits(cpu_time=60, wall_time=120, memory=2048 << 20, output=1 << 30,
                     processes=512, limit_address_space=False)
DUMP_ENV = {"TMPDIR": "{work}"}


@dataclass(frozen=True)
class CompilerArchive:
    """The archive of one compiler's classes.

    ``name``: the compiler's (the files' names); ``launch``: how the compiler starts, up to its
    own arguments (its JVM's options and class path among them); ``option_prefix``: what passes
    an option to the compiler's JVM (``-J`` for javac's launcher, nothing when ``launch`` is
    ``java`` itself); ``inputs``: the files the archive depends on besides; ``program``: the
    judge's own sources (name: content) and ``arguments``: the compiler's arguments that build
    them in ``{work}``, for the archiving build."""

    name: str
    launch: tuple[str, ...]
    option_prefix: str
    inputs: tuple[str, ...]
    program: tuple[tuple[str, bytes], ...]
    arguments: tuple[str, ...]

    def key(self) -> str:
        """What the archive depends on, digested (the judge's program too: it decides which
        classes the archive holds)."""
        program = [f"{name}:{hashlib.sha256(content).hexdigest()}" for name, content in self.program]
        parts = [self.name, *self.launch, *map(file_identity, self.inputs), *program]
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32]

    def ready(self) -> Path | None:
        """The archive, if it is made, the judge's own and unchanged since."""
        folder = archive_folder()
        index = _read_index(folder / f"{self.name}.json")
        if index.get("key") != self.key():
            return None
        archive = folder / f"{self.name}-{index['key']}.jsa"
        try:
            status = os.stat(archive, follow_symlinks=False)
        except OSError:
            return None
        if not stat.S_ISREG(status.st_mode) or not _trusted(status) or index.get("stamp") != _stamp(status):
            return None
        return archive

    def using(self, command: list[str], archive: Path) -> list[str]:
        """``command`` (which starts as ``launch``) with its JVM mapping ``archive``, found in
        the run's program folder; a refused archive is passed over in silence."""
        options = [f"-XX:SharedArchiveFile={{prog}}/{archive.name}", "-Xshare:auto", "-Xlog:cds*=off"]
        return [command[0], *(self.option_prefix + option for option in options), *command[1:]]

    def for_build(self, command: list[str]) -> tuple[list[str], Path | None]:
        """How a build runs ``command``, and the folder to show it as its program folder: with
        the archive when there is one; else as it is, while the archive is made beside it (a
        folder that cannot hold it only costs speed)."""
        try:
            archive = self.ready()
        except (OSError, JudgeError):
            return command, None
        if archive is None:
            self.in_background()
            return command, None
        return self.using(command, archive), archive.parent

    def make(self, wait: bool = True) -> str | None:
        """Make the archive unless it is there. None when it is there afterwards; else why not.
        Without ``wait``, gives up at once when another judge is making it."""
        folder = archive_folder()
        with _locked(folder / f"{self.name}.lock", wait) as held:
            if not held:
                return "another judge is making it"
            if self.ready():
                return None
            for leftover in folder.glob(f".{self.name}*"):  # what a judge killed as it wrote left
                leftover.unlink(missing_ok=True)
            return self._dump(folder)

    def in_background(self) -> None:
        """Start making the archive on a thread of its own, once per process and compiler."""
        with _threads_lock:
            if self.name in _threads:
                return
            thread = threading.Thread(target=self._make_aside, name=f"archive {self.name}")
            _threads[self.name] = thread
        if sys.stderr is not None and sys.stderr.isatty():  # the command waits for it at its end: say why
            print(f"judge: making {self.name}'s class archive beside this build, once per machine "
                  f"(later builds start faster)", file=sys.stderr)
        thread.start()

    def _make_aside(self) -> None:
        """Make the archive beside the builds: whatever stops it only leaves them without."""
        with contextlib.suppress(OSError, JudgeError):
            self.make(wait=False)

    def _dump(self, folder: Path) -> str | None:
        """Compile the judge's own program with the JVM writing the archive; copy it in."""
        key = self.key()
        began = time.time_ns()
        command = [self.launch[0], f"{self.option_prefix}-XX:ArchiveClassesAtExit={{work}}/{DUMPED}",
                   *self.launch[1:], *self.arguments]
        scratch = Path(tempfile.mkdtemp(prefix="judge-archive-"))
        try:
            work = scratch / "work"
            work.mkdir()
            for name, content in self.program:
                (work / name).write_bytes(content)
            outcome = run_sandboxed(command, stdin=b"", limits=DUMP_LIMITS, work_dir=work, env=DUMP_ENV)
            if outcome.internal_error or outcome.exit_code != 0 or outcome.signal is not None:
                why = outcome.internal_error or outcome.stderr.decode("utf-8", errors="replace").strip()[-300:]
                return f"the archiving build failed (exit {outcome.exit_code}, signal {outcome.signal}): {why}"
            return self._install(folder, key, work / DUMPED, began)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)

    def _install(self, folder: Path, key: str, dumped: Path, began: int) -> str | None:
        """Copy the dumped archive in under its key, dated when its making ``began`` (before any
        write to it could have been), record its size and date, drop older ones."""
        archive = folder / f"{self.name}-{key}.jsa"
        try:
            source = os.open(dumped, os.O_RDONLY | NO_FOLLOW | CLOSE_ON_EXEC)
        except OSError as error:
            return f"the archiving build left no archive ({error.strerror})"
        with os.fdopen(source, "rb") as reader:
            _replace(archive, lambda writer: shutil.copyfileobj(reader, writer, 1 << 20), 0o644, began)
        index = {"key": key, "stamp": _stamp(os.stat(archive))}
        _replace(folder / f"{self.name}.json", lambda writer: writer.write(json.dumps(index).encode()), 0o644)
        for old in folder.glob(f"{self.name}-*.jsa"):
            if old != archive:
                old.unlink(missing_ok=True)
        return None


_threads: dict[str, threading.Thread] = {}
_threads_lock = threading.Lock()


def wait_for_archives() -> None:
    """Wait until every archive this process started making is made (or failed)."""
    with _threads_lock:
        threads = list(_threads.values())
    for thread in threads:
        thread.join()


def forget_archiving() -> None:
    """Let this process start making archives again (after wait_for_archives): tests change the
    cache folder between themselves."""
    wait_for_archives()
    with _threads_lock:
        _threads.clear()


def archive_summary(languages) -> str:
    """Each JVM compiler's archive, made now if it is not there (for `judge doctor`)."""
    lines = []
    for language in languages:
        archive = getattr(language, "compiler_archive", lambda: None)()  # a plugin's may have none
        if archive is None:
            continue
        try:
            problem = archive.make()
            made = archive.ready()
        except (OSError, JudgeError) as error:
            problem, made = str(error), None
        state = f"{made} ({made.stat().st_size >> 20} MiB)" if made else f"none: {problem or 'it changed as it was made'}"
        lines.append(f"  {archive.name}: {state}")
    return "\n".join(["compiler class archives:", *lines]) if lines else ""


def archive_folder() -> Path:
    """The folder of the compilers' archives, in the compile cache folder."""
    folder = cache_root() / FOLDER
    folder.mkdir(mode=0o755, exist_ok=True)
    return folder


def jdk_files(java: str) -> list[str]:
    """The JVM's own files an archive depends on: the launcher, the JVM library, the class
    library's image and the JDK's own archive (the base a dynamic archive builds on)."""
    real = os.path.realpath(shutil.which(java) or java)
    home = Path(real).parent.parent
    return [real, *(str(home / "lib" / name) for name in ("server/libjvm.so", "modules", "server/classes.jsa"))]


def _stamp(status: os.stat_result) -> list[int]:
    """What changes when anyone writes to the file (and survives a copy that keeps its times)."""
    return [status.st_size, status.st_mtime_ns]


def _trusted(status: os.stat_result) -> bool:
    return status.st_uid == file_owner_id() and not status.st_mode & OTHERS_MAY_WRITE


def _read_index(path: Path) -> dict:
    try:
        with open(path, "rb") as file:
            if not _trusted(os.fstat(file.fileno())):
                return {}
            index = json.loads(file.read())
    except (OSError, ValueError):
        return {}
    return index if isinstance(index, dict) else {}


def _replace(path: Path, write: Callable, mode: int, dated: int | None = None) -> None:
    """Write ``path`` under a temporary name (modified at ``dated``, if given), then rename it
    into place: no reader sees half."""
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(descriptor, "wb") as writer:
            write(writer)
        os.chmod(temporary, mode)
        if dated is not None:
            os.utime(temporary, ns=(dated, dated))
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def _locked(path: Path, wait: bool):
    """Hold the lock file ``path`` (yields True), or yield False if another holds it and not ``wait``."""
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT | CLOSE_ON_EXEC | NO_FOLLOW, 0o600)
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX if wait else fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(descriptor)
