"""``Arena``: many no-limit hold'em tables stepped as one batch.

Every table is one fixed-size plain struct (``pp_table``: 240 bytes for up to ten seats, no
pointers; zsrc/arena/table.zig); the arena holds them as one NumPy structured array, so
``state`` is a copy away from being saved and ``Arena.from_state`` restores it.
``observe()`` and ``step()`` are one native call for the whole batch each, and ``play()``
plays the reference random player inside the library.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._arguments import whole
from .._native import ArgumentError, PokerError, ffi, lib, thread_error
from ._config import (
    NO_CARD,
    TABLE_DTYPE,
    IllegalActionError,
    Observation,
    StepResult,
    check_status,
    make_config,
    refusal_text,
)


class Native(NamedTuple):
    """An arena as the C ABI takes it: its settings (``pp_arena_config``), the pointer to its
    first table (``pp_table *``) and the NumPy array of tables the pointer reads."""

    config: object
    pointer: object
    tables: np.ndarray


class Arena:
    """``tables`` tables of ``seats`` seats (2-10) of no-limit hold'em.

    ``stacks``: every seat's chips at the start of each hand (a number, or one per seat);
    ``blinds``: (small, big); ``ante``: posted by every seat, or once by the big blind with
    ``bb_ante``; ``straddle``: posted by the seat after the big blind (0: none, else at
    least twice the big blind); ``seed``: names every hand's cards; ``carry``: stacks carry
    over between hands (busted seats sit out; when fewer than two seats have chips, all
    rebuy to ``stacks``); ``button``: its seat on each table's first hand;
    ``first_table``: the number of the first table (tables are numbered from it: with the
    seed, a table's number names its cards, so arenas of one seed and disjoint numbers
    deal disjoint hands).

    Chips are integers. Hand ``h`` of table ``t`` is a pure function of ``(seed, t, h)``
    (and, with ``carry``, of the stacks it starts from)."""

    def __init__(self, tables: int, seats: int, stacks=200, blinds=(1, 2), ante: int = 0,
                 bb_ante: bool = False, straddle: int = 0, seed: int = 0, carry: bool = False,
                 button: int = 0, first_table: int = 0):  # fmt: skip
        count, self._config, self.settings = make_config(
            tables, seats, stacks, blinds, ante, bb_ante, straddle, seed, carry, button
        )
        first_table = whole("first_table", first_table, 0, (1 << 32) - count)
        self._adopt(np.zeros(count, TABLE_DTYPE))
        check_status(lib.pp_arena_start(self._config, self._pointer, count, first_table, 0), None)

    def _adopt(self, tables: np.ndarray) -> None:
        self._tables = tables
        self._pointer = ffi.from_buffer("pp_table[]", tables, require_writable=True)
        self.seats = self.settings["seats"]

    @classmethod
    def from_state(cls, state: np.ndarray, **settings) -> Arena:
        """An arena holding a copy of ``state`` (an ``Arena.state``). ``settings`` are
        ``Arena``'s keyword arguments (``arena.settings`` gives them back); seats, blinds,
        ante and straddle default to the first table's."""
        state = np.asarray(state)
        if state.dtype != TABLE_DTYPE:
            raise ArgumentError(
                f"state must be an array of pypoker.arena.TABLE_DTYPE (an "
                f"Arena.state), got dtype {state.dtype}"
            )
        if state.ndim != 1 or len(state) == 0:
            raise ArgumentError(
                f"state must be a non-empty 1-d array of tables, got shape {state.shape}"
            )
        first = state[0]
        seats = int(settings.pop("seats", first["seats"]))
        defaults = dict(stacks=first["start"][:seats].tolist() if seats <= 10 else 200,
                        blinds=(int(first["small_blind"]), int(first["big_blind"])),
                        ante=int(first["ante"]), bb_ante=bool(first["bb_ante"]),
                        straddle=int(first["straddle"]), seed=0, carry=False,
                        button=0)  # fmt: skip
        arena = cls.__new__(cls)
        _, arena._config, arena.settings = make_config(len(state), seats,
                                                       **{**defaults, **settings})  # fmt: skip
        arena._adopt(np.array(state, dtype=TABLE_DTYPE, order="C", copy=True))
        err = thread_error()
        status = lib.pp_arena_check(arena._config, arena._pointer, len(state), err)
        check_status(status, err, what="state row")
        return arena

    def __len__(self) -> int:
        return len(self._tables)

    @property
    def native(self) -> Native:
        """The arena as the C ABI takes it, for the modules that play it natively."""
        return Native(self._config, self._pointer, self._tables)

    @property
    def state(self) -> np.ndarray:
        """A copy of every table: a structured array of ``TABLE_DTYPE`` (``pp_table``).
        Copied as bytes (5 ns a table on Zen 4): NumPy copies a structured array field by
        field, at 90 ns a table."""
        return self._tables.view(np.uint8).copy().view(TABLE_DTYPE)

    def _seat_view(self, field: str) -> np.ndarray:
        view = self._tables[field][:, : self.seats]
        view.flags.writeable = False
        return view

    def observe(self) -> Observation:
        """What each table shows the seat to act, one row a table (see ``Observation``)."""
        n = len(self._tables)
        actor, street = np.empty(n, np.int8), np.empty(n, np.uint8)
        numbers = np.empty((4, n), np.int64)  # pot, to_call, min_to, max_to
        legal, board, hole = (np.empty((n, 5), np.uint8), np.empty((n, 5), np.uint8),
                              np.empty((n, 2), np.uint8))  # fmt: skip
        out = [ffi.from_buffer(a) for a in (actor, street, *numbers, legal, board, hole)]
        status = lib.pp_arena_observe(
            self._pointer, n, *(ffi.cast(t, b) for t, b in zip(_OBSERVE_TYPES, out, strict=True))
        )
        check_status(status, None)
        return Observation(actor, street, numbers[0], self._seat_view("stack"),
                           self._seat_view("bet"), board, hole, numbers[1], numbers[2],
                           numbers[3], legal.view(bool))  # fmt: skip

    def step(self, kinds, amounts=None) -> StepResult:
        """One action at every table: ``kinds`` (N,) of FOLD..ALL_IN and ``amounts`` (N,),
        a RAISE's total bet on the street ("raise to"; ignored for other kinds). The whole
        batch is checked first: an illegal action raises ``IllegalActionError`` naming the
        table, the action and the legal range, and no table changes. Finished hands are
        paid and the next dealt."""
        n = len(self._tables)
        kinds = _actions("kinds", kinds, n, np.uint8)
        amounts = np.zeros(n, np.int64) if amounts is None else _actions("amounts", amounts, n,
                                                                          np.int64)  # fmt: skip
        finished = np.empty(n, np.uint8)
        winnings = np.empty((n, self.seats), np.int64)
        err = thread_error()
        status = lib.pp_arena_step(
            self._config, self._pointer, n, ffi.from_buffer("uint8_t[]", kinds),
            ffi.from_buffer("int64_t[]", amounts), ffi.from_buffer("uint8_t[]", finished),
            ffi.from_buffer("int64_t[]", winnings), err,
        )  # fmt: skip
        if status == lib.PP_ILLEGAL_ACTION:
            self._raise_illegal(int(err.row), int(err.card), int(kinds[err.row]),
                                int(amounts[err.row]))  # fmt: skip
        check_status(status, err)
        return StepResult(finished.view(bool), winnings)

    def _raise_illegal(self, table: int, refusal: int, kind: int, amount: int):
        seen = self.observe()
        view = (int(seen.actor[table]), int(seen.to_call[table]), int(seen.min_raise_to[table]),
                int(seen.max_raise_to[table]), seen.legal[table])  # fmt: skip
        raise IllegalActionError(f"table {table}: {refusal_text(refusal, kind, amount, view)}",
                                 table)  # fmt: skip

    def deal(self, stacks, button=0) -> StepResult:
        """Abandons every table's hand in progress and deals the next from ``stacks``
        (N, seats) (0: the seat sits out; any amounts, short of the blinds too, two seats or
        more with chips) with the button on ``button`` (a seat, or one per table; the next
        seat with chips if that one has none): to replay recorded hands, with
        ``set_cards``. Returns as ``step`` does (a hand without a decision is played out)."""
        n = len(self._tables)
        stacks = np.asarray(stacks)
        if stacks.shape != (n, self.seats) or not np.issubdtype(stacks.dtype, np.integer):
            raise ArgumentError(
                f"stacks must be integers of shape ({n}, {self.seats}), got "
                f"{stacks.dtype} {stacks.shape}"
            )
        if (stacks < 0).any() or (stacks > lib.PP_ARENA_CHIPS_MAX).any():
            raise ArgumentError(f"stacks must be in 0..{lib.PP_ARENA_CHIPS_MAX}")
        buttons = np.broadcast_to(np.asarray(button), (n,))
        if (
            not np.issubdtype(buttons.dtype, np.integer)
            or (buttons < 0).any()
            or (buttons >= self.seats).any()
        ):
            raise ArgumentError(f"button must be a seat (0..{self.seats - 1}) or one per table")
        stacks = np.ascontiguousarray(stacks, np.uint32)
        buttons = np.ascontiguousarray(buttons, np.uint8)
        finished, winnings = np.empty(n, np.uint8), np.empty((n, self.seats), np.int64)
        err = thread_error()
        status = lib.pp_arena_deal(
            self._config, self._pointer, n, ffi.from_buffer("uint32_t[]", stacks),
            ffi.from_buffer("uint8_t[]", buttons), ffi.from_buffer("uint8_t[]", finished),
            ffi.from_buffer("int64_t[]", winnings), err,
        )  # fmt: skip
        if status == lib.PP_BAD_ARGUMENT and int(ffi.cast("int64_t", err.row)) >= 0:
            row = int(err.row)
            raise PokerError(f"stacks[{row}]: two seats or more need chips, and a table holds "
                             f"at most {lib.PP_ARENA_CHIPS_MAX}", row)  # fmt: skip
        check_status(status, err)
        return StepResult(finished.view(bool), winnings)

    def set_cards(self, hole=None, board=None, *, tables=None) -> None:
        """Replaces cards of the hands in progress (to replay a recorded hand): ``hole``
        (T, seats, 2) and ``board`` (T, 5) card ids, 0xFF where unknown, for the tables
        ``tables`` (default: all). A seat with unknown cards may fold or be folded to;
        an action that would bring it to a showdown is refused."""
        index = np.arange(len(self._tables)) if tables is None else np.asarray(tables)
        selected = self._tables[index]
        if hole is not None:
            selected["hole"][:, : self.seats] = _cards("hole", hole, (len(index), self.seats, 2))
        if board is not None:
            selected["board"] = _cards("board", board, (len(index), 5))
        for row, table in zip(index.tolist(), selected, strict=True):
            cards = np.concatenate([table["hole"][: self.seats].ravel(), table["board"]])
            known = cards[cards != NO_CARD]
            if len(np.unique(known)) != len(known):
                raise PokerError(f"table {row}: a card is dealt twice", row)
        self._tables[index] = selected

    def play(self, hands: int, *, record: bool = False, parquet=None, threads=None,
             progress=None, agents=None, net=None):  # fmt: skip
        """Plays ``hands`` more hands at every table with the reference random player (see
        ``pypoker.arena.random_player``) natively. ``record``: returns the history as a
        pyarrow Table (``history.SCHEMA``); ``parquet``: streams it to that file, written
        whole or not at all. ``threads``: tables are split between threads (same result
        for any count). ``progress``: True for a report on stderr, or a callable taking
        (hands done, hands in all). Ctrl-C stops every thread within a few milliseconds.
        ``agents``: who plays each seat in place of the random player (``pypoker.arena.agents``:
        names, ``Agent``s or Python agents); ``net``: an int32 (tables, hands, seats) array
        that receives each hand's net chips per seat."""
        if agents is not None or net is not None:
            from ._seated import play_agents

            return play_agents(self, "random" if agents is None else agents, hands, net=net,
                               record=record, parquet=parquet, threads=threads,
                               progress=progress)  # fmt: skip
        from ._play import play

        return play(self, hands, record=record, parquet=parquet, threads=threads,
                    progress=progress)  # fmt: skip

    def play_batches(self, hands: int, *, threads=None, progress=None):
        """As ``play(hands, record=True)``, as a ``pyarrow.RecordBatchReader``: the hands
        are played as the batches are read, a round at a time, so memory stays bounded."""
        from ._play import play_batches

        return play_batches(self, hands, threads=threads, progress=progress)


