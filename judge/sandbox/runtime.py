"""Host paths a runtime needs, and the size of the writable in-memory directories a run gets."""

from __future__ import annotations

import functools

SCRATCH_BYTES = 64 << 20  # size of the in-memory working directory and /tmp under bwrap
# Host paths a runtime needs, bound read-only into the bwrap view when they exist.
# Each language adds its own (judge.languages.runtime_paths).
RUNTIME_PATHS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
                 "/etc/alternatives", "/etc/ld.so.cache", "/etc/ssl/certs", "/etc/localtime")


@functools.cache
def extra_runtime_paths() -> tuple[str, ...]:
    """The paths the languages' runtimes need (a JDK's configuration, a Python outside /usr)."""
    from judge.languages import runtime_paths  # the languages build on this package
    return runtime_paths()
