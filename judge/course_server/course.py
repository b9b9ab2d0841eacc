"""A course's judge without its HTTP: what it accepts (the roster, the problems, the assignments'
limits, the size cap and the rate limit, each refusal a sentence with its HTTP status), the
queue, and the judging threads. The HTTP side (app.py) only translates."""

from __future__ import annotations

import datetime
import logging
import math
import re
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from judge.classroom.assignment import Assignment, scale_to_points
from judge.classroom.deadlines import apply_lateness, snapshot_class
from judge.classroom.grading import grade_folder
from judge.classroom.rejudge import preview
from judge.classroom.store import Store
from judge.course_server.class_folder import write_class
from judge.course_server.judging import Problems, judge_upload
from judge.course_server.queue import FairQueue, start_workers
from judge.course_server.submissions import CourseStore, Upload
from judge.course_server.tokens import Identity, identify
from judge.errors import JudgeError, UnknownLanguage
from judge.formats.catalog import catalog
from judge.languages import known_extensions, language_for
from judge.model.feedback import DEFAULT_LEVEL
from judge.model.verdict import Verdict
from judge.renderers.html_report import render

log = logging.getLogger("judge.serve")
FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")


class Refusal(Exception):
    """A request the course's judge refuses: its HTTP status and the sentence the student reads."""

    def __init__(self, status: int, sentence: str) -> None:
        super().__init__(sentence)
        self.status = status
        self.sentence = sentence


def pace_sentence(seconds_between: float, wait: float) -> str:
    # Rounded up: "again in 0 s" would send the student back too soon.
    return f"one submission every {seconds_between:g} s: send this one again in {math.ceil(wait)} s"


@dataclass(frozen=True)
class Limits:
    upload_bytes: int = 256 * 1024  # the largest file accepted
    seconds_between: float = 5.0  # a student's uploads at most this often
    queued_per_student: int = 20  # uploads of one student waiting at once


