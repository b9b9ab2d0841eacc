"""Task types: how a case of a problem is run. A problem has exactly one.

A task type owns what differs between kinds of problem: how a case is written in a suite, what
the submission is given, what the reference solver and the input validator see, the checker
used when the suite names none, and how a case is shown to people. Everything else (limits,
sandbox, verdicts, scores) is shared. A new kind of task is one new module here, providing what
``judge.extension_points.TaskType`` declares, registered in ``TASK_TYPES`` by the name a suite's
``io`` field uses.
"""

from __future__ import annotations

from judge import extension_points
from judge.errors import SuiteError
from judge.tasks.base import TaskType
from judge.tasks.batch import Batch
from judge.tasks.function_call import FunctionCall

TASK_TYPES: dict[str, extension_points.TaskType] = {task.name: task for task in (Batch(), FunctionCall())}

__all__ = ["TASK_TYPES", "Batch", "FunctionCall", "TaskType", "task_type"]


def task_type(name: str) -> extension_points.TaskType:
    """The task type a suite's ``io`` field names; SuiteError listing the known ones."""
    try:
        return TASK_TYPES[name]
    except KeyError:
        raise SuiteError(f"unknown I/O style {name!r}; use one of {', '.join(TASK_TYPES)}") from None
