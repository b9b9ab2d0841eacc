"""The judge's error vocabulary: one base the command line catches, one class per kind of fault.

Each message is written for a person: it names the file or thing at fault and how to fix it. The
command line prints ``judge: error: <message>`` and exits 2 for every ``JudgeError``; anything
else is a bug in the judge and keeps its traceback.
"""

from __future__ import annotations

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2  # the statuses every command exits with (a JudgeError: EXIT_USAGE)


class JudgeError(Exception):
    """A fault of the input or the set-up, described for the person who can fix it."""


class UsageError(JudgeError):
    """Bad arguments or configuration."""


class SuiteError(JudgeError):
    """A problem (its suite, package or one of its parts) is malformed or missing."""


class UnknownLanguage(JudgeError):
    """Neither the file's extension nor --lang names a supported language."""


class UnsupportedSubmission(JudgeError):
    """The submission's language cannot be used for this problem."""


class RefusedSubmission(UnsupportedSubmission):
    """A submission the judge will not read: a symbolic link or special file in its folder, or a
    folder over its caps (see judge/languages/folder.py)."""


class SandboxError(JudgeError):
    """The sandbox cannot run programs as asked (the grader's fault, never the student's)."""


class StoreError(JudgeError):
    """The results database cannot be used."""


class StressError(JudgeError):
    """A problem's stress-testing strategy is missing or broken."""


class LanguageUnavailable(JudgeError):
    """The toolchain for a language is missing: the grader's problem, never the student's."""


class CompileError(JudgeError):
    """The submission does not compile (or, for Python, does not parse): verdict CE."""


class JudgeFault(JudgeError):
    """The judge's own side (reference, checker, validator) failed while judging a case: IE."""


class ClusterError(JudgeError):
    """The Dask cluster cannot be used for grading (unreachable, no usable worker, bad options)."""
