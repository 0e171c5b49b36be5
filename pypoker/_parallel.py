"""Fan a native call out over disjoint slices of a batch, one thread per slice.

Python only splits the batch (a handful of slices, never a loop over hands); each slice is a
single native call, and cffi drops the GIL inside it, so slices run truly in parallel.
Long jobs (equity) go through ``run_ordered``: many short calls, their results folded in a
fixed order, so Ctrl-C stops every thread within one call and the result never depends on
the thread count. The pool is made anew in a forked child (a parent's threads do not fork).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor, wait

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
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive integer or None, got {threads!r}")
    return threads


def thread_count(threads: int | None, items: int) -> int:
    """``threads=None``: every core for big batches, one for small; else exactly ``threads``."""
    if threads is None:
        if items < 2 * ITEMS_PER_THREAD_MIN:  # one thread: no need to ask the OS (~1 µs)
            return 1
        return max(1, min(cpu_count(), items // ITEMS_PER_THREAD_MIN))
    return max(1, min(workers(threads), items))


def _get_pool() -> ThreadPoolExecutor:
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


def run_ordered(
    tasks: Iterator[tuple],
    call: Callable[..., object],
    threads: int,
    fold: Callable[[object], bool],
) -> None:
    """Runs ``call(*task)`` for each task, at most ``threads`` at a time, and hands each
    result to ``fold`` in task order; stops taking tasks once ``fold`` returns True or the
    tasks run out. On an exception (KeyboardInterrupt too) no new task starts, the calls
    running finish (each is short by design) and the exception propagates.

    As many tasks again wait queued in the pool: a worker done with a task takes the next
    at once, not after the main thread has woken and folded the one before (with only
    ``threads`` submitted, two threads ran Monte Carlo at 1.2-1.5x one). Results are folded
    in task order whatever finishes first, so they never depend on the threads; a task
    queued when ``fold`` says stop is cancelled or its result dropped."""
    if threads <= 1:
        for task in tasks:
            if fold(call(*task)):
                return
        return
    pool = _get_pool()
    running: list[Future] = []
    try:
        done = False
        while not done:
            while len(running) < 2 * threads:
                task = next(tasks, None)
                if task is None:
                    break
                running.append(pool.submit(call, *task))
            if not running:
                return
            # A timeout, so the main thread wakes for Ctrl-C while workers run.
            while not running[0].done():
                wait(running[:1], timeout=0.1)
            done = fold(running.pop(0).result())
    finally:
        for future in running:
            future.cancel()
        wait(running)


def run_sliced(items: int, threads: int, call: Callable[[int, int], object]) -> list:
    """Calls ``call(start, stop)`` over ``threads`` contiguous slices of ``range(items)``;
    returns the results in slice order."""
    if threads <= 1 or items <= 1:
        return [call(0, items)]
    bounds = [items * i // threads for i in range(threads + 1)]
    pool = _get_pool()
    # The calling thread ranks the last slice itself rather than sleep while the pool does:
    # on a VM, waking a sleeping core costs 50-150 µs a time (two threads ranked 1M hands
    # no faster than one when every slice went through the pool).
    futures = [pool.submit(call, bounds[i], bounds[i + 1]) for i in range(threads - 1)]
    try:
        last = call(bounds[-2], bounds[-1])
    finally:
        wait(futures)  # no slice outlives the buffers it writes, whatever was raised
    return [f.result() for f in futures] + [last]
