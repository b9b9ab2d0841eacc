"""Results as they come: `judge run` prints each row of its table when the case is decided, in
case order (a case decided early by another worker waits for the ones before it), so that a long
run is never silent and a stopped one has already shown what it decided. On a terminal a status
line under the rows says how far the run is and how long it has taken; piped, the rows are plain
lines, flushed one by one, and there is no status line."""

from __future__ import annotations

import sys
import threading
import time
from typing import TextIO

from judge.report import CaseTable
from judge.results import CaseResult
from judge.terminal import cut, terminal_width

TICK_SECONDS = 0.5  # how often the status line's clock moves
CLEAR_LINE = "\r\x1b[K"


class CaseStream:
    """Rows of ``table`` for the cases ``names`` (in that order), written to ``out`` as
    ``decided`` is called with their results, from any thread; ``status`` (a terminal) gets a
    status line, redrawn. Use as a context manager: the status line is gone when it ends."""

    def __init__(self, table: CaseTable | None, names: list[str], out: TextIO = sys.stdout,
                 status: TextIO | None = None) -> None:
        self.table = table  # None: no rows (a machine-readable format); the status line only
        self.names = names
        self.out = out
        self.status = status
        self.decided_results: dict[str, CaseResult] = {}
        self.printed = 0  # rows written: names[:printed]
        self.started = time.monotonic()
        self.lock = threading.Lock()
        self.ended = threading.Event()
        self.ticker = threading.Thread(target=self._tick, daemon=True)

    def __enter__(self) -> CaseStream:
        if self.table is not None:
            self._write(self.table.header())
        if self.status is not None:
            self.ticker.start()
        return self

    def __exit__(self, *_exc) -> None:
        self.ended.set()
        with self.lock:
            self._clear_status()

    def decided(self, result: CaseResult) -> None:
        """A case's result: its row, and those of the cases after it that were waiting on it."""
        with self.lock:
            self.decided_results[result.name] = result
            while self.printed < len(self.names) and self.names[self.printed] in self.decided_results:
                if self.table is not None:
                    self._write(self.table.row(self.decided_results[self.names[self.printed]]))
                self.printed += 1
            self._draw_status()

    def flush_out_of_order(self) -> int:
        """Write the rows of cases decided while one before them was still running (for a run
        that is stopping: what was decided is shown); how many there were."""
        with self.lock:
            waiting = [name for name in self.names[self.printed:] if name in self.decided_results]
            if self.table is not None:
                for name in waiting:
                    self._write(self.table.row(self.decided_results[name]))
            self.printed = len(self.names)
            return len(waiting)

    @property
    def count(self) -> int:
        return len(self.decided_results)

    def _write(self, line: str) -> None:
        self._clear_status()
        print(line, file=self.out, flush=True)
        self._draw_status()

    def _tick(self) -> None:
        while not self.ended.wait(TICK_SECONDS):
            with self.lock:
                self._draw_status()

    def _draw_status(self) -> None:
        if self.status is None or self.ended.is_set():
            return
        elapsed = time.monotonic() - self.started
        text = f"{self.count}/{len(self.names)} cases decided, {elapsed:.0f} s"
        running = self._running()
        if running:
            text += f"; running {running}"
        self.status.write(CLEAR_LINE + cut(text, terminal_width() - 1))
        self.status.flush()

    def _running(self) -> str:
        """The first case not decided yet (with several workers, more run beside it)."""
        pending = [name for name in self.names[self.printed:] if name not in self.decided_results]
        return pending[0] if pending else ""

    def _clear_status(self) -> None:
        if self.status is not None:
            self.status.write(CLEAR_LINE)
            self.status.flush()


def status_stream() -> TextIO | None:
    """Standard error, when a person watches it; None when it is piped or a file."""
    return sys.stderr if sys.stderr.isatty() else None
