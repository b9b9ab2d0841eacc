"""A source's fingerprints for `judge similarity`, by copydetect: its tokens (names replaced by
their kind, so renamed variables do not hide a copy), hashed k-grams and MOSS's winnowing. Each
source is lexed once (the costly step) and every fingerprint it needs is made from that one token
stream; ``fingerprint_source`` is what judge/classroom/similarity.py runs under a budget per file
(judge/classroom/budget_worker.py)."""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from typing import Any

# copydetect's own defaults: matches shorter than NOISE tokens are ignored, and every match of
# GUARANTEE tokens or more is found (the winnowing window is their difference plus one).
NOISE_TOKENS = 25
GUARANTEE_TOKENS = 30
WINDOW = GUARANTEE_TOKENS - NOISE_TOKENS + 1


@dataclass
class SourcePrints:
    """One source's fingerprints (copydetect CodeFingerprint objects, or hashes)."""

    whole: Any  # every winnowed k-gram: compared with the judge's own solutions
    among_students: Any = None  # without the boilerplate's k-grams: compared with other students
    every_kgram: frozenset[int] = frozenset()  # a boilerplate source's k-grams, every one (a window of one)


def fingerprint_source(name: str, text: str, ignored: tuple[int, ...] | None = None,
                       every_kgram: bool = False) -> SourcePrints:
    """``text`` (its ``name`` gives the lexer, by its extension) lexed once and fingerprinted:
    whole; without the k-grams ``ignored`` (when given); and, with ``every_kgram``, every k-gram
    of it (a student's copy of a boilerplate passage may be winnowed at other places)."""
    fingerprint_class, _ = copydetect_functions()
    from copydetect.utils import filter_code

    tokens, offsets = filter_code(text, name)

    def fingerprint(window: int, boilerplate) -> Any:
        made = fingerprint_class(name, NOISE_TOKENS, window, boilerplate=list(boilerplate), filter=False,
                                 fp=io.StringIO(tokens))
        made.raw_code, made.offsets = text, offsets  # slices map back onto the text, as when it lexes itself
        return made

    return SourcePrints(
        whole=fingerprint(WINDOW, ()),
        among_students=fingerprint(WINDOW, ignored) if ignored is not None else None,
        every_kgram=frozenset(int(value) for value in fingerprint(1, ()).hashes) if every_kgram else frozenset())


def warm_up() -> None:
    """What every fingerprint needs, loaded before any file's budget runs (judge/classroom/budget_worker.py)."""
    fingerprint_source("warm_up.py", "print(1)\n")


def copydetect_functions():
    """copydetect's CodeFingerprint and compare_files, its k-grams hashed with a hash of their own
    text: it uses Python's hash(), whose seed changes with every process, so which k-grams the
    winnowing keeps, and so the shared token counts, would change from one run to the next."""
    import copydetect  # numpy and pygments: only for this command
    import copydetect.utils

    copydetect.utils.hashed_kgrams = _stable_kgram_hashes
    return copydetect.CodeFingerprint, copydetect.compare_files


def _stable_kgram_hashes(text: str, k: int):
    import numpy  # copydetect's own dependency

    return numpy.array([int.from_bytes(hashlib.blake2b(text[offset:offset + k].encode("utf-8", "surrogatepass"),
                                                       digest_size=8).digest(), "little", signed=True)
                        for offset in range(len(text) - k + 1)], dtype=numpy.int64)
