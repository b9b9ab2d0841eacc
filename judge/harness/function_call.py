"""Runs inside the sandbox: call the submission's ``solution(*args)`` and print the result as JSON.

Arguments arrive as a JSON list on stdin. Whatever the submission prints goes to stderr, so the
result on stdout cannot be forged by printing. Exits 1 with one line on stderr when the call
cannot be made or raises. Imports nothing of the judge.
"""

import importlib.util
import inspect
import json
import os
import sys
import traceback


def fail(message):
    sys.stderr.write("\n" + message + "\n")
    sys.stderr.flush()
    os._exit(1)


def where_in(path, error):
    """The last traceback frame inside the submission's own file, as 'file, line N'."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == path]
    if not frames:
        return ""
    return f" (solution.py, line {frames[-1].lineno})"


def exit_call(request):
    """How the submission asked to exit, as it would have written it: exit(), exit(3)."""
    return f"exit({'' if request.code is None else repr(request.code)})"


def main():
    path = sys.argv[1]
    args = json.loads(sys.stdin.read())
    result_fd = os.dup(1)
    os.dup2(2, 1)  # the submission's prints go to stderr
    spec = importlib.util.spec_from_file_location("solution", path)
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except MemoryError:
        raise
    except SystemExit as error:
        fail(f"loading the submission ended the program ({exit_call(error)}){where_in(path, error)}")
    except BaseException as error:  # noqa: BLE001 - any failure while loading is the submission's
        fail(f"loading the submission failed: {type(error).__name__}: {error}{where_in(path, error)}")
    solution = getattr(module, "solution", None)
    if not callable(solution):
        fail("the submission defines no function `solution`")
    try:
        inspect.signature(solution).bind(*args)
    except TypeError as error:
        fail(f"solution() cannot take {len(args)} arguments: {error}")
    except ValueError:
        pass
    sys.setrecursionlimit(100000)
    try:
        result = solution(*args)
    except MemoryError:
        raise
    except RecursionError as error:
        fail(f"RecursionError: {error}{where_in(path, error)}")
    except SystemExit as error:
        fail(f"solution() ended the program ({exit_call(error)}) instead of returning{where_in(path, error)}")
    except BaseException as error:  # noqa: BLE001
        fail(f"{type(error).__name__}: {error}{where_in(path, error)}")
    try:
        text = json.dumps(result)
    except (TypeError, ValueError):
        fail(f"solution() returned a {type(result).__name__}, which is not plain data")
    sys.stdout.flush()
    os.write(result_fd, text.encode())


if __name__ == "__main__":
    main()
