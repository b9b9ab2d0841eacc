"""What every language shares: the prepared ``Program``, compile caching, and toolchain lookup."""

from __future__ import annotations

import dataclasses
import functools
import os
import re
import shutil
import signal
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING

from judge.errors import CompileError, LanguageUnavailable
from judge.harness import EXEC_SERVER_FILE, HARNESS_DIR
from judge.languages.build_cache import CacheUnusable, cache_key, cache_root, cached_entry  # noqa: F401 (the languages import these from here)
from judge.languages.program import Program
from judge.languages.warm import ExecPool
from judge.model.vocabulary import TaskStyle
from judge.sandbox import WORK_DIR_INSIDE, Limits, run_sandboxed
from judge.sandbox.host import CLOSE_ON_EXEC, NO_FOLLOW, NON_BLOCKING
from judge.sandbox.probe_cache import remembered

if TYPE_CHECKING:
    from judge.languages.compiler_archive import CompilerArchive
    from judge.languages.functions import FunctionStyle
    from judge.model.signature import Signature

# The output limit is also the compiler's file-size limit: a program with a precomputed table or
# a large initialised static array legitimately builds an object and an executable of that size
# (DOMjudge's test-memstatic.cc: 512 MiB each). The compiler's temporary files go to the build
# directory (TMPDIR), on the judge's temporary folder's disk, not to the sandbox's small /tmp.
COMPILE_LIMITS = Limits(cpu_time=30, wall_time=60, memory=2048 << 20, output=1 << 30,
                        processes=512, limit_address_space=False)
COMPILE_ENV = {"TMPDIR": "{work}"}
# How a compiler says that a file it wrote passed the file-size limit or found the disk full.
OUT_OF_ROOM = re.compile(r"No space left on device|File size limit exceeded")
COMPILER_MESSAGE_LINES = 25
COMPILER_MESSAGE_LINE_CHARS = 300
COMPILER_MESSAGE_CHARS = 4096




