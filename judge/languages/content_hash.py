"""Hashes of what a result depends on, which the results store keys results by: files (a folder
as a folder submission is read), a submission, and a problem's files hashed once per version."""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from judge.languages.base import read_source
from judge.languages.folder import read_folder


def file_hash(*paths: Path, follow_file_links: bool = False) -> str:
    """A hash of the files' contents (a directory: the names and contents of its files, read as
    read_folder reads them, its links followed only with ``follow_file_links``)."""
    digest = hashlib.sha256()
    for path in paths:
        if path.is_dir():  # read as a folder submission is: no links, within its caps
            for name, content in read_folder(path, follow_file_links).items():
                digest.update(name.encode() + b"\0" + content)
        digest.update(path.read_bytes() if path.is_file() else b"")
        digest.update(b"\0")
    return digest.hexdigest()


def source_hash(source: Path, follow_file_links: bool = False) -> str:
    """A submission's hash, its file read as the languages read it (a symbolic link is refused,
    but in a package's own folder with ``follow_file_links``), the same as ``file_hash`` gives."""
    if source.is_dir():  # a problem package's submission of several files
        return file_hash(source, follow_file_links=follow_file_links)
    return hashlib.sha256(read_source(source) + b"\0").hexdigest()


def current_hash(paths: tuple[Path, ...]) -> str:
    """``file_hash`` of ``paths``, hashed once per version of those files, not once per
    submission graded."""
    return _hash_of_versions(paths, tuple(_version(path) for path in paths))


@functools.lru_cache(maxsize=64)
def _hash_of_versions(paths: tuple[Path, ...], versions: tuple) -> str:
    return file_hash(*paths)


def _version(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size
