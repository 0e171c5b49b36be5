"""Fanning a native call out over slices: the order of results, the calling thread's own
slice, an error raised only once every slice is done, and when a second thread is used."""

from __future__ import annotations

import threading
import time

import pytest

from pypoker._parallel import ITEMS_PER_THREAD_MIN, run_sliced, thread_count


def test_slices_cover_the_items_in_order_and_the_caller_runs_the_last():
    seen = []

    def call(start: int, stop: int):
        seen.append(threading.current_thread() is threading.main_thread())
        return start, stop

    assert run_sliced(10, 3, call) == [(0, 3), (3, 6), (6, 10)]
    assert seen.count(True) == 1  # one slice on the calling thread, the others in the pool
    assert run_sliced(5, 1, call) == [(0, 5)]


def test_an_error_in_the_callers_slice_waits_for_the_others():
    finished = []

    def call(start: int, stop: int):
        if start == 0:
            time.sleep(0.05)  # the pool's slice outlasts the caller's
            finished.append(start)
            return start
        raise RuntimeError("bad slice")

    with pytest.raises(RuntimeError, match="bad slice"):
        run_sliced(2, 2, call)
    assert finished == [0]  # no slice still runs once the error reaches the caller


def test_small_batches_keep_to_one_thread():
    assert thread_count(None, 2 * ITEMS_PER_THREAD_MIN - 1) == 1
    assert thread_count(None, 2 * ITEMS_PER_THREAD_MIN) >= 1
    assert thread_count(3, 2) == 2  # never more threads than items
