"""Host paths the languages need, the size of the writable in-memory directories a run gets, and
where a piped run finds its pipes."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

SCRATCH_BYTES = 64 << 20  # size of the in-memory working directory, /tmp and /dev/shm


# What the languages declare (judge/languages/ gives it on import): the sandbox sits below the
# languages and never imports them.
_declared: list[Callable[[], Iterable[str]]] = []


def expose_language_paths(paths: Callable[[], Iterable[str]]) -> None:
    """Have every view show the host paths ``paths()`` names (called once, when first needed)."""
    _declared.append(paths)
    language_paths.cache_clear()


@functools.cache
def language_paths() -> tuple[str, ...]:
    """The host paths the languages declare for running and building their programs (an
    interpreter's standard library, a JDK, a compiler's headers), beyond the base system."""
    return tuple(dict.fromkeys(path for paths in _declared for path in paths()))


# A run connected to another program (an interactive problem's validator) gets the pipe ends at
# these descriptors, not as the chain's standard input and output: bwrap's monitor and init
# close every descriptor above 2 in themselves (as the unshare tier's init shell does), so the
# program alone holds the pipes. The program's end of file is then the other side's closing
# its end (a validator may close its output and go on reading), not the whole sandbox's end.
# (unshare's own parent process keeps what it was given: in that tier the end comes with the
# other side's sandbox.)
PIPE_IN, PIPE_OUT = 5, 6
# Where the root tier's bwrap writes what it made (its init's pid: judge/sandbox/root_init.py).
INIT_INFO_FD = 7