@dataclass
class Course:
    problems_dir: Path | None
    db: Path
    assignments: list[Assignment] = field(default_factory=list)
    limits: Limits = field(default_factory=Limits)
    workers: int = 1
    jobs: int = 1
    explain_seconds: float = 0.0  # a hidden failure's counterexample search, per submission
    roster: frozenset[str] | None = None  # the students who may submit (None: every token's holder)
    changed: Callable[[int], None] = lambda upload_id: None  # called from any thread when an upload's rows change

    def __post_init__(self) -> None:
        self.results = Store(self.db)  # first: the file is then a results store the judge knows
        self.store = CourseStore(self.db)
        self.problems = Problems(self.problems_dir)
        self.queue = FairQueue()
        self.accepting = threading.Lock()  # a student's limits are checked and the upload added as one step
        known = list(catalog(self.problems_dir).require_some())
        self.assigned = {problem: assignment for assignment in reversed(self.assignments)
                         for problem in assignment.problems}
        self.open_problems = [problem for problem in known if not self.assignments or problem in self.assigned]
        for problem in self.open_problems:  # a broken problem is told before anyone submits to it
            self.problems.get(problem)

    def start(self) -> int:
        """Queue what was accepted but not judged before a restart, start judging; how many."""
        waiting = self.store.requeue_interrupted()
        for upload in waiting:
            self.queue.put(upload)
        start_workers(self.queue, self.workers, self.judge)
        return len(waiting)

    def stop(self) -> None:
        self.queue.close()

    def identify(self, token: str | None) -> Identity | None:
        return identify(self.store, token) if token else None

    def accept(self, who: Identity, problem_id: str, file_name: str, source: bytes) -> Upload:
        """Record the upload (committed) and queue it; Refusal saying which limit it is over."""
        problem_id, file_name = problem_id.strip(), file_name.strip()
        if self.roster is not None and not who.is_teacher and who.name not in self.roster:
            raise Refusal(403, f"{who.name} is not on this course's roster; ask your teacher")
        if problem_id not in self.open_problems:
            raise Refusal(404, f"there is no problem {problem_id!r} on this judge; the problems are: "
                               f"{', '.join(self.open_problems) or 'none'}")
        if not FILE_NAME.fullmatch(file_name):
            raise Refusal(400, f"the file name {file_name!r} must be letters, digits, '_', '.' or '-', "
                               f"starting with a letter or digit, at most 100 characters")
        if len(source) > self.limits.upload_bytes:
            raise Refusal(413, f"the file is {len(source)} bytes; this judge accepts files of up to "
                               f"{self.limits.upload_bytes} bytes")
        self._check_language(problem_id, file_name)
        assignment = self.assigned.get(problem_id)
        with self.accepting:
            self._check_pace(who)
            if assignment is not None and assignment.submissions is not None and not who.is_teacher:
                used = self.store.count_uploads(who.name, problem_id)
                if used >= assignment.submissions:
                    raise Refusal(429, f"you have used all {assignment.submissions} submissions of {problem_id} "
                                       f"that {assignment.name} allows")
            upload_id = self.store.add_upload(who.name, problem_id, file_name, source, self._level(problem_id))
        upload = self.store.upload(upload_id)
        self.queue.put(upload)
        return upload

    def _check_language(self, problem_id: str, file_name: str) -> None:
        try:
            language = language_for(Path(file_name))
        except UnknownLanguage:  # no --lang here: the extension is all the server goes by
            raise Refusal(400, f"cannot tell the language of {file_name} from its extension "
                               f"{Path(file_name).suffix or '(none)'}; name the file with one of {known_extensions()}"
                          ) from None
        assignment = self.assigned.get(problem_id)
        if assignment is not None and assignment.languages and language.name not in assignment.languages:
            raise Refusal(400, f"{assignment.name} accepts {', '.join(assignment.languages)} for {problem_id}, "
                               f"not {language.name}")

    def _check_pace(self, who: Identity) -> None:
        if who.is_teacher:
            return
        last = self.store.last_upload_time(who.name)
        wait = self.limits.seconds_between - (time.time() - last) if last is not None else 0
        if wait > 0:
            raise Refusal(429, pace_sentence(self.limits.seconds_between, wait))
        waiting = sum(1 for upload in self.store.uploads(who.name) if upload.state != "done")
        if waiting >= self.limits.queued_per_student:
            raise Refusal(429, f"you have {waiting} submissions waiting to be judged; send more once they are")

    def _level(self, problem_id: str) -> str:
        """The feedback level the upload is shown at: its assignment's, else the problem's policy today."""
        assignment = self.assigned.get(problem_id)
        if assignment is not None and assignment.feedback:
            return assignment.feedback
        try:
            return self.problems.get(problem_id).feedback.level_on(datetime.date.today())
        except JudgeError:
            return DEFAULT_LEVEL  # judging will say what is wrong with the problem

    def judge(self, upload: Upload) -> None:
        """Judge one upload; a failure of the judge itself is the upload's IE, never a lost upload."""
        assignment = self.assigned.get(upload.problem)
        try:
            judge_upload(upload, self.store.source(upload.id), self.problems, self.store, self.results,
                         assignment.hints if assignment else True, self.jobs, self.changed, self.explain_seconds)
        except Exception as error:
            log.exception("judging upload %s failed", upload.id)
            self.store.add_line(upload.id, f"judge: internal error while judging ({type(error).__name__}); "
                                           f"tell the teacher")
            self.store.finish(upload.id, str(Verdict.IE), 0.0, 0.0, 1)
            self.changed(upload.id)

    def queued(self) -> int:
        """How many uploads wait to be judged (those being judged are not among them)."""
        return len(self.queue)

    # The teacher's views of the class, through `judge grade`'s own code.

    def class_page(self) -> str:
        """The class report as `judge grade --assignment` writes it: the assignment's points and,
        where it has a due date, its late policy on the times the files were uploaded."""
        graded_as = self.graded_as()
        policy = graded_as.policy if graded_as is not None else None
        with tempfile.TemporaryDirectory(prefix="judge-class-") as scratch:
            folder = Path(scratch) / "class"
            folder.mkdir()
            write_class(self.store, folder, self.last_counted())
            if not any(folder.iterdir()):
                return "<!doctype html><title>class</title><p>No submissions yet.</p>"
            lateness = {}
            if policy is not None:
                (Path(scratch) / "graded").mkdir()
                lateness = snapshot_class(folder, policy, Path(scratch) / "graded")
                folder = Path(scratch) / "graded"
            report = self._grade(folder, self.results)
            if graded_as is not None:
                scale_to_points(report, graded_as)
                report.assignment = graded_as
            if policy is not None:
                apply_lateness(report, lateness, policy)
            return render(report)

    def last_counted(self) -> dict[str, float]:
        """Each problem's last upload time that counts, by its assignment's deadline (its late work's
        end where late work counts): the class is graded at each student's latest upload by then."""
        limits = {}
        for problem, assignment in self.assigned.items():
            policy = assignment.policy
            if policy is not None:
                limit = policy.late_until if policy.takes_late_work else policy.deadline
                if limit is not None:
                    limits[problem] = limit
        return limits

    def graded_as(self) -> Assignment | None:
        """The assignment the class report is graded against: the one in force, or, with several,
        one of all their problems, each at the points of the assignment that serves it."""
        if len(self.assignments) <= 1:
            return self.assignments[0] if self.assignments else None
        return Assignment(" + ".join(assignment.name for assignment in self.assignments),
                          {problem: self.assigned[problem].points[problem]
                           for assignment in self.assignments for problem in assignment.problems})

    def rejudge_preview(self) -> list[dict]:
        """What grading the class now would change (judge/classroom/rejudge.py), nothing recorded."""
        with tempfile.TemporaryDirectory(prefix="judge-class-") as folder:
            write_class(self.store, Path(folder), self.last_counted())
            if not any(Path(folder).iterdir()):
                return []
            changes = preview(Path(folder), self.results, lambda store: self._grade(Path(folder), store))
        return [{"student": change.student, "problem": change.problem, "before": change.before,
                 "verdict": change.verdict, "score": change.score} for change in changes if change.changed]

    def _grade(self, folder: Path, store: Store):
        only = list(self.assigned) if self.assignments else None
        return grade_folder(folder, store, jobs=self.jobs, problems_dir=self.problems_dir, only=only)