class Language:
    """One language, described by its class attributes: how to recognise a submission, find the
    toolchain (and what to install when it is missing), prepare a program, what the sandbox must
    expose to run it, its time and memory allowances, and a tiny program that proves it works.

    A new language is one module with one subclass, registered in ``judge.languages`` or, from
    another package, through the ``judge.languages`` entry-point group. What a language provides
    is declared by ``judge.extension_points.Language``; these are its defaults.
    """

    name = ""
    title = ""  # how people write its name (C++, Kotlin); empty: its name
    extensions: tuple[str, ...] = ()
    # What the ICPC problem package format calls it (its language table), first the current code:
    # a package's include/<code>/ files go with its submissions. Empty: its name.
    package_codes: tuple[str, ...] = ()
    styles: tuple[TaskStyle, ...] = (TaskStyle.STDIO,)  # the task types (by name) it can be judged in
    # How it declares and calls a function-style problem's function (judge/languages/functions/).
    function_style: FunctionStyle | None = None
    memory_markers: tuple[bytes, ...] = ()  # what the runtime prints when it runs out of memory
    toolchain: tuple[str, ...] = ()  # executables that must exist
    apt_packages: tuple[str, ...] = ()  # Debian packages that provide the toolchain
    # Host paths its programs need, and its compiler besides, beyond the base system (/usr/bin and
    # the shared libraries): the sandbox shows nothing else (judge/sandbox/view.py).
    runtime_paths: tuple[str, ...] = ()
    build_paths: tuple[str, ...] = ()
    # Allowances over the problem's limits: CPU time x factor + extra seconds (for runtimes that
    # start slowly or compile at run time), resident memory a runtime needs for itself, and whether
    # an address-space cap can be used (not for runtimes that reserve gigabytes they never touch).
    time_factor = 1.0
    time_extra = 0.0
    memory_slack = 0
    limit_address_space = True
    min_processes = 0  # runtimes with many threads of their own need a larger process limit
    # Whether its programs ship the exec server (exec_server_files) and run their cases through
    # it: one sandbox per submission instead of one per case.
    exec_server = False
    # About how many seconds a small program's build takes (a JVM compiler's start, a C++
    # compiler's headers): `judge test PKG` builds a package's programs slowest first.
    build_seconds = 0.0
    # A program that reads two integers and prints their sum: `judge doctor` runs it.
    self_test_source = ""
    self_test_file = ""
    # A folder program (a package's submission or validator): the files its sources include
    # rather than compile (C's headers), which leave the folder's language to its other files; the
    # languages whose sources beside its own are built as it (C beside C++); and the entry files a
    # folder of it names, in order, when it is not the only source (Python's __main__.py).
    header_extensions: tuple[str, ...] = ()
    also_builds: tuple[str, ...] = ()
    folder_entries: tuple[str, ...] = ()

    @property
    def install_hint(self) -> str:
        packages = " ".join(self.apt_packages)
        return f"{' and '.join(self.toolchain) or self.name} (Debian: apt-get install {packages})" if packages \
            else " and ".join(self.toolchain)

    def version(self) -> str:
        """The toolchain's version line; LanguageUnavailable naming what to install if missing."""
        return _version_line(self.name, self.toolchain, self.install_hint)

    def prepare(self, source: Path, style: str, signature: Signature | None = None) -> Program:
        """Turn a source file into a runnable Program (compiling it once, cached). For a
        function-style problem, ``signature`` is its typed signature, if the suite gives one."""
        raise NotImplementedError

    def limits(self, base: Limits) -> Limits:
        """The limits a program of this language runs with, from the problem's base limits."""
        adjusted = with_time(base, self.time_factor, self.time_extra) if (self.time_factor, self.time_extra) != (1, 0) \
            else base
        return dataclasses.replace(adjusted, memory_slack=self.memory_slack,
                                   limit_address_space=self.limit_address_space,
                                   processes=max(base.processes, self.min_processes))

    def ran_out_of_memory(self, stderr: bytes) -> bool:
        return any(marker in stderr for marker in self.memory_markers)

    def warm_pool(self, program: Program, style: str, limits: Limits):
        """A pool that runs this program's cases faster than a fresh start each (see
        judge/languages/warm.py), or None: every case starts afresh."""
        if not self.exec_server:
            return None
        return ExecPool(program, style, limits)

    def prepare_folder(self, files: dict[str, bytes], path: Path, entry: str | None,
                       header_folders: tuple[str, ...] = ()) -> Program:
        """Turn a folder's files (relative name: content) into a runnable Program, by this
        language's own rules for its entry. ``path``: the folder, named in messages; ``entry``: the
        entry file (or what names it, as a Java class) when the folder's owner says which;
        ``header_folders``: folders among ``files`` searched for included headers after the
        program's own (a package's standard headers). CompileError when it cannot be built."""
        raise CompileError(f"{path.name}: a {self.title or self.name} program is one file here, not a folder")

    def holds_entry(self, files: dict[str, bytes]) -> bool:
        """Whether ``files`` (code that goes with every submission) hold a folder program's entry
        by this language's rules: a file of ``folder_entries``, else (a language whose entry the
        code declares, as Java's main class) any source."""
        if self.folder_entries:
            return any(name in files for name in self.folder_entries)
        return any(Path(name).suffix in self.extensions for name in files)

    def cannot_run(self, path: Path) -> str | None:
        """Why the source file at ``path``, though of this language, cannot run here (a Python 2
        script), or None."""
        return None

    def naming_hint(self, problem: str) -> str:
        """What to tell a student whose file in this language is named after no problem, with
        ``problem`` as the example ("" for nothing beyond the list of problems)."""
        return ""

    def failing_line(self, stderr: str) -> str | None:
        """Where in the submission the runtime's report of an uncaught error (its ``stderr``)
        places it (``line 7``, ``helper.py, line 2``), or None when it does not say."""
        return None

    def compiler_archive(self) -> CompilerArchive | None:
        """The class archive its compiler's JVM maps, kept per machine
        (judge/languages/compiler_archive.py); None for a compiler that runs on no JVM."""
        return None


