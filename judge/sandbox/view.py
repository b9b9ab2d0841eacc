"""What a sandboxed run sees of the host: an allow-list, the same in every tier that hides the
file system (root and bwrap, and unshare where it can build a mount namespace).

The view is built from nothing: an empty read-only root, into which the run's runtime is bound
read-only (the system's executables and shared libraries, and the paths each language declares
for running and building its programs), then the run's own directories. Nothing else of the
host is there: no ``site-packages``/``dist-packages``, no judge install, no problem wherever it
lies, no ``/opt``, ``/var``, ``/home``, ``/root``, ``/srv``, ``/mnt``, ``/media``. Whatever a
future install layout puts elsewhere stays out without anyone listing it.

Inside the bound runtime, two kinds of directory are covered again by an empty read-only
tmpfs: Python package directories (a ``site-packages`` below an interpreter's standard library,
as an interpreter outside ``/usr`` has it), and every place the judge was told holds problems or
the judge itself (``conceal``), in case one lies inside a runtime path.

Every such tier renders the same ``Mount`` list: bwrap as its options (run by root in the root
tier, in a user namespace in the bwrap tier), the unshare tier as a mount(8) script
(judge/sandbox/new_root.py).
"""

from __future__ import annotations

import functools
import glob
import os
from dataclasses import dataclass
from pathlib import Path

from judge.sandbox.runtime import SCRATCH_BYTES, language_paths

# The base system every program needs: its executables (the sandbox's own tool chain runs from
# /usr/bin inside the view too) and shared libraries, the dynamic linker's cache, the locale
# and time-zone data the C library reads. On a merged-/usr system /bin, /lib and /lib64 are
# symbolic links into /usr, recreated as such.
BASE_PATHS = ("/usr/bin", "/bin", "/lib", "/lib64", "/lib32", "/libx32", "/usr/lib64", "/usr/lib32",
              "/usr/libx32", "/usr/lib/locale", "/usr/share/zoneinfo",
              "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/alternatives", "/etc/localtime")
MULTIARCH_LIBRARIES = "/usr/lib/*-linux-gnu*"  # /usr/lib/x86_64-linux-gnu and its kind
PYTHON_PACKAGE_DIRS = ("site-packages", "dist-packages")
DEVICES = ("null", "zero", "full", "random", "urandom")
EMPTY_BYTES = 64 << 10  # size of the empty tmpfs that covers what must not be seen

# Places the judge was told hold problems (or is itself): covered where a runtime path holds them.
_concealed: set[str] = set()


@dataclass(frozen=True)
class Mount:
    """One step of building a view, at ``target`` (the path the program sees).

    kind: ``ro`` (bind ``source`` read-only), ``rw`` (bind ``source`` writable), ``symlink``
    (a link to ``source``), ``tmpfs`` (empty, ``size`` bytes, writable: a scratch directory),
    ``cover`` (empty and read-only: hides what is below)."""

    kind: str
    target: str
    source: str = ""
    size: int = 0

    @property
    def depth(self) -> int:
        return self.target.rstrip("/").count("/")


def conceal(path: Path | str) -> None:
    """Cover ``path`` in every view should a runtime path ever hold it (a problem root given
    with --problems or $JUDGE_PROBLEMS, a package, the working directory's problems)."""
    _concealed.add(os.path.realpath(path))


def runtime_paths() -> tuple[str, ...]:
    """Every host path of the runtime, as it is named (symbolic links unresolved), that exists."""
    candidates = (*BASE_PATHS, *sorted(glob.glob(MULTIARCH_LIBRARIES)), *language_paths())
    return tuple(path for path in dict.fromkeys(candidates) if os.path.lexists(path))


def runtime_mounts() -> list[Mount]:
    """The read-only runtime: a bind per path (a link where the host has one), then the covers."""
    paths = runtime_paths()
    mounts = [Mount("symlink", path, os.readlink(path)) if os.path.islink(path) else Mount("ro", path, path)
              for path in _outermost(paths)]
    bound = [mount.target for mount in mounts if mount.kind == "ro"]
    mounts += [Mount("cover", path) for path in covered_paths(bound)]
    return mounts


def covered_paths(bound: list[str]) -> list[str]:
    """Directories inside ``bound`` to cover: Python package directories and concealed places
    (never one that holds a bound path itself: covering it would take the runtime away)."""
    found = [*_package_dirs(tuple(path for path in bound if os.path.isdir(path)))]
    for secret in sorted(_concealed | _judge_itself()):
        inside = any(secret.startswith(path.rstrip("/") + "/") for path in bound)
        holds = any(path == secret or path.startswith(secret + "/") for path in bound)
        if inside and not holds and os.path.isdir(secret):
            found.append(secret)
    return _outermost(found)


@functools.cache
def _package_dirs(bound: tuple[str, ...]) -> tuple[str, ...]:
    """``site-packages`` and ``dist-packages`` directories where Python keeps them below a bound
    path: in it, or in its ``python*/``, ``lib/python*/`` or ``local/lib/python*/`` (an
    interpreter's lib/python3.X/site-packages, Debian's /usr/lib/python3/dist-packages, pip's
    /usr/local/lib/python3.X/dist-packages). Only those places are looked at, each listed once:
    listing every folder two levels down (/usr/lib/x86_64-linux-gnu and its thousands), or a
    glob per place and name, cost a third of a one-case run."""
    places = [place for path in bound for place in (path, *_python_folders(path),
                                                     *_python_folders(os.path.join(path, "lib")),
                                                     *_python_folders(os.path.join(path, "local", "lib")))]
    found = [candidate for place in places for name in PYTHON_PACKAGE_DIRS
             if os.path.isdir(candidate := os.path.join(place, name)) and not os.path.islink(candidate)]
    return tuple(sorted(found))


def _python_folders(folder: str) -> list[str]:
    """The entries of ``folder`` named python* (none if it is not a readable folder)."""
    try:
        with os.scandir(folder) as entries:
            return [entry.path for entry in entries if entry.name.startswith("python")]
    except OSError:
        return []


def _judge_itself() -> set[str]:
    """The judge's package (its built-in problems with it) and, in a checkout, the checkout."""
    package = Path(__file__).resolve().parent.parent
    return {str(package), str(package.parent)} if (package.parent / "pyproject.toml").exists() else {str(package)}


def _outermost(paths) -> list[str]:
    """``paths`` without those inside another of them (binding the outer one shows them)."""
    chosen: list[str] = []
    for path in sorted(set(paths), key=len):
        if not any(path.startswith(other.rstrip("/") + "/") for other in chosen):
            chosen.append(path)
    return chosen


def scratch_mounts(paths: tuple[str, ...], writable: bool = True) -> list[Mount]:
    """Empty tmpfs of SCRATCH_BYTES each, the run's own (``/tmp``, ``/dev/shm``...); covers
    (read-only) for a program that may not write files."""
    return [Mount("tmpfs", path, size=SCRATCH_BYTES) if writable else Mount("cover", path) for path in paths]


def ordered(mounts: list[Mount]) -> list[Mount]:
    """Parents before children (a bind below /tmp comes after /tmp's tmpfs), otherwise as given."""
    return sorted(mounts, key=lambda mount: mount.depth)
