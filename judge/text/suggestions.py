"""Naming what was meant when a name is wrong: the nearest known name, and a short list of the
known ones (a long list buries the one the user wanted)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

LISTED = 12  # names listed in full; more are counted


def nearest(name: str, known: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The known name closest to ``name``, if any is close enough to be a misspelling of it."""
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=cutoff)
    return close[0] if close else None


def listing(names: Iterable[str], limit: int = LISTED) -> str:
    """``names`` joined by commas, the first ``limit`` of them and how many more."""
    names = list(names)
    shown = ", ".join(names[:limit])
    return f"{shown} and {len(names) - limit} more" if len(names) > limit else shown
