"""Fanning a native call out over slices: the order of results, the calling thread's own
slice, an error raised only once every slice is done, and when a second thread is used.
Ordered runs of many tasks: folded in task order whatever the threads, the caller working
beside the pool, errors raised in their turn, and nothing left running once they return."""

from __future__ import annotations

import signal
import subprocess
import sys
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


# Ctrl-C at each line the main thread runs, in turn (a run's lines vary with its timing): a
# signal raised from a trace function is taken at the next bytecode, as a real one arriving
# there would be. Python raises KeyboardInterrupt between any two bytecodes, lock code
# included; one raised where a lock was held or a worker left waiting hung the process at
# exit (one CI run, one in ~300 random Ctrl-Cs). A child runs every case under a watchdog: a
# hang prints the stacks and fails.
INTERRUPTED_EVERYWHERE = """
import faulthandler, signal, sys, time
faulthandler.dump_traceback_later(120, exit=True)
{setup}

fired = dropped = 0

def unraisable(hook):  # CPython drops an exception raised in a weakref callback: not ours
    global dropped
    dropped += hook.exc_type is KeyboardInterrupt

sys.unraisablehook = unraisable

def traced(at):
    left = [at]
    def trace(frame, event, arg):
        global fired
        left[0] -= 1
        if left[0] == 0:
            fired += 1
            signal.raise_signal(signal.SIGINT)
        return trace
    return trace

def events():
    count = [0]
    def trace(frame, event, arg):
        count[0] += 1
        return trace
    sys.settrace(trace)
    run()
    sys.settrace(None)
    return count[0]

run()  # tables built: the runs below take about as many steps as this one
total, interrupted = events(), 0
for at in range(1, total + 1):
    try:
        try:
            sys.settrace(traced(at))
            run()
        finally:
            sys.settrace(None)
    except KeyboardInterrupt:
        interrupted += 1
    run()  # nothing left holding a lock or waiting: the next run ends
print(total, fired, interrupted + dropped)
"""
INTERRUPTED_RUNS = {
    "run_ordered": (
        "from pypoker._parallel import run_ordered\n"
        "def call(i):\n    time.sleep(0.0005)\n    return i\n"
        "def run():\n    run_ordered(iter([(i,) for i in range(6)]), call, 2, lambda r: False)"
    ),
    "arena": (
        "from pypoker.arena import Arena\narena = Arena(64, 2, seed=1)\n"
        "def run():\n    arena.play(200, threads=2)"
    ),
    "iter_batches": (
        "from pypoker.datasets import iter_batches\n"
        "def run():\n    for _ in iter_batches(40, 2, seed=1, chunk=8, threads=2): pass"
    ),
}


@pytest.mark.skipif(not hasattr(signal, "raise_signal"), reason="signal.raise_signal")
@pytest.mark.parametrize("name", sorted(INTERRUPTED_RUNS))
def test_ctrl_c_at_any_line_of_a_threaded_run_leaves_nothing_waiting(name):
    script = INTERRUPTED_EVERYWHERE.format(setup=INTERRUPTED_RUNS[name])
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-4000:]
    total, fired, interrupted = map(int, done.stdout.split())  # fired: its line was reached
    assert fired > total // 2 and interrupted == fired, (total, fired, interrupted)


def test_a_run_whose_caller_finds_the_tasks_out_does_not_wait_for_the_poll(monkeypatch):
    # The caller's own _take can be the one to find no task left; it then waited a whole
    # poll (0.1 s then) for a notify no worker would send: pp.deal(8, threads=2) took
    # 100 ms in some calls. A poll of 10 s makes such a wait unmistakable.
    import pypoker._parallel as parallel

    monkeypatch.setattr(parallel, "POLL_SECONDS", 10.0)
    for _ in range(100):
        folded, started = [], time.perf_counter()
        run_ordered(iter([(i,) for i in range(2)]), lambda i: i, 2, folded.append)
        assert folded == [0, 1] and time.perf_counter() - started < 5


def test_a_deferred_ctrl_c_reaches_the_previous_handler_where_delivered():
    from pypoker._interrupts import deferred_interrupts

    heard = []

    def handler(signum, frame):
        heard.append(signum)

    previous = signal.signal(signal.SIGINT, handler)
    try:
        with deferred_interrupts() as interrupts:
            signal.raise_signal(signal.SIGINT)
            assert heard == []  # noted, not run
            interrupts.deliver()
            assert heard == [signal.SIGINT]
            signal.raise_signal(signal.SIGINT)  # still pending at the block's end
        assert heard == [signal.SIGINT] * 2
        assert signal.getsignal(signal.SIGINT) is handler
        with pytest.raises(KeyboardInterrupt):  # Python's own handler: KeyboardInterrupt
            signal.signal(signal.SIGINT, signal.default_int_handler)
            with deferred_interrupts():
                signal.raise_signal(signal.SIGINT)
    finally:
        signal.signal(signal.SIGINT, previous)


def test_nothing_is_deferred_off_the_main_thread_or_for_a_handler_not_pythons():
    from pypoker._interrupts import deferred_interrupts

    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with deferred_interrupts():
            assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)
    seen = []

    def off_main():
        with deferred_interrupts() as interrupts:
            seen.append(signal.getsignal(signal.SIGINT))
            interrupts.deliver()  # nothing noted, nothing run

    thread = threading.Thread(target=off_main)
    thread.start()
    thread.join()
    assert seen == [previous]
