"""Runs inside the sandbox: start a Python script as `python3 -I -S -B SCRIPT ARGS...` starts it,
with `exit` and `quit` defined as the `site` module defines them.

The interpreter runs with -S, which skips `site` (a slow start, and site-packages are not the
standard library); students call exit() and quit() all the same, so this file gives them the
two `site` would. Everything else is as in a plain run: the script runs as `__main__` with the
same globals, `sys.argv`, source decoding, tracebacks (without this file's frames), recursion
depth and exit status. Imports nothing of the judge and no module a plain run does not load
but `_sitebuiltins` (which `site` loads too), and `os`, which a plain run has loaded through
`site` before the script starts; the warm server (python_server.py) uses the same functions, so
that warm and cold runs start alike.

Usage: python3 -I -S -B start.py SCRIPT [ARGS...]
"""

import builtins
import os  # noqa: F401  as `site` does in a plain run: a script whose first import is genericpath
import sys  # (an editor's auto-import) would otherwise import it half-made, through os, and fail

UTF8_BOM = b"\xef\xbb\xbf"


def install_quitters():
    """`exit` and `quit` in builtins, as site.setquit makes them on POSIX."""
    import _sitebuiltins  # only here: with -S, nothing else of a case's start needs it

    eof = "Ctrl-D (i.e. EOF)"
    builtins.quit = _sitebuiltins.Quitter("quit", eof)
    builtins.exit = _sitebuiltins.Quitter("exit", eof)


def compile_script(path):
    """The script's code, from its source read as the interpreter reads a script it runs.

    compile() of the bytes lets any byte through a comment; the interpreter's file reader wants
    UTF-8 on every line unless an encoding is declared (PEP 263), and raises this SyntaxError."""
    with open(path, "rb") as handle:
        source = handle.read()
    undeclared = first_non_utf8(source)
    if undeclared is not None:
        line, byte = undeclared
        raise SyntaxError(f"Non-UTF-8 code starting with '\\x{byte:02x}' in file {path} on line {line}, "
                          "but no encoding declared; see https://peps.python.org/pep-0263/ for details")
    return compile(source, path, "exec", dont_inherit=True)


def first_non_utf8(source):
    """(line number, first byte) of the first line that is not UTF-8 where the source declares no
    encoding (no byte-order mark, no coding comment before that line), or None."""
    try:
        source.decode("utf-8")
        return None  # the usual case, in one step
    except UnicodeDecodeError:
        pass
    if source.startswith(UTF8_BOM):
        return None
    may_declare = True  # a coding comment counts on line 1, or on line 2 after a comment line
    for number, line in enumerate(source.splitlines(), 1):  # \n, \r\n and \r, as the reader
        if may_declare and number <= 2:
            if declares_encoding(line):
                return None
            may_declare = line.lstrip(b" \t\f").startswith(b"#") or not line.strip(b" \t\f")
        try:
            line.decode("utf-8")
        except UnicodeDecodeError as error:
            return number, line[error.start]
    return None


def declares_encoding(line):
    """Whether a line is a PEP 263 coding comment (`# -*- coding: NAME -*-`, `# vim: set
    fileencoding=NAME`), as the interpreter's tokenizer recognises it."""
    if not line.lstrip(b" \t\f").startswith(b"#"):
        return False
    start = line.find(b"coding")
    while start >= 0:
        rest = line[start + 6:]
        if rest[:1] in (b":", b"="):
            name = rest[1:].lstrip(b" \t")
            if name[:1] and (name[:1].isalnum() or name[:1] in b"-_."):
                return True
        start = line.find(b"coding", start + 1)
    return False


def main_module(path):
    """A fresh `__main__` module for the script at ``path``, with the globals a plain run gives
    it, installed as sys.modules["__main__"] (pickle, dataclasses and typing look things up
    there)."""
    module = type(sys)("__main__")
    loader = sys.modules["_frozen_importlib_external"].SourceFileLoader("__main__", path)
    module.__dict__.update({"__file__": path, "__cached__": None, "__builtins__": builtins,
                            "__loader__": loader, "__annotations__": {}})
    sys.modules["__main__"] = module
    return module


def stack_depth():
    """How deep the caller's frame is (1: a module's top level)."""
    depth, frame = 0, sys._getframe(1)
    while frame is not None:
        depth += 1
        frame = frame.f_back
    return depth


def report_unreadable(error):
    """Report a script the interpreter cannot read (a SyntaxError from compile_script) as a plain
    run does: the error alone, no traceback."""
    error.__traceback__ = None
    sys.excepthook(type(error), error, None)


def report_uncaught(error, own_frames=1):
    """Print the traceback through sys.excepthook, as Python does for an uncaught exception,
    without the first ``own_frames`` frames (the runner's, not the script's)."""
    trace = error.__traceback__
    for _ in range(own_frames):
        trace = trace.tb_next if trace is not None and trace.tb_next is not None else trace
    error.__traceback__ = trace  # the hook shows the exception's own traceback
    try:
        sys.excepthook(type(error), error, trace)
    except BaseException:  # noqa: BLE001 - a broken hook: Python, too, falls back to the plain report
        sys.__excepthook__(type(error), error, trace)


def run_script(code, path):
    """Run the script's code as `__main__`. Exceptions pass through (SystemExit included)."""
    namespace = main_module(path).__dict__
    # The frames below the script's (this one and its callers: start.py's own, or the warm
    # server's) are frames a plain run does not have. The recursion limit counts them, and
    # exec() (a call into the interpreter): it grows by as many, so that recursion goes exactly
    # as deep as in a plain run.
    sys.setrecursionlimit(sys.getrecursionlimit() + stack_depth() + 1)
    exec(code, namespace)  # noqa: S102 - running the script is the point


def main():
    install_quitters()
    sys.argv = sys.argv[1:]
    path = sys.argv[0]
    try:
        code = compile_script(path)
    except SyntaxError as error:
        report_unreadable(error)
        sys.exit(1)
    try:
        run_script(code, path)
    except SystemExit:
        raise  # the interpreter ends the run as it ends a plain one
    except BaseException as error:  # noqa: BLE001 - reported as a plain run reports it
        report_uncaught(error, own_frames=2)  # run_script's frame and this one
        sys.exit(1)


if __name__ == "__main__":
    main()