@functools.cache
def _version_line(name: str, toolchain: tuple[str, ...], hint: str) -> str:
    """The first toolchain program's version line, remembered per machine with the sandbox probes
    (keyed by the identity of every toolchain binary, so that an upgrade asks again): asking a
    JVM takes over 100 ms of every command that builds a Java program."""
    found = []
    for tool in toolchain:
        path = shutil.which(tool)
        if not path:
            raise LanguageUnavailable(f"{name}: `{tool}` not found; install {hint}")
        found.append(path)
    return remembered(f"version {name}", found, lambda: _asked_version(toolchain[0]),
                      lambda value: isinstance(value, str) and JVM_WARNING not in value)


JVM_WARNING = "VM warning"  # a line a JVM-based tool's launcher prints before its version (kotlinc)


def _asked_version(tool: str) -> str:
    flag = "-version" if tool.endswith(("javac", "kotlinc")) else "--version"
    done = subprocess.run([tool, flag], capture_output=True, text=True, timeout=30, check=False)
    lines = [line for line in (done.stdout or done.stderr).strip().splitlines() if JVM_WARNING not in line]
    return lines[0] if lines else tool


def server_support_files() -> dict[str, bytes]:
    """The modules every warm server (Python's, the exec server) imports from its own directory."""
    names = ("case_control.py", "process_watch.py", "proc_usage.py", "ipc_objects.py", "signal_guard.py")
    return {name: (HARNESS_DIR / name).read_bytes() for name in names}


def exec_server_files() -> dict[str, bytes]:
    """The exec server and what it imports: shipped in every program's build that runs through it
    (see judge/exec_pool.py)."""
    return {EXEC_SERVER_FILE: (HARNESS_DIR / EXEC_SERVER_FILE).read_bytes(), **server_support_files()}


def read_source(source: Path, largest: int | None = None) -> bytes:
    """The submission's bytes (with ``largest``, at most one byte more than that, for the caller
    to tell a file too large). A symbolic link is refused (OSError ELOOP), never followed: a
    submission linking to /proc/self/environ or a hidden suite would otherwise be read by the
    judge, outside the sandbox, and shown back in the compiler's message; nor does a FIFO block
    the opening. Callers judging a person's own file resolve links first (``own_file``)."""
    descriptor = os.open(source, os.O_RDONLY | NO_FOLLOW | NON_BLOCKING | CLOSE_ON_EXEC)
    with os.fdopen(descriptor, "rb") as handle:
        return handle.read() if largest is None else handle.read(largest + 1)


