"""Progress, the one way: ``reporter(progress, label, unit)`` turns a call's ``progress=``
argument (a callable, or true for a line on stderr) into the function its loop reports to,
and ``Progress`` is that line, with the time left when the total is known."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable


class Progress:
    """A one-line report on stderr, at most five times a second: what is done, and for
    runs of known length the time left."""

    def __init__(self, enabled: bool, label: str):
        self.enabled, self.label = enabled, label
        self.started = time.perf_counter()
        self.shown = 0.0
        self.text = ""  # the latest report, shown or not

    def update(self, done: float, total: float | None = None, detail: str = "") -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        self.text = f"\r{self.label}: {detail}"
        if total:
            elapsed = now - self.started
            left = elapsed * (total - done) / done if done else float("nan")
            self.text += f"{done / total * 100:5.1f}%, {elapsed:.1f} s, about {left:.1f} s left"
        if now - self.shown >= 0.2:
            self.shown = now
            print(self.text, end="   ", file=sys.stderr, flush=True)
            self.text = ""

    def close(self) -> None:
        if self.enabled and self.shown:
            print(self.text, file=sys.stderr)


def reporter(progress, label: str, unit: str) -> Callable[[int | None, int], None]:
    """``report(done, total)`` for a call's ``progress=``: a callable gets ``(done, total)``
    as the work goes on; anything else true shows ``label: N unit, P%, time left`` on stderr;
    false, nothing. ``report(None, total)`` ends the run (the line gets its newline)."""
    if callable(progress):
        return lambda done, total: None if done is None else progress(done, total)
    shown = Progress(bool(progress), label)

    def report(done: int | None, total: int) -> None:
        if done is None:
            shown.close()
        else:
            shown.update(done, total, f"{done:,} {unit}, ")

    return report
