"""Fan a native call out over disjoint slices of a batch, one thread per slice.

Python only splits the batch (a handful of slices, never a loop over hands); each slice is a
single native call, and cffi drops the GIL inside it, so slices run truly in parallel.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

# Below this many items per thread, starting threads costs more than it saves.
ITEMS_PER_THREAD_MIN = 1 << 16

_pool: ThreadPoolExecutor | None = None


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def thread_count(threads: int | None, items: int) -> int:
    """``threads=None``: every core for big batches, one for small; else exactly ``threads``."""
    if threads is None:
        return max(1, min(cpu_count(), items // ITEMS_PER_THREAD_MIN))
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ValueError(f"threads must be a positive integer or None, got {threads!r}")
    return max(1, min(threads, items))


def _get_pool() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        _pool = ThreadPoolExecutor(max_workers=max(2, cpu_count()), thread_name_prefix="pypoker")
    return _pool


def run_sliced(items: int, threads: int, call: Callable[[int, int], object]) -> list:
    """Calls ``call(start, stop)`` over ``threads`` contiguous slices of ``range(items)``;
    returns the results in slice order."""
    if threads <= 1 or items <= 1:
        return [call(0, items)]
    bounds = [items * i // threads for i in range(threads + 1)]
    pool = _get_pool()
    futures = [pool.submit(call, bounds[i], bounds[i + 1]) for i in range(threads)]
    return [f.result() for f in futures]
