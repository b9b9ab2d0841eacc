"""Rejudging with a preview: after a problem changed (a case, a limit, the reference), which
students' verdicts and scores would change, found by grading into a copy of the results store
so that nothing is recorded in the store itself."""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from judge.classroom.grading import ClassReport, discover
from judge.classroom.store import Store, suite_hash
from judge.languages.content_hash import source_hash


@dataclass(frozen=True)
class Change:
    student: str
    problem: str
    before: dict | None  # {"verdict", "score", "max_score"} as recorded; None: never judged before
    verdict: str
    score: float

    @property
    def changed(self) -> bool:
        return self.before is None or (self.before["verdict"], self.before["score"]) != (self.verdict, self.score)


@contextmanager
def scratch_store(store: Store) -> Iterator[Store]:
    """A copy of ``store`` to grade into, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="judge-preview-") as folder:
        path = Path(folder) / "preview.db"
        store.copy_to(path)
        scratch = Store(path)
        try:
            yield scratch
        finally:
            scratch.close()


def preview(folder: Path, store: Store, grade: Callable[[Store], ClassReport]) -> list[Change]:
    """What grading ``folder`` now (``grade`` into a store) would change against ``store``'s
    results of the same files: every submission whose problem or judge changed since it was
    judged, with its result then and now. Nothing is written to ``store``."""
    with scratch_store(store) as scratch:
        report = grade(scratch)
    results = {(student.student, problem): result for student in report.students
               for problem, result in student.results.items()}
    changes = []
    for entry in discover(folder, report.problems).entries:
        result = results.get((entry.student, entry.problem))
        if result is None:
            continue  # not graded (the report says why)
        source, suite = source_hash(entry.path), suite_hash(report.loaded[entry.problem])
        if store.is_complete(entry.student, entry.problem, source, suite):
            continue  # already judged as it stands: grading would change nothing
        before = store.earlier_result(entry.student, entry.problem, source, suite)
        changes.append(Change(entry.student, entry.problem, before, str(result.verdict), result.score))
    return sorted(changes, key=lambda change: (change.student, change.problem))
