"""The compile cache: prepared programs keyed by content, immutable to every sandboxed uid.

A program is built (compiled, when its language compiles) in a scratch directory that the
sandbox's slot uid owns; only then are its regular files copied, by the judge, into a new entry
that the judge owns and nobody else can write, with a manifest of their content hash in it.
Every use checks the entry's ownership, modes and hash against that manifest: an entry that was
tampered with (or built by an older judge, owned by a slot uid) is removed and built again.

The cache is kept within caps (cache_limits.py): a build larger than the per-build cap is judged
from a directory of its own that goes when the program does, and is not kept; the cache as a
whole is swept of its least recently used and expired entries (cache_sweep.py). An entry is held
in use while its program lives, so no judge's sweep removes it under another (cache_users.py).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tempfile
import time
import uuid
import weakref
from collections.abc import Callable
from pathlib import Path

from judge.errors import JudgeError
from judge.languages.cache_limits import cache_limits, size_text
from judge.languages.cache_locks import build_lock
from judge.languages.cache_sweep import TRASH_PREFIX, cache_usage, note_new_entry, uncached_name
from judge.languages.cache_users import EntryPath, hold, registration
from judge.sandbox.command import running_as_root
from judge.sandbox.host import NO_FOLLOW, OTHERS_MAY_WRITE, file_owner_id, user_tag

MANIFEST = ".manifest"  # in every entry: the hash of everything else in it
BUILD_OUTPUT_LIMIT = 1 << 30  # bytes of files a build may leave at all (what is kept: cache_limits.py)


class CacheUnusable(JudgeError):
    """The cache directory cannot be trusted, written or reached by the sandbox (the grader's problem)."""


def cache_root() -> Path:
    """Compiled programs live here, keyed by content; readable by the sandbox's unprivileged uid."""
    root = Path(os.environ.get("JUDGE_CACHE") or Path(tempfile.gettempdir()) / f"judge-cache-{user_tag()}")
    root.mkdir(mode=0o755, parents=True, exist_ok=True)
    status = root.lstat()
    if stat.S_ISLNK(status.st_mode) or status.st_uid != file_owner_id():
        raise CacheUnusable(f"the compile cache {root} belongs to another user; set JUDGE_CACHE")
    os.chmod(root, 0o755)
    if running_as_root():  # runs are then other users (the sandbox's slots), who must reach the builds
        _check_reachable(root)
    return root


def _check_reachable(root: Path) -> None:
    """CacheUnusable unless every folder above ``root`` lets other users through: else a
    program's build could not be mounted into its sandbox, and every run would fail."""
    for folder in root.resolve().parents:
        mode = folder.stat().st_mode
        if not mode & stat.S_IXOTH:
            raise CacheUnusable(f"the compile cache {root} cannot be reached by the sandbox's users: {folder} is "
                                f"mode {stat.S_IMODE(mode):o}; set JUDGE_CACHE to a folder every user may enter "
                                f"(the default is {Path(tempfile.gettempdir()) / 'judge-cache-0'}), or "
                                f"`chmod o+x {folder}`")


def cache_key(*parts: bytes | str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part if isinstance(part, bytes) else part.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:32]


def cached_entry(key: str, files: dict[str, bytes], build: Callable[[Path], None] | None) -> EntryPath:
    """The verified cache entry for ``key``: ``files`` plus, if ``build`` is given, everything it
    leaves in the directory it is handed (a scratch directory holding ``files``). The entry is
    in use, safe from any sweep, while the returned path lives."""
    root = cache_root()
    limits = cache_limits()
    entry = _usable(root, key)
    if entry is not None:
        return entry
    # One judge builds a key at a time; the others wait for its entry instead of building it too
    # (or removing it as not yet intact).
    lock = build_lock(root, key)
    try:
        entry = _usable(root, key)
        if entry is not None:
            return entry
        outputs = {name: (content, False) for name, content in files.items()}
        if build is not None:
            outputs = _built_files(files, build)
        size = sum(len(content) for content, _ in outputs.values())
        if size > limits.build_bytes:
            return _uncached(root, key, outputs)
        _install(root, key, outputs)
        entry = _usable(root, key)  # in use before the lock is released: no sweep can take it
    finally:
        os.close(lock)
    if entry is None:
        raise CacheUnusable(f"the compile cache entry {root / key} went away as it was written")
    note_new_entry(root, size, limits)
    return entry


def _usable(root: Path, key: str) -> EntryPath | None:
    """The entry ``key``, in use and touched (the sweep removes the least recently used first),
    if it is there and intact."""
    entry = hold(root, key)
    if entry is None or not intact(entry):
        return None
    now = time.time_ns()  # not the file system's coarser clock: uses a moment apart stay in order
    os.utime(entry, ns=(now, now), follow_symlinks=False)
    return entry


def _uncached(root: Path, key: str, files: dict[str, tuple[bytes, bool]]) -> EntryPath:
    """A build over the per-build cap: written as an entry would be, but to a directory of its own
    that is removed when the returned path is dropped (or, if this judge dies, by a sweep)."""
    owner = registration(root).id  # a sweep leaves the folder alone while this judge lives
    folder = EntryPath(tempfile.mkdtemp(prefix=uncached_name(owner, key), dir=root))
    try:
        _write_entry(folder, files)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    weakref.finalize(folder, _remove_own, str(folder), os.getpid())
    return folder


def _remove_own(folder: str, maker: int) -> None:
    """Remove a build too large to keep, unless this is a forked child dropping its copy of the
    path (the parent still uses the folder)."""
    if os.getpid() == maker:
        shutil.rmtree(folder, ignore_errors=True)


def intact(entry: Path) -> bool:
    """Whether ``entry`` is a complete entry owned by the judge, writable by nobody else, whose
    content matches its manifest."""
    manifest = entry / MANIFEST
    try:
        if not _trusted(entry, directory=True) or not _trusted(manifest, directory=False):
            return False
        files = _read_tree(entry, check=True)
        return files.pop(MANIFEST)[0].decode() == _digest(files)
    except (OSError, ValueError):
        return False


def _trusted(path: Path, directory: bool) -> bool:
    status = path.lstat()
    kind_ok = stat.S_ISDIR(status.st_mode) if directory else stat.S_ISREG(status.st_mode)
    return kind_ok and status.st_uid == file_owner_id() and not status.st_mode & OTHERS_MAY_WRITE


def _read_tree(directory: Path, check: bool = False) -> dict[str, tuple[bytes, bool]]:
    """relative path -> (content, executable) of every regular file below ``directory``, never
    following a symbolic link (a sandboxed build may leave one pointing anywhere). With
    ``check``, ValueError if anything there is not owned by the judge or is writable by others."""
    found: dict[str, tuple[bytes, bool]] = {}
    total = 0
    for top, dirs, names in os.walk(directory):
        for name in [*dirs, *names]:
            path = Path(top) / name
            status = path.lstat()
            if check and (status.st_uid != file_owner_id() or status.st_mode & OTHERS_MAY_WRITE
                          or stat.S_ISLNK(status.st_mode)):
                raise ValueError(f"{path} is not the judge's own")
            if not stat.S_ISREG(status.st_mode):
                continue
            descriptor = os.open(path, os.O_RDONLY | NO_FOLLOW)
            with os.fdopen(descriptor, "rb") as handle:
                content = handle.read(BUILD_OUTPUT_LIMIT - total + 1)
            total += len(content)
            if total > BUILD_OUTPUT_LIMIT:
                raise ValueError(f"the build left more than {BUILD_OUTPUT_LIMIT >> 20} MiB of files")
            found[str(path.relative_to(directory))] = (content, bool(status.st_mode & stat.S_IXUSR))
    return found


def _digest(files: dict[str, tuple[bytes, bool]]) -> str:
    digest = hashlib.sha256()
    for name in sorted(files):
        content, executable = files[name]
        digest.update(name.encode() + b"\0" + (b"x" if executable else b"-")
                      + len(content).to_bytes(8, "big") + content)
    return digest.hexdigest()


def _built_files(files: dict[str, bytes], build: Callable[[Path], None]) -> dict[str, tuple[bytes, bool]]:
    """Run ``build`` in a scratch directory holding ``files``; what it left there."""
    scratch = Path(tempfile.mkdtemp(prefix="judge-build-"))  # the judge's; its "work" goes to the sandbox
    work = scratch / "work"
    try:
        work.mkdir()
        for name, content in files.items():
            (work / name).parent.mkdir(parents=True, exist_ok=True)  # names may have folders
            (work / name).write_bytes(content)
        build(work)
        try:
            return _read_tree(work)
        except ValueError as error:
            raise CacheUnusable(str(error)) from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _install(root: Path, key: str, files: dict[str, tuple[bytes, bool]]) -> None:
    """Write a new entry as the judge, then rename it into place (a crash never leaves a
    half-built entry under the key), setting aside an untrusted one that was there."""
    building = Path(tempfile.mkdtemp(prefix=f"{key}.", dir=root))
    try:
        _write_entry(building, files)
        _discard(root / key)
        building.rename(root / key)
    finally:
        shutil.rmtree(building, ignore_errors=True)


def _write_entry(folder: Path, files: dict[str, tuple[bytes, bool]]) -> None:
    for name, (content, executable) in files.items():
        path = folder / name
        path.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
        path.write_bytes(content)
        os.chmod(path, 0o755 if executable else 0o644)
    (folder / MANIFEST).write_text(_digest(files))
    os.chmod(folder / MANIFEST, 0o644)
    os.chmod(folder, 0o755)


def _discard(entry: Path) -> None:
    """Remove an entry that cannot be trusted: renamed aside first, so that no judge sees it
    half deleted."""
    if entry.is_symlink() or entry.is_file():
        entry.unlink(missing_ok=True)
    elif entry.exists():
        trash = entry.with_name(f"{TRASH_PREFIX}{entry.name}-{uuid.uuid4().hex[:8]}")
        entry.rename(trash)
        shutil.rmtree(trash, ignore_errors=True)


def cache_summary() -> str:
    """Where the cache is, what it holds and its caps (for `judge doctor`)."""
    limits = cache_limits()
    try:
        root = cache_root()
        count, size = cache_usage(root)
        held = f"{root}: {count} entries, {size_text(size)}"
    except (CacheUnusable, OSError) as error:
        held = f"unusable: {error}"
    return "\n".join([f"compile cache: {held}", *(f"  {line}" for line in limits.describe())])
