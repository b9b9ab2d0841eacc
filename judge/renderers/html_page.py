"""What the judge's HTML pages share: the Jinja2 environment over ``judge/renderers/templates`` (autoescape
on, and control characters and bidirectional overrides shown as escapes: everything shown may
come from a submission), their inline assets, and the
Content-Security-Policy hash that lets exactly the page's own inline script (or style sheet) in."""

from __future__ import annotations

import base64
import functools
import hashlib
from pathlib import Path

import jinja2
from markupsafe import Markup

from judge.text.visible_text import visible

TEMPLATES = Path(__file__).parent / "templates"


@functools.cache
def environment() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, finalize=_shown,
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def _shown(value):
    """What a template prints: text with its control characters and bidirectional overrides as
    escapes (so a name cannot read reversed); the page's own markup (Markup) as it is."""
    return visible(value) if isinstance(value, str) and not isinstance(value, Markup) else value


def asset(name: str) -> str:
    """An inline asset (CSS or script) from ``judge/renderers/templates``."""
    return (TEMPLATES / name).read_text(encoding="utf-8")


def csp_hash(script: str) -> str:
    """The CSP source (``'sha256-...'`` without quotes) allowing exactly this inline script or style sheet."""
    return "sha256-" + base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
