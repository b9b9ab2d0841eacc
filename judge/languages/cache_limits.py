"""How large the compile cache may grow, from the environment: in all, per build, and in age.

$JUDGE_CACHE_MAX_BYTES caps the whole cache (least recently used entries go first),
$JUDGE_CACHE_MAX_BUILD_BYTES one build (a larger one is judged, but not kept), and
$JUDGE_CACHE_MAX_AGE_DAYS how long an unused entry stays. Sizes are bytes, or a number with K, M
or G (powers of 1024).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from judge.errors import UsageError

TOTAL_ENV = "JUDGE_CACHE_MAX_BYTES"
BUILD_ENV = "JUDGE_CACHE_MAX_BUILD_BYTES"
AGE_ENV = "JUDGE_CACHE_MAX_AGE_DAYS"
DEFAULT_TOTAL = 1 << 30
# Far above any ordinary build (a compiled C program is tens of KiB, a Java program's classes
# fewer): what exceeds it is a program carrying its data, say a 60 MiB initialised array.
DEFAULT_BUILD = 16 << 20
DEFAULT_AGE_DAYS = 30.0
DAY = 86400.0
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?", re.IGNORECASE)
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}


@dataclass(frozen=True)
class CacheLimits:
    total_bytes: int
    build_bytes: int
    age_seconds: float

    def describe(self) -> list[str]:
        """The caps in words, a line each (for `judge doctor`)."""
        return [f"in all:    {size_text(self.total_bytes)} (${TOTAL_ENV}); the least recently used entries go first",
                f"per build: {size_text(self.build_bytes)} (${BUILD_ENV}); a larger build is judged, but not kept",
                f"age:       an entry unused for {self.age_seconds / DAY:g} days goes (${AGE_ENV})"]


def cache_limits() -> CacheLimits:
    """The caps in force (read each time: they are a few environment lookups)."""
    return CacheLimits(_size(TOTAL_ENV, DEFAULT_TOTAL), _size(BUILD_ENV, DEFAULT_BUILD),
                       _days(AGE_ENV, DEFAULT_AGE_DAYS) * DAY)


def _size(variable: str, default: int) -> int:
    text = os.environ.get(variable, "").strip()
    if not text:
        return default
    match = _SIZE.fullmatch(text)
    if not match:
        raise UsageError(f"${variable}={text!r} is not a size; give bytes, or a number with K, M or G (e.g. 2G)")
    return int(float(match.group(1)) * _UNITS[match.group(2).lower()])


def _days(variable: str, default: float) -> float:
    text = os.environ.get(variable, "").strip()
    if not text:
        return default
    try:
        days = float(text)
    except ValueError:
        days = -1.0
    if not days > 0 or days == float("inf"):
        raise UsageError(f"${variable}={text!r} is not a number of days; give a positive number (e.g. 30 or 0.5)")
    return days


def size_text(size: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale:
            return f"{size / scale:.3g} {unit}"
    return f"{size} bytes"
