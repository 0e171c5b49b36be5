"""Fan a native call out over disjoint slices of a batch, one thread per slice.

Python only splits the batch (slices of bounded work, never a loop over hands); each slice
is a single native call, and cffi drops the GIL inside it, so slices run truly in parallel.
Every batch goes through ``run_ordered``: short calls (``PIECE_NS``), their results taken in
a fixed order, so Ctrl-C stops every thread within one call and the result never depends
on the thread count. The pool is made anew in a forked child (a parent's threads do not fork).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager

from ._arguments import whole
from ._interrupts import POLL_SECONDS, Deferred, deferred_interrupts

# Below this many items (hands ranked, or their like) per thread, a second thread costs more
# than it saves: on a VM, handing a slice to a sleeping core and hearing back costs 0.1-0.3
# ms (Zen 5 KVM, 7-card ranks: two threads broke even at 512K hands, gained 1.2x at 1M).
ITEMS_PER_THREAD_MIN = 1 << 18

_pool: ThreadPoolExecutor | None = None


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def workers(threads: int | None) -> int:
    """The one check of a ``threads`` argument: None → every core, else a positive int."""
    if threads is None:
        return cpu_count()
    return whole("threads (None: every core)", threads, 1)


def thread_count(threads: int | None, items: int) -> int:
    """``threads=None``: every core for big batches, one for small; else exactly ``threads``."""
    if threads is None:
        if items < 2 * ITEMS_PER_THREAD_MIN:  # one thread: no need to ask the OS (~1 µs)
            return 1
        return max(1, min(cpu_count(), items // ITEMS_PER_THREAD_MIN))
    return max(1, min(workers(threads), items))


def get_pool() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=max(2, cpu_count()), thread_name_prefix="pypoker")
    return _pool


def _forget_pool_in_child() -> None:
    """A forked child has none of its parent's threads: a pool inherited from the parent
    would take work and never run it. The child makes its own on first use."""
    global _pool
    _pool = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_in_child)


class Stopped(Exception):
    """A run given up because its stop event was set (see ``stop_when``)."""


_runs = threading.local()


@contextmanager
def stop_when(event: threading.Event) -> Iterator[None]:
    """Runs started on this thread inside the block stop taking tasks once ``event`` is set
    and raise ``Stopped``: how a consumer stops a producer thread's work within one short
    call (a dataset's next batch, when Ctrl-C reaches the consumer)."""
    previous = getattr(_runs, "stop", None)
    _runs.stop = event
    try:
        yield
    finally:
        _runs.stop = previous


def run_ordered(
    tasks: Iterator[tuple],
    call: Callable[..., object],
    threads: int,
    fold: Callable[[object], bool],
) -> None:
    """Runs ``call(*task)`` for each task, ``threads`` at a time, and hands each result to
    ``fold`` in task order; stops taking tasks once ``fold`` returns True or the tasks run
    out. On an exception (KeyboardInterrupt too) no new task starts, the calls running
    finish (each is short by design) and the exception propagates; a task's own error is
    raised when its turn to fold comes, so what runs never depends on the threads.

    The calling thread takes tasks too, between folds, beside ``threads - 1`` pool workers:
    whoever is free takes the next task, so no thread waits for another to hand it work. A
    caller that only waited and folded woke on a core a worker was using, for every task:
    two threads ran Monte Carlo at 1.71-1.74x one, where two bare native calls reach 1.80x
    (Xeon, Sapphire Rapids class, idle). Results are folded in task order whatever finishes
    first; a result taken when ``fold`` says stop is dropped."""
    stop = getattr(_runs, "stop", None)
    if threads <= 1:
        for task in tasks:
            if stop is not None and stop.is_set():
                raise Stopped
            if fold(call(*task)):
                return
        return
    # Ctrl-C waits for a point where this thread holds none of the share's locks (see
    # _interrupts): raised inside the lock code, it left a worker waiting for good.
    with deferred_interrupts() as interrupts:
        share = _Share(tasks, call, ahead=2 * threads, stop=stop, interrupts=interrupts)
        workers = [get_pool().submit(share.work) for _ in range(threads - 1)]
        try:
            while True:
                result = share.next_result()
                if result is _DONE:
                    return
                if fold(result):
                    return
        finally:
            share.stop()
            # A worker not started yet (the pool busy with another run) never will be:
            # waiting for it would wait on that other run.
            wait([worker for worker in workers if not worker.cancel()])


_DONE = object()


class _Share:
    """``run_ordered``'s tasks, taken in order by whichever thread is free, and their results
    by task number until folded. A thread keeps at most ``ahead`` tasks past the one to fold
    next, so the results held stay bounded whatever a slow task holds up."""

    def __init__(self, tasks: Iterator[tuple], call: Callable[..., object], ahead: int,
                 stop: threading.Event | None, interrupts: Deferred):  # fmt: skip
        self._tasks, self._call, self._ahead, self._stop = tasks, call, ahead, stop
        self._interrupts = interrupts
        self._changed = threading.Condition()
        self._results: dict[int, tuple[bool, object]] = {}  # number → (ok, result or error)
        self._taken = 0  # tasks handed out
        self._folded = 0  # results handed to the fold
        self._exhausted = False  # no task left, or stopped

    def _take(self, wait_for_room: bool) -> tuple[int, tuple] | None:
        """The next task and its number; None once none is left, or (the caller, which must
        fold) when the held results are at their bound."""
        with self._changed:
            while not self._exhausted and self._taken - self._folded >= self._ahead:
                if not wait_for_room:
                    return None
                self._changed.wait()
            if self._exhausted or self._stopped():
                return None
            task = next(self._tasks, None)
            if task is None:
                self._exhausted = True
                self._changed.notify_all()
                return None
            self._taken += 1
            return self._taken - 1, task

    def _run(self, number: int, task: tuple, on_worker: bool = False) -> None:
        try:
            done = (True, self._call(*task))
        except Exception as error:  # noqa: BLE001 - raised in order, by the folding thread
            done = (False, error)
        except BaseException as error:
            # The caller's own goes at once; a worker's is kept like any error, or the caller
            # would wait for a result that never comes.
            if not on_worker:
                raise
            done = (False, error)
        with self._changed:
            self._results[number] = done
            self._changed.notify_all()

    def work(self) -> None:
        """A pool worker's part: tasks until none is left."""
        while (taken := self._take(wait_for_room=True)) is not None:
            self._run(*taken, on_worker=True)

    def next_result(self) -> object:
        """The calling thread's part: the next result in task order, running tasks itself
        while it is not in; ``_DONE`` once every task is folded."""
        while True:
            self._interrupts.deliver()  # the one place Ctrl-C is raised: no lock held
            if self._stopped():
                raise Stopped
            with self._changed:
                if self._folded in self._results:
                    ok, value = self._results.pop(self._folded)
                    self._folded += 1
                    self._changed.notify_all()
                    if not ok:
                        raise value
                    return value
                if self._exhausted and self._folded == self._taken:
                    return _DONE
            taken = self._take(wait_for_room=False)
            if taken is not None:
                self._run(*taken)
                continue
            with self._changed:  # a timeout, so the caller wakes for Ctrl-C
                # (Not once every task is folded: the _take just now may have found the
                # tasks out, and no worker would wake this wait before its timeout.)
                done = self._exhausted and self._folded == self._taken
                if not done and self._folded not in self._results:
                    self._changed.wait(timeout=POLL_SECONDS)

    def _stopped(self) -> bool:
        return self._stop is not None and self._stop.is_set()

    def stop(self) -> None:
        with self._changed:
            self._exhausted = True
            self._changed.notify_all()


# The longest a single native call of a batch may run: Ctrl-C is seen between calls, so a
# batch is cut into pieces of about this much work (and a caller waiting on workers wakes
# every POLL_SECONDS), which keeps every call's stop within 0.2 s of SIGINT.
PIECE_NS = 40_000_000


def pieces(items: int, item_ns: float) -> int:
    """How many calls ``items`` items of ``item_ns`` estimated nanoseconds each take, so
    that none runs longer than ``PIECE_NS``."""
    return max(1, min(items, -(-int(items * item_ns) // PIECE_NS)))


def run_sliced(
    items: int, threads: int, call: Callable[[int, int], object], *, item_ns: float = 2.0
) -> list:
    """Calls ``call(start, stop)`` over contiguous slices of ``range(items)``, on up to
    ``threads`` threads; returns the results in slice order. ``item_ns`` is an item's
    estimated cost (default: a hand ranked): a batch is cut into pieces short enough that
    Ctrl-C stops it within 0.2 s (``PIECE_NS``), whoever is free taking the next piece; on
    an exception every piece running finishes first, so no call outlives its buffers."""
    threads = max(1, min(threads, items))
    # A whole number of pieces a thread: three equal pieces on two threads end with one
    # thread idle for a third of the run (street_equities of 60K deals: 3 pieces, at most 1.5x).
    count = min(items, -(-pieces(items, item_ns) // threads) * threads)
    if count <= 1:
        return [call(0, items)]
    bounds = [items * i // count for i in range(count + 1)]
    results: list = []
    tasks = iter([(bounds[i], bounds[i + 1]) for i in range(count)])
    run_ordered(tasks, call, threads, lambda result: results.append(result))
    return results
