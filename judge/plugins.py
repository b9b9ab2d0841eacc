"""Other packages' plugins: the objects they register in one of the judge's entry-point groups
(``judge.languages``, ``judge.formats``).

importlib.metadata finds them, at a price every command that asks would pay: importing it takes
10 to 20 ms (it loads the email parser), before it reads every installed distribution's metadata.
Most installs declare no plugin at all. So the folders on ``sys.path`` are first read for a
distribution whose ``entry_points.txt`` names a group (the files importlib.metadata itself reads),
and importlib.metadata is asked only for a group one of them names, or when something on the path
is not a plain folder (an archive, or an import hook that can list distributions).
"""

from __future__ import annotations

import functools
import importlib.machinery
import os
import sys

METADATA_SUFFIXES = (".dist-info", ".egg-info")


def registered(group: str) -> list[object]:
    """What other packages register in ``group``, loaded (a class registered is instantiated)."""
    declared = declared_groups()
    if declared is not None and group not in declared:
        return []
    from importlib.metadata import entry_points  # deferred: see the module's docstring

    found = []
    for entry in entry_points(group=group):
        loaded = entry.load()
        found.append(loaded() if isinstance(loaded, type) else loaded)
    return found


@functools.cache
def declared_groups() -> frozenset[str] | None:
    """The entry-point groups the distributions on ``sys.path`` declare; None when that cannot be
    told by reading folders (then every group must be asked of importlib.metadata)."""
    if any(_lists_distributions(finder) for finder in sys.meta_path):
        return None
    groups: set[str] = set()
    for entry in sys.path:
        folder = entry or os.curdir  # "" is the working directory, as the import system reads it
        if os.path.isfile(folder):  # a zip archive or an egg: its metadata is inside it
            return None
        groups.update(_groups_in(folder))
    return frozenset(groups)


def _lists_distributions(finder) -> bool:
    """Whether an import hook other than Python's own path finder may list distributions."""
    return finder is not importlib.machinery.PathFinder and hasattr(finder, "find_distributions")


def _groups_in(folder: str) -> set[str]:
    """The groups named by the ``entry_points.txt`` of the distributions kept in ``folder``."""
    try:
        names = os.listdir(folder)
    except OSError:  # a path entry that does not exist, or cannot be read: no distributions there
        return set()
    groups: set[str] = set()
    for name in names:
        if name.endswith(METADATA_SUFFIXES):
            groups.update(_sections(os.path.join(folder, name, "entry_points.txt")))
    return groups


def _sections(path: str) -> set[str]:
    """The ``[section]`` headers of an ini-style file (none when there is no such file)."""
    try:
        with open(path, encoding="utf-8", errors="replace") as lines:
            headers = [stripped for stripped in map(str.strip, lines) if stripped.startswith("[")]
    except OSError:  # no entry_points.txt (most distributions), or a file egg-info
        return set()
    return {header[1:-1].strip() for header in headers if header.endswith("]")}
