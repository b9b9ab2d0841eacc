"""Host paths the languages need, the size of the writable in-memory directories a run gets, and
where a piped run finds its pipes."""

from __future__ import annotations

import functools

SCRATCH_BYTES = 64 << 20  # size of the in-memory working directory, /tmp and /dev/shm


@functools.cache
def language_paths() -> tuple[str, ...]:
    """The host paths the languages declare for running and building their programs (an
    interpreter's standard library, a JDK, a compiler's headers), beyond the base system."""
    from judge.languages import runtime_paths  # the languages build on this package
    return runtime_paths()

# A run connected to another program (an interactive problem's validator) gets the pipe ends at
# these descriptors, not as the chain's standard input and output: bwrap's monitor and init
# close every descriptor above 2 in themselves (as the unshare tier's init shell does), so the
# program alone holds the pipes. The program's end of file is then the other side's closing
# its end (a validator may close its output and go on reading), not the whole sandbox's end.
# (unshare's own parent process keeps what it was given: in that tier the end comes with the
# other side's sandbox.)
PIPE_IN, PIPE_OUT = 5, 6
