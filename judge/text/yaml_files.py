"""Reading a YAML file of a problem (a suite, a package's problem.yaml or generators.yaml): the
safe loader only, and an error naming the file and the line when it is not YAML."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from judge.errors import SuiteError


def read_yaml(path: Path, edit: Callable[[str], str] | None = None) -> Any:
    """A YAML file's data (its text first changed by ``edit``, if given); SuiteError naming the
    file and the line when it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
        # libyaml's loader when PyYAML has it (several times faster); both are the safe loader.
        return yaml.load(edit(text) if edit else text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except OSError as error:
        raise SuiteError(f"{path}: cannot read it: {error.strerror}") from None
    except UnicodeDecodeError:
        raise SuiteError(f"{path}: not UTF-8 text") from None
    except yaml.YAMLError as error:
        where = getattr(error, "problem_mark", None)
        line = f" (line {where.line + 1}, column {where.column + 1})" if where else ""
        raise SuiteError(f"{path}{line}: not valid YAML: {getattr(error, 'problem', error)}") from None