_OBSERVE_TYPES = ("int8_t*", "uint8_t*", "int64_t*", "int64_t*", "int64_t*", "int64_t*",
                  "uint8_t*", "uint8_t*", "uint8_t*")  # fmt: skip


def _actions(name: str, values, n: int, dtype) -> np.ndarray:
    array = np.asarray(values)
    if array.dtype == bool or not np.issubdtype(array.dtype, np.integer):
        raise ArgumentError(f"{name} must be integers, got dtype {array.dtype}")
    if array.shape != (n,):
        raise ArgumentError(f"{name} must have shape ({n},), one per table, got {array.shape}")
    if name == "kinds" and n and (array.min() < 0 or array.max() > 4):
        row = int(np.flatnonzero((array < 0) | (array > 4))[0])
        raise ArgumentError(
            f"kinds[{row}] is {array[row]}: action kinds are 0..4 "
            "(fold, check, call, raise, all_in)"
        )
    if name == "amounts" and n and (array.min() < -(1 << 62) or array.max() > 1 << 62):
        raise ArgumentError(f"{name} are out of any table's range")
    return np.ascontiguousarray(array, dtype=dtype)


def _cards(name: str, values, shape: tuple) -> np.ndarray:
    array = np.asarray(values)
    if array.shape != shape:
        raise ArgumentError(f"{name} must have shape {shape}, got {array.shape}")
    if not np.issubdtype(array.dtype, np.integer):
        raise ArgumentError(f"{name} must be card ids (integers), got dtype {array.dtype}")
    bad = (array > 51) & (array != NO_CARD) | (array < 0)
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ArgumentError(
            f"{name}{list(where)} is {array[where]}: not a card id (0..51, or 0xFF unknown)"
        )
    return array.astype(np.uint8)
