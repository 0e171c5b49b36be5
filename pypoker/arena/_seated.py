"""``Arena.play`` with agents: native lineups through the threaded native loop
(``_play.play`` with ``_NativeSeats``), lineups with Python agents through the mixed loop
(``pp_agents_run``: native until tables wait on a Python agent, one ``act`` call per agent
for all of them, and on). Either can write each finished hand's net chips per seat into a
ledger ``net[table, hand, seat]`` (int32), which matches read.
"""

from __future__ import annotations

import numpy as np

from .._arguments import whole
from .._native import ArgumentError, ffi, lib, thread_error
from .._progress import reporter
from ._config import check_status
from .agents import AgentError, AgentObservation, Lineup, ask, illegal_answer


class _NativeSeats:
    """What ``_play._play_slice`` calls in place of ``pp_arena_play``."""

    def __init__(self, lineup: Lineup, net: np.ndarray | None, first_hand: int, rotation: int):
        self.lineup, self.first_hand, self.rotation = lineup, first_hand, rotation
        self.net = ffi.from_buffer("int32_t[]", net) if net is not None else ffi.NULL
        self.shape = net.shape[:2] if net is not None else (0, 0)

    def play(self, arena, tables, n, left, io):
        err = thread_error()
        first_table = 0
        status = lib.pp_agents_play(arena.native.config, self.lineup.array, tables, n, left,
                                    self.net, self.shape[0], self.shape[1], first_table,
                                    self.first_hand, self.rotation, io, err)  # fmt: skip
        check_status(status, err)


def _ledger(arena, net, hands: int) -> tuple[np.ndarray | None, int]:
    """The ledger array (checked) and the hand number its first column holds."""
    first = int(arena.native.tables["hand"][0])
    if net is None:
        return None, first
    if not isinstance(net, np.ndarray) or net.dtype != np.int32 or not net.flags.c_contiguous:
        raise ArgumentError(
            "net must be a C-contiguous int32 array of shape (tables, hands, seats)"
        )
    if net.shape != (len(arena), hands, arena.seats):
        raise ArgumentError(
            f"net must have shape {(len(arena), hands, arena.seats)}, got {net.shape}"
        )
    if (arena.native.tables["hand"] != first).any():
        raise ArgumentError("a ledger needs every table at the same hand number (a fresh Arena)")
    return net, first


def play_agents(arena, agents, hands, *, net=None, record=False, parquet=None, threads=None,
                progress=None, rotation=0):  # fmt: skip
    """``hands`` more hands at every table with ``agents`` (one a seat, or one for all:
    names, ``Agent``s or Python agents). See ``Arena.play``. ``rotation`` (duplicate play):
    each hand dealt from now on has its hole cards moved that many seats back (seat s
    holds what seat s + rotation was dealt)."""
    hands = whole("hands", hands, 0, (1 << 32) - 1)
    lineup = agents if isinstance(agents, Lineup) else Lineup(agents, arena.seats)
    net, first = _ledger(arena, net, hands)
    if not lineup.python:
        from ._play import play

        seats = _NativeSeats(lineup, net, first, rotation)
        return play(arena, hands, record=record, parquet=parquet, threads=threads,
                    progress=progress, seats=seats)  # fmt: skip
    if record or parquet is not None:
        raise AgentError("histories of play with Python agents are not recorded yet: play "
                         "native agents only, or record=False")  # fmt: skip
    _play_mixed(arena, lineup, hands, net, first, progress, rotation)
    return None


def _play_mixed(arena, lineup: Lineup, hands: int, net, first: int, progress, rotation) -> None:
    n = len(arena)
    left = np.full(n, hands, np.uint32)
    waiting, kinds = np.zeros(n, np.uint8), np.zeros(n, np.uint8)
    amounts = np.zeros(n, np.int64)
    finished, err = ffi.new("uint64_t*"), thread_error()
    pointers = [ffi.from_buffer(t, a) for t, a in (("uint32_t[]", left), ("uint8_t[]", waiting),
                                                   ("uint8_t[]", kinds),
                                                   ("int64_t[]", amounts))]  # fmt: skip
    ledger = ffi.from_buffer("int32_t[]", net) if net is not None else ffi.NULL
    groups = _groups(lineup)
    report, done = reporter(progress, "arena", "hands"), 0
    while True:
        native = arena.native
        status = lib.pp_agents_run(native.config, lineup.array, native.pointer, n, *pointers,
                                   ledger, hands, first, rotation, finished, ffi.NULL,
                                   err)  # fmt: skip
        if status == lib.PP_ILLEGAL_ACTION:
            row = int(err.row)
            raise illegal_answer(arena, lineup, row, int(err.card), int(kinds[row]),
                                 int(amounts[row]))  # fmt: skip
        check_status(status, err)
        done += int(finished[0])
        report(done, n * hands)
        rows = np.flatnonzero(waiting)
        if rows.size == 0:
            report(None, n * hands)
            return
        _answer(arena, lineup, groups, rows, kinds, amounts)


def _groups(lineup: Lineup) -> list:
    """Each distinct Python agent with the seats it plays."""
    seen: dict[int, tuple] = {}
    for seat, candidate in lineup.python.items():
        seen.setdefault(id(candidate), (candidate, lineup.labels[seat], []))[2].append(seat)
    return list(seen.values())


def _answer(arena, lineup, groups, rows, kinds, amounts) -> None:
    """Asks each Python agent once for all the waiting tables where it is to act."""
    seen = arena.observe()
    actors = seen.actor[rows]
    for candidate, name, seats in groups:
        mine = rows[np.isin(actors, seats)]
        if mine.size == 0:
            continue
        k, a = ask(candidate, name, AgentObservation.of(seen, mine))
        kinds[mine], amounts[mine] = k, a