def own_file(path: Path) -> Path:
    """A source file given by the person whose code it is (`judge run`, `judge stress`, the
    pytest plugin): a symbolic link there is their own choice, so it is resolved once, here."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def cached_build(key: str, files: dict[str, bytes], compile_command: list[str] | None,
                 clean_message=lambda text: text, archive: CompilerArchive | None = None) -> Path:
    """A verified, judge-owned directory holding ``files`` and, if ``compile_command`` is given,
    what it built (see judge/languages/build_cache.py). Raises CompileError with the compiler's
    trimmed message. ``archive``: the compiler's class archive, which the build maps when it is
    made (judge/languages/compiler_archive.py); the output is the same either way."""
    build = None
    if compile_command:
        failed = _FAILED_COMPILES.get(key)
        if failed is not None:
            raise CompileError(_compiler_message(failed, clean_message))

        def build(directory: Path) -> None:
            _compile(directory, key, compile_command, clean_message, archive)
    try:
        return cached_entry(key, files, build)
    except CacheUnusable as error:
        raise LanguageUnavailable(str(error)) from None


# The compiler's output for each key whose build failed in this process, the oldest dropped
# first: the same sources, compiler and command fail the same way, so a program built twice in
# one command (`judge test` builds a package's programs ahead, then where each is judged) is
# compiled once. Failures are not in the cache on disk, whose entries are verified builds only;
# a compilation that ran out of time or was killed (short of memory, say) is not remembered,
# since it may not fail again, nor a message too long to keep.
_FAILED_COMPILES: dict[str, str] = {}
FAILED_COMPILES_KEPT = 256
FAILED_COMPILE_CHARS = 64 << 10


def _compile(build: Path, key: str, command: list[str], clean_message, archive: CompilerArchive | None) -> None:
    command, archive_folder = archive.for_build(command) if archive else (command, None)
    outcome = run_sandboxed(command, stdin=b"", limits=COMPILE_LIMITS, work_dir=build, env=COMPILE_ENV,
                            program_dir=archive_folder)
    if outcome.internal_error:
        raise LanguageUnavailable(f"the compiler could not run: {outcome.internal_error}")
    if outcome.wall_timed_out or outcome.cpu_time > COMPILE_LIMITS.cpu_time:
        raise CompileError(f"compilation took longer than {COMPILE_LIMITS.cpu_time:g} s")
    if outcome.exit_code != 0 or outcome.signal is not None:
        text = (outcome.stderr or outcome.stdout).decode("utf-8", errors="replace")
        text = text.replace(f"{build}/", "").replace(f"{WORK_DIR_INSIDE}/", "")
        if outcome.signal == signal.SIGXFSZ or OUT_OF_ROOM.search(text):
            raise LanguageUnavailable(_out_of_room(build))
        if outcome.signal is None and len(text) <= FAILED_COMPILE_CHARS:
            _remember_failure(key, text)
        raise CompileError(_compiler_message(text, clean_message))


def _out_of_room(build: Path) -> str:
    """Why a build that ran out of room is not the submission's fault, and where to make room."""
    free_mib = shutil.disk_usage(build).free >> 20
    return (f"the build ran out of room (a file over the compiler's limit of {COMPILE_LIMITS.output >> 20} MiB, "
            f"or a full disk: {free_mib} MiB free in {build.parent.parent}); point TMPDIR at a folder with more room")


def _compiler_message(text: str, clean_message) -> str:
    return trim_message(clean_message(text)) or "the compiler failed without a message"


def _remember_failure(key: str, text: str) -> None:
    _FAILED_COMPILES[key] = text
    while len(_FAILED_COMPILES) > FAILED_COMPILES_KEPT:
        _FAILED_COMPILES.pop(next(iter(_FAILED_COMPILES)), None)


# Terminal escape sequences (colours, cursor moves) and other control characters but tab.
_CONTROL = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[@-_]|[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# A path through one of the judge's own directories (the compile cache, a run's scratch
# directory, the sandbox's mount points): only the file name after it is the student's business.
_JUDGE_PATH = re.compile(r"(?:/[\w.+-]+)*?/(?:judge-(?:cache|run|server)-[\w.-]*|prog|sandbox)(?:/[\w.+-]+)*/")


def trim_message(text: str) -> str:
    """A compiler's message made fit for a report: no terminal control characters, none of the
    judge's own paths, at most COMPILER_MESSAGE_LINES non-blank lines of COMPILER_MESSAGE_LINE_CHARS
    characters, COMPILER_MESSAGE_CHARS in all."""
    text = _JUDGE_PATH.sub("", _CONTROL.sub("", text[: COMPILER_MESSAGE_CHARS * 4]))
    lines = [_cut(line.rstrip(), COMPILER_MESSAGE_LINE_CHARS) for line in text.splitlines() if line.strip()]
    if len(lines) > COMPILER_MESSAGE_LINES:
        lines = lines[:COMPILER_MESSAGE_LINES] + [f"... ({len(lines) - COMPILER_MESSAGE_LINES} more lines)"]
    return _cut("\n".join(lines), COMPILER_MESSAGE_CHARS)


def _cut(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 3] + "..."


def with_time(limits: Limits, factor: float, extra: float) -> Limits:
    """Limits with the CPU (and so wall) time scaled for a slower-starting runtime."""
    return limits.with_cpu(limits.cpu_time * factor + extra)
