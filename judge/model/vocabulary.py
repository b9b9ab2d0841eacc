"""The judge's words for what a problem is and how it runs: a task's style, a case's visibility,
a sandbox tier. Each is a ``str`` (as ``judge.model.verdict.Verdict`` is): it compares equal to, prints
as and is written in YAML, JSON and the results store as its text ("stdio", "sample", "bwrap"),
so suites, reports and older stores read the same."""

from __future__ import annotations

from enum import Enum

COLD_ENV = "JUDGE_COLD"  # set (`--cold`): every run starts afresh, no warm server


class Word(str, Enum):
    """A word of the judge's vocabulary: a ``str`` that formats as its text."""

    __str__ = str.__str__
    __format__ = str.__format__

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every word, in order, as text: for error messages that list the choices."""
        return tuple(word.value for word in cls)


class TaskStyle(Word):
    """How a submission meets a case: it reads stdin and writes stdout, or it defines a function
    the judge calls with the case's arguments."""

    STDIO = "stdio"
    FUNCTION = "function"


class Visibility(Word):
    """Who sees a case: a sample is the student's to see in full; a hidden case's input and
    expected output stay the judge's (judge/model/feedback.py says what is shown of it)."""

    SAMPLE = "sample"
    HIDDEN = "hidden"


class SandboxTier(Word):
    """The sandbox a run gets, strongest first (judge/sandbox/tiers.py picks one): the allow-list
    view of the file system built by a judge running as root, without a user namespace; the same
    view built by bwrap in a user namespace; unshare's namespaces, with the view where it can
    build one; none of its own, only limits and a uid."""

    ROOT = "root"
    BWRAP = "bwrap"
    UNSHARE = "unshare"
    NONE = "none"
