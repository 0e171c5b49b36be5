"""Ctrl-C taken at safe points while the main thread shares locks with pypoker's workers.

Python raises ``KeyboardInterrupt`` in the main thread between any two bytecodes, also
inside ``threading.Condition`` and ``Future`` code: between a lock's acquire and the ``with``
block that would release it, or between ``Condition.wait``'s release and its ``try``. A lock
left held, or a worker left waiting for a notify that never comes, hangs the process for
good (one Ctrl-C in ~300 at random moments of a two-thread run did, and one CI run's
``rank_showdown_omaha`` never answered). ``deferred_interrupts()`` swaps SIGINT's handler
for one that only notes the signal; the code waiting on workers calls ``deliver()`` where
it holds no lock, which runs the previous handler there (``KeyboardInterrupt`` for Python's
default), and one still pending when the block ends is delivered then, after the cleanup.

Only the main thread receives signals in Python, so elsewhere nothing is deferred; nor is
a handler that is not Python's (``SIG_DFL``, ``SIG_IGN``, one set from C).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager

# How often a thread waiting on a worker looks for a deferred Ctrl-C (a wait's timeout).
POLL_SECONDS = 0.05


class Deferred:
    """The installed handler's record, and ``deliver()`` for the code that waits."""

    def __init__(self, previous: Callable | None):
        self._previous = previous  # None: nothing is deferred
        self._frame = None
        self._pending = False

    def note(self, signum: int, frame) -> None:
        self._pending, self._frame = True, frame

    def deliver(self) -> None:
        """Runs the previous handler for a Ctrl-C noted since the last call: call this only
        where the thread holds no lock its workers need."""
        if self._pending:
            self._pending = False
            self._previous(signal.SIGINT, self._frame)


@contextmanager
def deferred_interrupts() -> Iterator[Deferred]:
    """Inside the block, Ctrl-C reaches the main thread only through ``deliver()`` (or at
    the block's end, the previous handler back in place)."""
    previous = None
    if threading.current_thread() is threading.main_thread():
        previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):
        yield Deferred(None)
        return
    deferred = Deferred(previous)
    signal.signal(signal.SIGINT, deferred.note)
    try:
        yield deferred
    finally:
        signal.signal(signal.SIGINT, previous)
        deferred.deliver()


def shielded(call: Callable, *args):
    """``call(*args)`` with Ctrl-C held off until it returns: for short bookkeeping that
    takes locks a worker shares (submitting to a pool, shutting it down)."""
    with deferred_interrupts():
        return call(*args)


def result_of(future: Future):
    """``future.result()``, Ctrl-C answered within ``POLL_SECONDS`` while it waits."""
    with deferred_interrupts() as interrupts:
        while True:
            interrupts.deliver()
            try:
                return future.result(timeout=POLL_SECONDS)
            except FutureTimeout:  # TimeoutError itself from Python 3.11
                continue
