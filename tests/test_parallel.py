"""Fanning a native call out over slices: the order of results, the calling thread's own
slice, an error raised only once every slice is done, and when a second thread is used.
Ordered runs of many tasks: folded in task order whatever the threads, the caller working
beside the pool, errors raised in their turn, and nothing left running once they return."""

from __future__ import annotations

import threading
import time

import pytest

from pypoker._parallel import (
    ITEMS_PER_THREAD_MIN,
    PIECE_NS,
    Stopped,
    pieces,
    run_ordered,
    run_sliced,
    stop_when,
    thread_count,
)


def test_slices_cover_the_items_in_order():
    def call(start: int, stop: int):
        return start, stop

    assert run_sliced(10, 3, call) == [(0, 3), (3, 6), (6, 10)]
    assert run_sliced(5, 1, call) == [(0, 5)]


@pytest.mark.parametrize("threads", [1, 2])
def test_no_call_is_given_more_work_than_a_piece(threads):
    # Ctrl-C is seen between calls: a batch of 10 s of estimated work is cut into calls of
    # at most PIECE_NS each, covering every item once, in order.
    items, item_ns = 1000, 10e9 / 1000
    slices = run_sliced(items, threads, lambda a, b: (a, b), item_ns=item_ns)
    assert slices[0][0] == 0 and slices[-1][1] == items
    assert all(b == c for (_, b), (c, _) in zip(slices, slices[1:], strict=False))
    assert max((b - a) * item_ns for a, b in slices) <= PIECE_NS
    assert len(slices) == pieces(items, item_ns) == 250


def test_every_thread_gets_as_many_pieces():
    # Three pieces' work on two threads is cut into four: with three, one thread would sit
    # idle for the last third of the run.
    items, item_ns = 3000, 3 * PIECE_NS / 3000
    assert pieces(items, item_ns) == 3
    assert len(run_sliced(items, 2, lambda a, b: (a, b), item_ns=item_ns)) == 4
    assert len(run_sliced(items, 1, lambda a, b: (a, b), item_ns=item_ns)) == 3
    assert run_sliced(0, 2, lambda a, b: (a, b)) == [(0, 0)]


@pytest.mark.parametrize("threads", [1, 2])
def test_a_set_stop_event_stops_a_run_between_calls(threads):
    stop, calls = threading.Event(), []

    def call(start: int, stop_row: int):
        calls.append(start)
        if len(calls) == 3:
            stop.set()  # as a consumer does when it goes away
        return start

    with stop_when(stop), pytest.raises(Stopped):
        run_sliced(1000, threads, call, item_ns=PIECE_NS)
    assert 3 <= len(calls) <= 3 + 2 * threads  # tasks already taken may finish


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


def _sleepy(started: list, finished: list):
    def call(number: int):
        started.append((number, threading.current_thread() is threading.main_thread()))
        time.sleep(0.001 * (number * 7 % 5))  # tasks finish out of order
        finished.append(number)
        return number

    return call


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_ordered_runs_fold_in_task_order_and_the_caller_takes_tasks(threads):
    started, finished, folded = [], [], []
    call = _sleepy(started, finished)
    run_ordered(iter([(i,) for i in range(40)]), call, threads, lambda r: folded.append(r))
    assert folded == list(range(40))
    assert sorted(finished) == list(range(40))
    on_caller = sum(main for _, main in started)
    assert on_caller == 40 if threads == 1 else 0 < on_caller < 40


def test_an_ordered_run_stops_when_the_fold_says_and_leaves_nothing_running():
    started, finished, folded = [], [], []
    call = _sleepy(started, finished)

    def fold(result):
        folded.append(result)
        return result == 9

    run_ordered(iter([(i,) for i in range(10_000)]), call, 2, fold)
    assert folded == list(range(10))
    assert len(started) == len(finished) < 10 + 2 * 2 + 2  # at most `ahead` past the fold


def test_a_tasks_error_is_raised_in_its_turn_and_not_past_a_stop():
    def call(number: int):
        if number == 5:
            raise RuntimeError("task 5")
        time.sleep(0.002 if number < 5 else 0)  # the failing task finishes before those ahead
        return number

    folded = []
    with pytest.raises(RuntimeError, match="task 5"):
        run_ordered(iter([(i,) for i in range(50)]), call, 2, lambda r: folded.append(r))
    assert folded == [0, 1, 2, 3, 4]
    # A stop before the failing task's turn: its error is never raised.
    run_ordered(iter([(i,) for i in range(50)]), call, 2, lambda r: r == 3)


def test_an_error_in_the_fold_waits_for_the_running_tasks():
    started, finished = [], []
    call = _sleepy(started, finished)

    def fold(result):
        raise ValueError("fold")

    with pytest.raises(ValueError, match="fold"):
        run_ordered(iter([(i,) for i in range(1000)]), call, 3, fold)
    assert len(started) == len(finished)  # no task still runs once the error is out


def test_a_workers_base_exception_reaches_the_caller():
    class Abort(BaseException):
        pass

    def call(number: int):
        time.sleep(0.001)
        if number >= 6 and threading.current_thread() is not threading.main_thread():
            raise Abort(number)  # a worker's: the caller must not wait for its result
        return number

    for threads in (2, 3):
        with pytest.raises(Abort):
            run_ordered(iter([(i,) for i in range(40)]), call, threads, lambda r: False)


def test_an_ordered_run_does_not_wait_for_a_worker_the_busy_pool_never_started():
    from pypoker._parallel import cpu_count, get_pool

    release = threading.Event()
    pool = get_pool()
    busy = [pool.submit(release.wait) for _ in range(max(2, cpu_count()))]  # every worker held
    try:
        started = time.perf_counter()
        folded = []
        run_ordered(iter([(i,) for i in range(5)]), lambda i: i, 2, lambda r: folded.append(r))
        assert folded == list(range(5))  # the caller ran them all
        assert time.perf_counter() - started < 1
    finally:
        release.set()
        for future in busy:
            future.result()
