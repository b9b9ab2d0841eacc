"""Results as they come: `judge run` prints each row of its table when the case is decided, in
case order (a case decided early by another worker waits for the ones before it), so that a long
run is never silent and a stopped one has already shown what it decided. On a terminal a status
line under the rows says how far the run is and how long it has taken; piped, the rows are plain
lines, flushed one by one, and there is no status line."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

from judge.model.results import CaseResult
from judge.renderers.report import CaseTable
from judge.text.terminal import cut, discard_output, terminal_width

TICK_SECONDS = 0.5  # how often the status line's clock moves
CLEAR_LINE = "\r\x1b[K"


class CaseStream:
    """Rows of ``table`` for the cases ``names`` (in that order), written to ``out`` as
    ``decided`` is called with their results, from any thread; ``status`` (a terminal) gets a
    status line, redrawn. Use as a context manager: every row decided is written, and the status
    line is gone, when it ends.

    The rows are written by a thread of the stream's own: a signal stops the judge in its main
    thread (a KeyboardInterrupt, at any point), which must never fall between writing a row and
    noting it written, or the row would be shown twice or not at all."""

    def __init__(self, table: CaseTable | None, names: list[str], out: TextIO = sys.stdout,
                 status: TextIO | None = None) -> None:
        self.table = table  # None: no rows (a machine-readable format); the status line only
        self.names = names
        self.out = out
        self.status = status
        self.decided_results: dict[str, CaseResult] = {}
        self.printed = 0  # rows written: names[:printed]
        self.started = time.monotonic()
        self.changed = threading.Condition()
        self.ending = False
        self.writer = threading.Thread(target=self._write_rows, daemon=True)

    def __enter__(self) -> CaseStream:
        if self.table is not None:
            self._write(self.table.header())
        self.writer.start()
        return self

    def __exit__(self, *_exc) -> None:
        with self.changed:
            self.ending = True
            self.changed.notify()
        self.writer.join()
        self._clear_status()

    def decided(self, result: CaseResult) -> None:
        """A case's result: its row is written once the rows before it are."""
        with self.changed:
            self.decided_results[result.name] = result
            self.changed.notify()

    def decided_together(self, result: CaseResult) -> None:
        """Every case decided at once and alike, none of them run (a submission that does not
        build): the one row ``result`` says it for them all."""
        with self.changed:
            self.names = [result.name]
            self.decided_results = {result.name: result}
            self.changed.notify()

    def flush_out_of_order(self) -> int:
        """After the stream ended: write the rows of cases decided while one before them was still
        running (for a run that stopped: what was decided is shown); how many there were."""
        waiting = [name for name in self.names[self.printed:] if name in self.decided_results]
        if self.table is not None:
            for name in waiting:
                self._write(self.table.row(self.decided_results[name]))
        self.printed = len(self.names)
        return len(waiting)

    @property
    def count(self) -> int:
        return len(self.decided_results)

    def _write_rows(self) -> None:
        """The writer: each row as soon as it and those before it are decided; the status line
        redrawn every TICK_SECONDS; until the stream ends, with every row decided written."""
        with self.changed:
            while True:
                while self.printed < len(self.names) and self.names[self.printed] in self.decided_results:
                    if self.table is not None:
                        self._write(self.table.row(self.decided_results[self.names[self.printed]]))
                    self.printed += 1
                if self.ending:
                    return
                self._draw_status()
                self.changed.wait(TICK_SECONDS if self.status is not None else None)

    def _write(self, line: str) -> None:
        self._clear_status()
        try:
            print(line, file=self.out, flush=True)
        except BrokenPipeError:  # `judge run | head`: the judging goes on, its rows go nowhere
            discard_output(self.out)

    def _draw_status(self) -> None:
        if self.status is None:
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


def decide_unrun(stream: CaseStream, result, shown: Callable[[CaseResult], CaseResult], table) -> list[CaseResult]:
    """After judge_submission: the rows of the cases it decided without running them (a compile
    error or a missing toolchain decides every case at once, alike: one row for all, where there
    is a ``table``), each as ``shown``; those cases."""
    unrun = [case for case in result.cases if shown(case).name not in stream.decided_results]
    if table is not None and unrun and len(unrun) == len(result.cases):
        stream.decided_together(_row_for_all(unrun, table))
    else:
        for case in unrun:
            stream.decided(shown(case))
    return unrun


def _row_for_all(cases: list, table) -> CaseResult:
    """The one row of cases decided alike without running (as failed_preparation decides them)."""
    label = f"all {len(cases)}"
    first = cases[0]
    return CaseResult(label if len(label) <= table.widths[0] else "all", "", first.verdict, message=first.message)
