"""checktestdata validators (``*.ctd``, DOMjudge's grammar for input files, common in older
packages): the ``checktestdata`` package, the implementation problemtools and BAPCtools run,
translates each into a standalone Python program, which then runs as any Python validator does,
in the sandbox. That program reads the input on stdin and exits 42 when it conforms to the
grammar, 43 when not, saying where on stderr. A grammar that does not parse is a validator that
does not build (CompileError).
"""

from __future__ import annotations

import sys
from pathlib import Path

from judge.errors import CompileError
from judge.languages import LANGUAGES, Program
from judge.model.vocabulary import TaskStyle

SUFFIX = ".ctd"


def _checktestdata():
    """The package's parser, imported when a grammar is first translated (a package without one
    never pays for it). Its import lifts the interpreter's limit on digits in an int's text for
    the whole process; the judge keeps that limit (it bounds what reading a returned value
    costs), so it is put back."""
    digits = sys.get_int_max_str_digits()
    try:
        from checktestdata.parser import ParserException, parse
        from checktestdata.tokenizer import tokenize
    finally:
        sys.set_int_max_str_digits(digits)
    return ParserException, parse, tokenize


def is_checktestdata(path: Path) -> bool:
    return path.is_file() and path.suffix == SUFFIX


# Runs the translated grammar as the main script; a rejection's reason (the first line of the
# checker's message, after it the input line and a caret) is printed last, where a report quotes
# a validator's message from.
LAUNCHER = """import sys
folder = __file__.rsplit("/", 1)[0]
with open(folder + "/{module}", encoding="utf-8") as handle:
    code = compile(handle.read(), {grammar!r}, "exec")
try:
    exec(code, {{"__name__": "__main__", "__file__": {grammar!r}}})
except Exception as error:
    if type(error).__name__ not in ("ValidationError", "TypeError"):
        raise
    reason, *where = str(error).splitlines() or ["rejected"]
    print(*where, {grammar!r} + ": " + reason, sep="\\n", file=sys.stderr)
    sys.exit(43)
"""
TRANSLATED_MODULE = "grammar_ctd.py"


def checktestdata_program(path: Path, grammar: bytes) -> Program:
    """The validator ``grammar`` (the text of the ``.ctd`` file at ``path``, its constants
    substituted) as a Python program."""
    launcher = LAUNCHER.format(module=TRANSLATED_MODULE, grammar=path.name)
    return LANGUAGES["python"].prepare_sources(  # type: ignore[attr-defined]
        {TRANSLATED_MODULE: translate(path.name, grammar).encode()}, launcher.encode(), "check.py", TaskStyle.STDIO)


def translate(name: str, grammar: bytes) -> str:
    """The standalone Python program that checks input against ``grammar``."""
    ParserException, parse, tokenize = _checktestdata()
    try:
        return parse(tokenize(grammar)).python_code(standalone=True)
    except ParserException as error:
        raise CompileError(f"{name}, line {error.token.line}, column {error.token.column}: {error}") from None
    except RecursionError:
        raise CompileError(f"{name}: its expressions nest too deeply to translate") from None
    except Exception as error:  # the tokenizer's own errors (they say where) are plain exceptions
        raise CompileError(f"{name}: {error}") from None
