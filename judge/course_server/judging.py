"""One upload judged as `judge run` judges it (the same runner, the same rows through the same
CaseStream, the same summary after them), its rows written to the course's store as each case is
decided, as the upload's feedback level shows them; every case kept whole for the teacher, and
the result recorded in the results store as `judge run` records it."""

from __future__ import annotations

import dataclasses
import logging
import shutil
import threading
from collections.abc import Callable
from pathlib import Path

from judge.authoring.explain import explain, hidden_failures
from judge.classroom.store import Store, record_run
from judge.course_server.submissions import CourseStore, Upload
from judge.errors import EXIT_FAILED, EXIT_OK, JudgeError
from judge.formats.catalog import find_problem
from judge.languages import language_for
from judge.model.feedback import StudentView, at_least
from judge.model.problem import Problem
from judge.model.results import CaseResult
from judge.model.verdict import Verdict
from judge.renderers import load_format
from judge.renderers.case_stream import CaseStream, decide_unrun
from judge.renderers.report import CaseTable
from judge.runner import judge_submission
from judge.sandbox.scratch import scratch_dir

log = logging.getLogger("judge.serve")
ROW_WIDTH = 100  # the rows are drawn once, on the server, for every terminal that reads them


class LineSink:
    """A text file for CaseStream and print: each whole line goes to the store, then ``changed``
    is called (the HTTP side wakes the readers of the upload's rows)."""

    def __init__(self, store: CourseStore, upload_id: int, changed: Callable[[int], None]) -> None:
        self.store, self.upload_id, self.changed = store, upload_id, changed
        self.pending = ""

    def write(self, text: str) -> int:
        self.pending += text
        *lines, self.pending = self.pending.split("\n")
        for line in lines:
            self.store.add_line(self.upload_id, line)
        if lines:
            self.changed(self.upload_id)
        return len(text)

    def flush(self) -> None:
        pass


class Problems:
    """The course's problems, each loaded once and kept (as `judge run` loads it), by id."""

    def __init__(self, problems_dir: Path | None) -> None:
        self.problems_dir = problems_dir
        self.loaded: dict[str, Problem] = {}
        self.lock = threading.Lock()

    def get(self, problem_id: str) -> Problem:
        with self.lock:
            if problem_id not in self.loaded:
                self.loaded[problem_id] = find_problem(problem_id, self.problems_dir).load_to_judge()
            return self.loaded[problem_id]


def judge_upload(upload: Upload, source: bytes, problems: Problems, course: CourseStore, results: Store,
                 hints: bool, jobs: int, changed: Callable[[int], None], explain_seconds: float = 0) -> None:
    """Judge ``upload``: its rows to the store as they are decided, its verdict and `judge run`'s
    exit status at the end; with ``explain_seconds``, a hidden failure's counterexample searched
    for as `judge run --explain` does, where the upload's feedback level shows one."""
    course.start_judging(upload.id)
    changed(upload.id)
    sink = LineSink(course, upload.id, changed)
    folder = scratch_dir("upload")  # a server killed while judging leaves it for the next judge to remove
    try:
        path = folder / upload.file_name
        path.write_bytes(source)
        try:
            problem = problems.get(upload.problem)
        except JudgeError as error:  # the teacher's fault: its text (with the server's paths) is for them
            log.error("problem %s cannot be loaded: %s", upload.problem, error)
            print(f"judge: error: problem {upload.problem} cannot be judged now; tell your teacher", file=sink)
            course.finish(upload.id, str(Verdict.IE), 0.0, 0.0, EXIT_FAILED)
            return
        # Recorded, unfinished, as it was uploaded: the scoreboard shows it pending while it is judged,
        # and counts the minute it was sent, not the minute a queue let it be judged.
        results.submission(upload.student, problem, path, language_for(path).name, upload.submitted_at)
        view = StudentView(problem, upload.feedback)
        result = _judge_streaming(problem, path, view, hints, jobs, sink,
                                  lambda position, case: course.add_case(upload.id, position, _record(case)))
        result.feedback = upload.feedback
        if explain_seconds > 0 and at_least(upload.feedback, "counterexamples") and hidden_failures(result):
            found = explain(problem, path, result, explain_seconds)
            # Only a counterexample is shown: why none was found may name this machine's files.
            result.explanation = found if found.counterexample is not None else None
        shown = _without_hints(view.result(result), hints)
        # `judge submit` has no --show: the hint to run again with it is left out.
        print(load_format("run", "table").render_after_rows(shown, problem, show_hint=False), file=sink)
        record_run(results, upload.student, problem, path, result, submitted_at=upload.submitted_at)
        status = EXIT_OK if result.verdict == Verdict.AC else EXIT_FAILED
        course.finish(upload.id, str(result.verdict), result.score, result.max_score, status)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        changed(upload.id)


def _judge_streaming(problem: Problem, path: Path, view: StudentView, hints: bool, jobs: int, sink: LineSink,
                     keep: Callable[[int, CaseResult], None]):
    """`judge run`'s streaming (judge/commands/run_command.py), writing to ``sink``."""
    names = [view.shown_name(case.name) for case in problem.cases]
    positions = {case.name: index for index, case in enumerate(problem.cases)}
    table = CaseTable(names, ROW_WIDTH)
    stream = CaseStream(table, names, out=sink)

    def shown(case: CaseResult) -> CaseResult:
        return _hint_kept(view.case(case), hints)

    def decided(case: CaseResult) -> None:
        keep(positions[case.name], case)
        stream.decided(shown(case))

    with stream:
        result = judge_submission(problem, path, None, jobs=jobs, on_case=decided)
        for case in decide_unrun(stream, result, shown, table):
            keep(positions[case.name], case)
    return result


def _hint_kept(case: CaseResult, hints: bool) -> CaseResult:
    """The case as shown, without its author's hint when the assignment says ``hints: false``."""
    return case if hints else dataclasses.replace(case, hint="", description="")


def _without_hints(result, hints: bool):
    return result if hints else dataclasses.replace(result, cases=[_hint_kept(case, False) for case in result.cases])


def _record(case: CaseResult) -> dict:
    return {field.name: getattr(case, field.name) for field in dataclasses.fields(case)}
