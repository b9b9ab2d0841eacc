"""The judging queue, fair between students: each student's uploads wait in their own line, and
the next upload judged is the oldest of the student whose turn it is (round robin over the
students with work waiting), so one student's fifty uploads hold up nobody else's first. Worker
threads take from it and judge (judge/course_server/judging.py)."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict, deque
from collections.abc import Callable

from judge.course_server.submissions import Upload

log = logging.getLogger("judge.serve")


class FairQueue:
    def __init__(self) -> None:
        self.waiting: OrderedDict[str, deque[Upload]] = OrderedDict()  # in turn order
        self.changed = threading.Condition()
        self.closed = False

    def put(self, upload: Upload) -> None:
        with self.changed:
            self.waiting.setdefault(upload.student, deque()).append(upload)
            self.changed.notify()

    def take(self) -> Upload | None:
        """The next upload to judge, waiting for one; None once the queue is closed."""
        with self.changed:
            while not self.waiting and not self.closed:
                self.changed.wait()
            if self.closed:
                return None
            student, line = self.waiting.popitem(last=False)
            upload = line.popleft()
            if line:
                self.waiting[student] = line  # to the back of the turn order
            return upload

    def close(self) -> None:
        with self.changed:
            self.closed = True
            self.changed.notify_all()

    def __len__(self) -> int:
        with self.changed:
            return sum(len(line) for line in self.waiting.values())


def start_workers(queue: FairQueue, count: int, judge: Callable[[Upload], None]) -> list[threading.Thread]:
    """``count`` threads judging what ``queue`` gives until it is closed; a failure to judge one
    upload is logged and the thread goes on with the next."""
    def work() -> None:
        while (upload := queue.take()) is not None:
            try:
                judge(upload)
            except Exception:  # a bug in judging one upload must not stop the course's judge
                log.exception("judging upload %s failed", upload.id)

    threads = [threading.Thread(target=work, name=f"judge-worker-{index}", daemon=True) for index in range(count)]
    for thread in threads:
        thread.start()
    return threads
