"""A program given as a folder of files (a problem package's submission or validator): its
files read safely, once, into memory.

The judge reads a submission's files outside the sandbox, as itself (often root), so a folder is
never taken at its word: a symbolic link anywhere inside it is refused, never followed (it could
name /etc/shadow or the package's secret answers), and so is anything but regular files and
folders (a FIFO would block the read). Every file is opened relative to its folder's descriptor
with O_NOFOLLOW, so a link swapped in after the check is not followed either. The files are
capped in number and in total size by their size as ``lstat`` gives it, before any is read (a
3 GiB sparse file is refused at once, never read nor copied into the build cache), and reading
stops at the cap should a file grow meanwhile. Names starting with a dot (``.git``) are left
out, unread.

A package's own programs (its validators, generators and example submissions) may link to a file
or folder of the package (``load_package`` checked that every link stays inside it):
``follow_file_links`` reads those, a folder linked to as a folder of the program (a folder that
holds itself, through a link, is refused).

Which of a folder's files is its entry is its language's rule (``Language.prepare_folder``);
``entry_file`` is the rule most of them share.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from pathlib import Path

from judge.errors import CompileError, RefusedSubmission
from judge.sandbox.host import CLOSE_ON_EXEC, DIRECTORY, NO_FOLLOW, NON_BLOCKING

FOLDER_MAX_BYTES = 8 << 20  # the total size of a folder program's files
FOLDER_MAX_FILES = 200  # files and folders inside it, counted together
CAPS = f"at most {FOLDER_MAX_FILES} files and {FOLDER_MAX_BYTES >> 20} MiB in all"
_DIRECTORY_FLAGS = os.O_RDONLY | DIRECTORY | NO_FOLLOW | CLOSE_ON_EXEC
_FILE_FLAGS = os.O_RDONLY | NO_FOLLOW | NON_BLOCKING | CLOSE_ON_EXEC


@dataclass
class _Budget:
    """What is left of the caps while a folder is read."""

    root: str
    entries: int = FOLDER_MAX_FILES
    bytes: int = FOLDER_MAX_BYTES

    def count(self, name: str) -> None:
        self.entries -= 1
        if self.entries < 0:
            raise RefusedSubmission(f"{self.root} holds more than {FOLDER_MAX_FILES} files and folders "
                                    f"(reached at {name}); a folder submission holds {CAPS}")

    def check(self, name: str, size: int) -> None:
        """Refuse a file of ``size`` bytes that would take the folder over its cap."""
        if size > self.bytes:
            raise RefusedSubmission(f"{self.root}: its files come to more than {FOLDER_MAX_BYTES >> 20} MiB "
                                    f"({name} alone is {_size(size)}); a folder submission holds {CAPS}")

    def take(self, name: str, size: int) -> None:
        self.check(name, size)
        self.bytes -= size


def _size(size: int) -> str:
    return f"{size / (1 << 30):.1f} GiB" if size >= 1 << 30 else f"{size / (1 << 20):.1f} MiB"


def read_folder(directory: Path, follow_file_links: bool = False) -> dict[str, bytes]:
    """{name relative to ``directory``: content} of its files, hidden ones left out, in order of
    name. RefusedSubmission names the file at fault (a link, a special file, over the caps). The
    folder itself may be a link: whoever named it has checked it (`judge run --student` refuses
    one, a package's links stay inside the package)."""
    budget = _Budget(directory.name)
    try:
        top = os.open(directory, os.O_RDONLY | DIRECTORY | CLOSE_ON_EXEC)
    except OSError as error:
        raise RefusedSubmission(f"cannot read the folder {directory}: {error.strerror}") from None
    files: dict[str, bytes] = {}
    try:
        _read_into(files, top, "", budget, follow_file_links, (_identity(os.fstat(top)),))
    finally:
        os.close(top)
    return dict(sorted(files.items()))


def _read_into(files: dict[str, bytes], folder: int, prefix: str, budget: _Budget, follow_file_links: bool,
               above: tuple[tuple[int, int], ...]) -> None:
    """Read ``folder``'s files into ``files``; ``above``: the identities of the folders it is in
    (itself included), for a link that would lead back into one of them."""
    for name in _names(folder, prefix, budget):
        where = f"{budget.root}/{prefix}{name}"
        try:
            info = os.stat(name, dir_fd=folder, follow_symlinks=False)
        except OSError as error:  # gone since it was listed
            raise RefusedSubmission(f"cannot read {where}: {error.strerror}") from None
        if stat.S_ISLNK(info.st_mode):
            if not follow_file_links:
                raise RefusedSubmission(f"{where} is a symbolic link, not followed; a folder submission holds "
                                        f"regular files and folders only")
            info = _linked(name, folder)
            if info is None:
                continue  # a link to nothing, or to neither a file nor a folder: left out
            if _identity(info) in above:
                raise RefusedSubmission(f"{where} is a symbolic link to a folder it is in; a program's folder "
                                        f"cannot hold itself")
        if stat.S_ISDIR(info.st_mode):
            flags = _DIRECTORY_FLAGS & ~os.O_NOFOLLOW if follow_file_links else _DIRECTORY_FLAGS
            inner = _open(name, folder, flags, where)
            try:
                if _identity(os.fstat(inner)) != _identity(info):  # swapped since it was looked at
                    raise RefusedSubmission(f"cannot read {where}: it changed while it was read")
                _read_into(files, inner, f"{prefix}{name}/", budget, follow_file_links, (*above, _identity(info)))
            finally:
                os.close(inner)
        elif stat.S_ISREG(info.st_mode):
            budget.check(where, info.st_size)  # by its size alone: a huge file is never opened
            files[prefix + name] = _read_file(name, folder, where, budget, follow_file_links)
        else:
            raise RefusedSubmission(f"{where} is not a regular file (a device, FIFO or socket); a folder "
                                    f"submission holds regular files and folders only")


def _names(folder: int, prefix: str, budget: _Budget) -> list[str]:
    """The folder's entries but hidden ones, each counted against the cap as it is listed (a
    folder of a million files is refused after the first few hundred)."""
    names = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if not entry.name.startswith("."):
                budget.count(prefix + entry.name)
                names.append(entry.name)
    return sorted(names)


def _linked(name: str, folder: int) -> os.stat_result | None:
    """What a link leads to, when that is a regular file or a folder (in a package's own program)."""
    try:
        info = os.stat(name, dir_fd=folder)
    except OSError:
        return None
    return info if stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode) else None


