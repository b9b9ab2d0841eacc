"""Function-style problems per language: the declaration each language shows for a typed
signature (``judge/model/signature.py``), and for compiled languages the generated harness that reads
the call's arguments, calls the submission once and prints the result as JSON.

A language gains function style by one module here (a ``FunctionStyle`` subclass) and the
``function_style`` attribute of its ``Language``. The harness's fixed part (a JSON reader and
writer for the vocabulary) lives in ``judge/harness/``; only the glue for one signature is
generated. Nothing of the harness is shown to the student: a compile failure is explained with
the declaration the judge expected, and the harness's own lines are removed from the message.
"""

from __future__ import annotations

import re

from judge.harness import HARNESS_DIR
from judge.model.signature import Signature

HEADLINES = {
    "main": "error: remove `main` from the file: the judge calls the function itself; declare {declaration}",
    "missing": "error: no {function} `{name}` found; the judge calls {declaration}",
    "class": "error: no class `Solution` found; the judge calls {declaration}",
    "mismatch": "error: `{name}` does not match the declaration the judge calls: {declaration}",
    "macro": ("error: `{name}` does not match the declaration the judge calls, {declaration}, once the "
              "file's macros are applied: a macro such as `#define int long long` changes its types"),
    "method": ("error: no {function} `{name}` found outside a class (is it inside class `Solution`? the judge "
               "calls a plain {function}, not a method); declare {declaration}"),
}
OPEN_QUOTE, CLOSE_QUOTE = "[`'\u2018]", "['\u2019]"  # gcc and ld quote names `so', 'so' or \u2018so\u2019
LINK_MAIN_TWICE = re.compile(f"multiple definition of {OPEN_QUOTE}main{CLOSE_QUOTE}")


def quoted(name: str, closing: str = CLOSE_QUOTE) -> str:
    """A regular expression for ``name`` as a compiler quotes it (``closing``: what follows it)."""
    return f"{OPEN_QUOTE}{re.escape(name)}{closing}"


class FunctionStyle:
    """How one language presents a typed signature (and, if compiled, calls it)."""

    needs_signature = True  # False: the language calls ``solution(*args)`` without knowing types
    takes_signature = True  # its Language.prepare takes ``signature`` (to build with, or to check)
    function_word = "function"  # what the language calls a function (Java: a method)
    # A compiler line that starts a new diagnostic (gcc: anything not indented).
    diagnostic_start = re.compile(r"^\S")

    def declaration(self, signature: Signature) -> str:
        """The declaration a submission in this language must contain, as the student writes it."""
        raise NotImplementedError

    def harness_files(self, signature: Signature) -> dict[str, bytes]:
        """The files compiled together with the submission (compiled languages only)."""
        raise NotImplementedError

    def diagnose(self, message: str, signature: Signature) -> str | None:
        """What the compiler says is wrong with the interface: main, missing, class, mismatch;
        None when the submission fails to compile for reasons of its own."""
        return None

    def compile_message(self, message: str, signature: Signature, kind: str | None = None) -> str:
        """The CE message: a headline naming the expected declaration (``kind``, else what
        ``diagnose`` finds), then the compiler's diagnostics about the student's own file."""
        declaration = f"`{self.declaration(signature)}`"
        own = self.own_diagnostics(message)
        kind = kind or self.diagnose(message, signature)
        if kind is None:
            return f"{own}\nnote: the judge calls {declaration}".strip()
        headline = HEADLINES[kind].format(name=signature.name, declaration=declaration, function=self.function_word)
        return f"{headline}\n{own}".strip()

    def own_diagnostics(self, message: str) -> str:
        """The compiler's message without the diagnostics about the judge's files (each with
        its quoted source lines), which are the judge's business, not the student's."""
        kept, hidden = [], False
        for line in message.splitlines():
            if self.diagnostic_start.match(line):
                hidden = self.is_harness_line(line)
            if not hidden:
                kept.append(line)
        return "\n".join(kept)

    def is_harness_line(self, line: str) -> bool:
        """A diagnostic about the judge's files, the forced declaration or the linker's temporaries."""
        return any(marker in line for marker in ("judge_", "<command-line>", "collect2:", "/usr/bin/ld"))


def harness_text(name: str) -> bytes:
    """A fixed part of a harness, from ``judge/harness/``."""
    return (HARNESS_DIR / name).read_bytes()
