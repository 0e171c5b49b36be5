"""``Arena.play``: the reference random player, natively, over threads, with histories.

Each thread plays a contiguous slice of the tables in one native call (``pp_arena_play``)
that reads a shared cancel word every 1,024 hands a table (about a millisecond) and counts
hands into its own progress word. The calling thread only waits, a twentieth of a second
at a time: it reports progress and, on Ctrl-C, sets the cancel word, waits for the threads
(milliseconds) and re-raises; each table is then between hands.

With histories, hands are played in rounds of ``_ROUND_HANDS`` hands over all tables, each
thread filling its own record buffers (flushed to Arrow whenever full); a round's batches
are emitted in slice order, so the rows come in the same order for any thread count.
"""

from __future__ import annotations

from concurrent.futures import wait

import numpy as np
import pyarrow as pa

from .._arguments import whole
from .._interrupts import POLL_SECONDS, deferred_interrupts
from .._native import ffi, lib
from .._parallel import get_pool, thread_count
from .._progress import reporter
from ._config import check_status
from .history import ACTION_DTYPE, HAND_DTYPE, SCHEMA, ParquetSink, record_batch

_HANDS_BUFFER = 1 << 14  # hand records a thread fills before a flush
_ACTIONS_PER_HAND = 16  # the action buffer's size per hand record (it grows if a hand needs more)
_ROUND_HANDS = 1 << 16  # hands over all tables per round when recording


class _Recorder:
    """One thread's record buffers and the Arrow batches flushed from them."""

    def __init__(self):
        self.hands = np.zeros(_HANDS_BUFFER, HAND_DTYPE)
        self.actions = np.zeros(_HANDS_BUFFER * _ACTIONS_PER_HAND, ACTION_DTYPE)
        self.before = 0  # actions flushed so far (action_first counts from 0 over the run)

    def lend(self, io) -> tuple:
        """Points the play call's ``pp_play_io`` at the buffers; returns the cffi views, to
        be held while the call runs (a struct field does not keep what it points at alive)."""
        lent = (ffi.from_buffer("pp_hand_record[]", self.hands),
                ffi.from_buffer("pp_action_record[]", self.actions))  # fmt: skip
        io.hands, io.hand_capacity = lent[0], len(self.hands)
        io.actions, io.action_capacity = lent[1], len(self.actions)
        io.actions_before = self.before
        return lent

    def flush(self, io) -> pa.RecordBatch | None:
        hands, actions = int(io.hands_used), int(io.actions_used)
        if hands == 0:  # a hand needs more actions than the buffer holds
            self.actions = np.zeros(2 * len(self.actions), ACTION_DTYPE)
            return None
        batch = record_batch(self.hands[:hands], self.actions[:actions], self.before)
        self.before += actions
        return batch


def _play_slice(arena, start: int, stop: int, hands: int, recorder, cancel, counter,
                seats=None) -> tuple:  # fmt: skip
    """Plays ``hands`` hands at tables ``start..stop``: (its record batches, cancelled?).
    ``seats``: who plays (``_seated._NativeSeats``); None, the reference random player."""
    left = np.full(stop - start, hands, np.uint32)
    io = ffi.new("pp_play_io *")
    io.cancel, io.progress = cancel, counter
    batches = []
    while True:
        lent = recorder.lend(io) if recorder else ()  # noqa: F841 (alive through the call)
        args = (arena.native.pointer + start, stop - start, ffi.from_buffer("uint32_t[]", left),
                io)  # fmt: skip
        if seats is None:
            check_status(lib.pp_arena_play(arena.native.config, *args), None)
        else:
            seats.play(arena, *args)
        if recorder and (batch := recorder.flush(io)) is not None:
            batches.append(batch)
        if io.outcome != 2:  # done or cancelled; 2: a buffer is full
            return batches, io.outcome == 1


def _run(tasks: list, cancel, counters, total: int, report) -> list:
    """Runs the tasks on the pool while this thread reports progress and answers Ctrl-C
    (taken between waits, where no future's lock is held: see _interrupts)."""
    with deferred_interrupts() as interrupts:
        futures = [get_pool().submit(task) for task in tasks]
        try:
            while wait(futures, timeout=POLL_SECONDS).not_done:
                interrupts.deliver()
                report(sum(counters), total)
        except BaseException:
            cancel[0] = 1  # every thread stops within a poll (1,024 hands a table)
            wait(futures)
            raise
    report(sum(counters), total)
    return [future.result() for future in futures]


def _setup(arena, hands, threads, progress) -> tuple:
    """(hands, slice bounds, cancel word, progress words, reporter) of a run."""
    hands = whole("hands", hands, 0, (1 << 32) - 1)
    n = len(arena)
    workers = min(n, thread_count(threads, n * max(hands, 1)))
    bounds = [n * i // workers for i in range(workers + 1)]
    report = reporter(progress, "arena", "hands")
    return hands, bounds, ffi.new("uint32_t*"), ffi.new("uint64_t[]", workers), report


def play(arena, hands, *, record=False, parquet=None, threads=None, progress=None, seats=None):
    hands, bounds, cancel, counters, report = _setup(arena, hands, threads, progress)
    if not record and parquet is None:
        tasks = [lambda i=i: _play_slice(arena, bounds[i], bounds[i + 1], hands, None, cancel,
                                         counters + i, seats)
                 for i in range(len(bounds) - 1)]  # fmt: skip
        _run(tasks, cancel, counters, len(arena) * hands, report)
        report(None, len(arena) * hands)
        return None
    sink = ParquetSink(parquet) if parquet is not None else None
    kept = []
    try:
        for batch in _play_rounds(arena, hands, bounds, cancel, counters, report, seats):
            if sink:
                sink.write(batch)
            if record:
                kept.append(batch)
    except BaseException as error:
        if sink:
            sink.close(error)
        raise
    if sink:
        sink.close()
    return pa.Table.from_batches(kept, schema=SCHEMA) if record else None


def play_batches(arena, hands, *, threads=None, progress=None, seats=None) -> pa.RecordBatchReader:
    """The history of ``hands`` more hands a table as a stream of record batches, played
    as they are read (a round of hands at a time, memory bounded). ``seats``: who plays
    (as ``play``'s; None, the reference random player)."""
    hands, bounds, cancel, counters, report = _setup(arena, hands, threads, progress)
    batches = _play_rounds(arena, hands, bounds, cancel, counters, report, seats)
    return pa.RecordBatchReader.from_batches(SCHEMA, batches)


def _play_rounds(arena, hands, bounds, cancel, counters, report, seats=None):
    """Recorded play, a round of hands at a time: yields the record batches in order."""
    recorders = [_Recorder() for _ in bounds[1:]]
    per_round = max(1, _ROUND_HANDS // len(arena))
    done = 0
    while done < hands:
        count = min(per_round, hands - done)
        tasks = [lambda i=i, count=count: _play_slice(arena, bounds[i], bounds[i + 1], count,
                                                      recorders[i], cancel, counters + i, seats)
                 for i in range(len(recorders))]  # fmt: skip
        for batches, _ in _run(tasks, cancel, counters, len(arena) * hands, report):
            yield from batches
        done += count
    report(None, len(arena) * hands)