def _identity(info: os.stat_result) -> tuple[int, int]:
    return info.st_dev, info.st_ino


def _open(name: str, folder: int, flags: int, where: str) -> int:
    try:
        return os.open(name, flags, dir_fd=folder)
    except OSError as error:  # ELOOP: it became a link since it was looked at
        reason = "it became a symbolic link" if error.errno == errno.ELOOP else error.strerror
        raise RefusedSubmission(f"cannot read {where}: {reason}") from None


def _read_file(name: str, folder: int, where: str, budget: _Budget, follow_file_links: bool) -> bytes:
    """The file's bytes, read no further than what is left of the cap (it may have grown since
    its size was taken)."""
    descriptor = _open(name, folder, _FILE_FLAGS & ~NO_FOLLOW if follow_file_links else _FILE_FLAGS, where)
    with os.fdopen(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):  # swapped for something else since
            raise RefusedSubmission(f"{where} is not a regular file; a folder submission holds regular files "
                                    f"and folders only")
        content = handle.read(budget.bytes + 1)
    budget.take(where, len(content))
    return content


def entry_file(files: dict[str, bytes], suffixes: tuple[str, ...], preferred: tuple[str, ...], path: Path,
               chosen: str | None, first_otherwise: bool = False) -> str:
    """A folder program's entry file: ``chosen``, else the first of ``preferred`` there is, else
    the only source (a file with ``suffixes``; with ``first_otherwise``, the first source in name
    order); CompileError when there is none."""
    if chosen:
        if chosen not in files:
            raise CompileError(f"{path.name}: its entry point {chosen} is not one of its files")
        return chosen
    for name in preferred:
        if name in files:
            return name
    candidates = [name for name in files if name.endswith(suffixes)]
    if len(candidates) == 1 or (candidates and first_otherwise):
        return min(candidates)
    raise CompileError(f"{path.name}: cannot tell the entry file among {', '.join(candidates)}; "
                       f"name it {' or '.join(preferred)}")
